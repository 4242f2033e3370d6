package toolbox

import (
	"context"
	"strconv"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// The overrides a Python method's rename leaves (core.PythonOverrides).
//
// Pyright and basedpyright rename a method's declaration and its typed
// uses, not the methods of subclasses overriding it, which then quietly
// stop overriding (nothing is an error in Python, so the delta says
// nothing either). The workspace's Python files are read for the
// subclasses of the method's class, within the textual search's bounds
// (textualuses.go), and the overrides the rename leaves with the old name
// are named in its incomplete notice. So are the base classes' methods
// the renamed one overrides: a tester renamed httpx's
// BasicAuth.auth_flow, and BasicAuth quietly fell back to Auth's
// `raise NotImplementedError` (core.PythonOverridden).

// renameOverrides is the notice for the methods overriding the renamed
// Python method rt, and those it overrides, that the rename's files
// leave named as before ("" when none, or rt is not a Python method).
func (t *Toolbox) renameOverrides(ctx context.Context, r *workspacefs.Root, rt lspseam.ResolvedTarget, files []plannedFile) string {
	class := rt.Container
	if i := strings.LastIndexByte(class, '.'); i >= 0 {
		class = class[i+1:]
	}
	if rt.Kind != "method" || class == "" || rt.Identifier == "" || !strings.HasSuffix(rt.Path, ".py") && !strings.HasSuffix(rt.Path, ".pyi") {
		return ""
	}
	sel, ok := t.service.Selection(ctx, rt.Path, r.Dir)
	if !ok {
		return ""
	}
	census := t.takeCensus(ctx, r.Dir, r.Dir, false)
	var texts []core.SourceText
	read := 0
	for i, f := range census.owned[sel.ID] {
		if i >= maxTextualFiles || read >= maxTextualBytes || ctx.Err() != nil {
			break
		}
		file, err := r.Read(r.Abs(f.rel))
		if err != nil || !file.Exists || !strings.Contains(file.Text, "class") {
			continue
		}
		read += len(file.Text)
		texts = append(texts, core.SourceText{Path: f.rel, Text: file.Text})
	}
	planned := map[string]plannedFile{}
	for _, f := range files {
		planned[f.rel] = f
	}
	keptName := func(lines []core.FileLine) []string {
		var left []string
		for _, o := range lines {
			if f, ok := planned[o.Path]; ok && core.IdentifierOffsets(o.Path, lineAt(f.after, o.Line-1), rt.Identifier) == nil {
				continue // renamed with the rest
			}
			left = append(left, o.Path+":"+strconv.Itoa(o.Line))
		}
		return left
	}
	var notices []string
	if left := keptName(core.PythonOverrides(texts, class, rt.Identifier)); len(left) > 0 {
		notices = append(notices, strconv.Itoa(len(left))+" "+plural(len(left), "method", "methods")+" named "+rt.Identifier+" in subclasses of "+class+" (overrides) keep the old name: "+core.Listed(left, maxLeftUses)+"; the server renames no overrides: rename each with code_rename, or they stop overriding")
	}
	// The other way: the method overrides a base class's, which keeps
	// the name, so the renamed one stops overriding it and code calling
	// the base's name on this class's objects (a template method's
	// `self.auth_flow(request)`) reaches the base's instead.
	if left := keptName(core.PythonOverridden(texts, class, rt.Identifier)); len(left) > 0 {
		notices = append(notices, rt.Identifier+" overrides the "+plural(len(left), "method", "methods")+" of that name in "+plural(len(left), "a base class", "base classes")+" of "+class+" ("+core.Listed(left, maxLeftUses)+"), which the rename leaves: renamed, it no longer overrides "+plural(len(left), "it", "them")+", and calls of "+rt.Identifier+" on "+class+" objects (through the base class too) reach the base's instead; rename the base's method as well (code_rename at it), or keep the name")
	}
	return strings.Join(notices, "; ")
}
