package toolbox

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// Locations in files that no longer exist.
//
// A server's index outlives the files it was built from: after the shell
// moved cJSON_Utils.c to cJSON_Utils_moved.c, clangd's background index
// still listed a reference at cJSON_Utils.c:348 beside the moved file's,
// so a references answer showed a use in a file that is gone, and a
// rename's check said "the rename leaves 1 use … (cJSON_Utils.c:348):
// rename it too (edit), or the code breaks" and "Not checked:
// cJSON_Utils.c". A location whose file does not exist on disk is no use
// any change can break or must edit: it is left out of navigation
// answers, of a rename's uses left and of a change's dependents, and the
// answer says once that the index still lists it. A file that exists but
// cannot be read is kept: whether it uses the name is unknown, not false.

// goneUses counts the locations a server listed in files that no longer
// exist.
type goneUses struct {
	files []string // as shown: workspace-relative, or absolute outside it
	count int
	// gone memoizes fileGone by URI: one stat per file per answer.
	gone map[string]bool
}

// isGone says whether uri is a file: URI whose file does not exist,
// stating it once per answer.
func (g *goneUses) isGone(uri string) bool {
	if g.gone == nil {
		g.gone = map[string]bool{}
	}
	gone, ok := g.gone[uri]
	if !ok {
		gone = fileGone(uri)
		g.gone[uri] = gone
	}
	return gone
}

// add counts one location in the gone file shown as shown.
func (g *goneUses) add(shown string) {
	g.count++
	for _, f := range g.files {
		if f == shown {
			return
		}
	}
	g.files = append(g.files, shown)
}

// notice is what the answer says of the locations left out ("" none);
// noun and nouns name them ("use", "uses").
func (g *goneUses) notice(noun, nouns string) string {
	if g == nil || g.count == 0 {
		return ""
	}
	return "the server's index still lists " + strconv.Itoa(g.count) + " " + plural(g.count, noun, nouns) + " in " + plural(len(g.files), "a file that no longer exists", "files that no longer exist") + " (" + core.Listed(g.files, 8) + "); left out"
}

// fileGone says whether uri is a file: URI whose path does not exist on
// disk; false when it cannot tell (another scheme, another error).
func fileGone(uri string) bool {
	p, ok := workspacefs.HostPaths.URIPath(uri)
	if !ok {
		return false
	}
	_, err := os.Lstat(p)
	return errors.Is(err, fs.ErrNotExist)
}

// shownPath is how an answer names the file at uri: relative to the
// workspace at wsDir when inside it, else its path.
func shownPath(uri, wsDir string) string {
	p, ok := workspacefs.HostPaths.URIPath(uri)
	if !ok {
		return uri
	}
	if rel, err := filepath.Rel(wsDir, p); err == nil && workspacefs.Inside(wsDir, p) {
		return filepath.ToSlash(rel)
	}
	return p
}

// dropGoneLocations is a navigation result (a JSON list of Locations or
// LocationLinks) without the locations in files that no longer exist,
// and those counted; the result as it is when it is not such a list (the
// core says what is wrong with it).
func dropGoneLocations(raw json.RawMessage, workspaceURI string) (json.RawMessage, *goneUses) {
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return raw, nil
	}
	wsDir, _ := workspacefs.HostPaths.URIPath(workspaceURI)
	g := &goneUses{}
	kept := items[:0:0]
	for _, item := range items {
		var l struct {
			URI       string `json:"uri"`
			TargetURI string `json:"targetUri"`
		}
		json.Unmarshal(item, &l)
		uri := l.URI
		if uri == "" {
			uri = l.TargetURI
		}
		if uri != "" && g.isGone(uri) {
			g.add(shownPath(uri, wsDir))
			continue
		}
		kept = append(kept, item)
	}
	if g.count == 0 {
		return raw, nil
	}
	out, err := json.Marshal(kept)
	if err != nil {
		return raw, nil
	}
	return out, g
}
