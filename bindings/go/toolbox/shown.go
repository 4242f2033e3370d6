package toolbox

import (
	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// What an answer shows of a file is a read of it (the observation policy,
// observations.go): the files whose lines a code_navigate answer shows
// are observed at the version of the text the lines were cut from.

// shownText is a file whose lines an answer shows the model: its path,
// canonical as the session read it, and the version of the text the
// lines were cut from.
type shownText struct {
	Path, Version string
}

// contentVersions hashes texts (by URI) while the caller goes on, and
// wait gives their versions: the sha256 of every file a references answer
// read (3 MB for 60 files of 50 KB: 8 ms on one core) runs beside the
// answer's outlines and the module's call instead of after them.
func contentVersions(texts map[string]lspseam.SourceFile) (wait func() map[string]string) {
	done := make(chan map[string]string, 1)
	go func() {
		out := make(map[string]string, len(texts))
		for uri, src := range texts {
			out[uri] = workspacefs.ContentVersion(src.Text)
		}
		done <- out
	}()
	var out map[string]string
	return func() map[string]string {
		if out == nil {
			out = <-done
		}
		return out
	}
}

// shownTexts is the files of texts (by URI, as read for the answer, with
// their versions) that locs, the locations an answer shows, show lines
// of (their source line, context or body; the locations' paths are
// relative to the workspace workspaceURI names, as the core made them).
func shownTexts(locs []lspseam.CodeLocation, texts map[string]lspseam.SourceFile, versions map[string]string, workspaceURI string) []shownText {
	wsPath, ok := core.WorkspacePath(workspaceURI)
	if !ok {
		return nil
	}
	with := map[string]bool{}
	for _, l := range locs {
		if !l.OutsideWorkspace && (l.Snippet != "" || l.SnippetLine > 0) {
			with[l.Path] = true
		}
	}
	var out []shownText
	for uri, src := range texts {
		if with[core.DisplayPath(uri, wsPath)] {
			out = append(out, shownText{Path: src.Path, Version: versions[uri]})
		}
	}
	return out
}

// observeShown records, for each file an answer showed lines of, the
// version of the text they were cut from as this session's observation,
// as read does: the code tools show code so that a model need not read
// it, and a code_replace written from a body a code_navigate showed,
// after another agent changed that body, silently undid the change
// ("Applied", a tester's finding) where the same replacement written from
// a read was FS_STALE. The version is the shown text's, not the file's
// now: a change between the answer's read and this record stays a
// change the model has not seen.
func (t *Toolbox) observeShown(ws string, shown []shownText) {
	if len(shown) == 0 {
		return
	}
	r, err := workspacefs.Open(ws)
	if err != nil {
		return
	}
	defer r.Close()
	for _, s := range shown {
		rel, err := r.Rel(s.Path)
		if err != nil {
			continue // outside the workspace: no tool writes it
		}
		// s.Path is canonical, so rel has no link left to resolve: the
		// key is the one read gives the file (r.Abs of its Real).
		t.observed.recordRead(r.Abs(rel), s.Version)
	}
}
