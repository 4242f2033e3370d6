package toolbox

import (
	"context"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// A change of Vue components, for findDependents: the users of those
// whose public surface it may change (vuesurface.go, vueimporters.go),
// its dependents, and the listeners of the events they no longer emit
// (vuelisteners.go), named in the answer.

// editedFile is a changed file's text before and after the change
// (created files are not among them), for the textual searches of its
// dependents (this file's, barrelimporters.go's).
type editedFile struct{ rel, before, after string }

// scriptSearch is the texts of a workspace's script and component files
// read for the users of changed components, or why they could not all
// be read.
type scriptSearch struct {
	texts  map[string]string
	reason string // "" when every such file was read
}

// readScriptWorkspace reads the workspace's script and component files
// (those a provider owns), within the textual search's bounds.
func (t *Toolbox) readScriptWorkspace(ctx context.Context, r *workspacefs.Root) scriptSearch {
	census := t.takeCensus(ctx, r.Dir, r.Dir, false)
	if census.stopped {
		return scriptSearch{reason: "the workspace walk stopped (over its entries or out of time)"}
	}
	var files []string
	for _, owned := range census.owned {
		for _, f := range owned {
			if slices.Contains(scriptExts, strings.ToLower(path.Ext(f.rel))) {
				files = append(files, f.rel)
			}
		}
	}
	if len(files) > maxTextualFiles {
		return scriptSearch{reason: "the workspace has more script files than the search reads"}
	}
	texts := map[string]string{}
	read := 0
	for _, rel := range files {
		if ctx.Err() != nil {
			return scriptSearch{reason: "out of time"}
		}
		if read > maxTextualBytes {
			return scriptSearch{reason: "the workspace's script files are more than the search reads"}
		}
		f, err := r.Read(r.Abs(rel))
		if err != nil || !f.Exists {
			continue
		}
		texts[rel] = f.Text
		read += len(f.Text)
	}
	return scriptSearch{texts: texts}
}

// vueChange is what findDependents learns of the changed .vue files whose
// public surface may change: their users (dependents) and the listeners
// of the events they no longer emit (the answer's incomplete notice).
type vueChange struct {
	files  []string
	notice string // the users not all found: the dependents' partial notice
	dead   string // listeners of old event names: the answer's incomplete notice
}

// vueComponentChange finds the users of the changed .vue files whose
// public surface the change may change, and the listeners of the events
// it stops emitting, outside the changed files (isChanged).
func (t *Toolbox) vueComponentChange(ctx context.Context, r *workspacefs.Root, changed []editedFile, isChanged map[string]bool) vueChange {
	var comps []string
	var befores, afterTexts []string
	for _, c := range changed {
		if !strings.EqualFold(path.Ext(c.rel), ".vue") || !vueSurfaceChanged(c.before, c.after) {
			continue
		}
		comps = append(comps, c.rel)
		befores = append(befores, c.before)
		afterTexts = append(afterTexts, c.after)
	}
	if len(comps) == 0 {
		return vueChange{}
	}
	ws := t.readScriptWorkspace(ctx, r)
	if ws.reason != "" {
		return vueChange{notice: "the files that use " + listOr(comps) + " could not all be found (" + ws.reason + "), and a change to its props, emits or exposed members may break them unseen: not checked"}
	}
	users := componentUsers(ws.texts, comps, isChanged)
	out := vueChange{files: users.files}
	// The listeners as the change leaves them: the changed files' texts
	// after it (the disk still holds those before).
	after := maps.Clone(ws.texts)
	for _, c := range changed {
		if _, read := after[c.rel]; read {
			after[c.rel] = c.after
		}
	}
	var dead []string
	for i, comp := range comps {
		dead = append(dead, deadListenerNotices(after, comp, users.names[comp], befores[i], afterTexts[i])...)
	}
	out.dead = strings.Join(dead, "; ")
	return out
}

// listOr lists paths for a sentence: "a", "a or b", "a, b or c".
func listOr(paths []string) string {
	if len(paths) <= 1 {
		return strings.Join(paths, "")
	}
	return strings.Join(paths[:len(paths)-1], ", ") + " or " + paths[len(paths)-1]
}
