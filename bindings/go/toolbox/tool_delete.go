package toolbox

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// code_delete: a symbol's declaration and its doc comment go, through the
// applier like every change, but only while nothing outside the
// declaration uses it, as far as a complete search can tell (an answer
// the session marks possibly incomplete refuses: ReasonUsesUnknown). The
// server's references decide (uses inside the declaration, a recursive
// call, do not count); they are asked again when a preview is applied,
// since a use added elsewhere meanwhile does not touch the previewed
// file. A search cannot be complete where the server does not look: the
// source files a C compilation database does not list refuse it only when
// they or what they include spell the name (unsearchedfiles.go); Go
// files the default build excludes, beside the declaration or importing
// its package, that name it (gobuildtags.go) refuse the deletion too, and so does a
// symbolic link in the workspace to the declaration's file, whose uses
// the server does not count as its (linkedpaths.go), and, in a dynamically
// typed language, a line of its files naming the identifier that is not
// among the references (textualuses.go).

func (t *Toolbox) deleteSymbol(ctx context.Context, call lspseam.CodeCall, ws string) (answer, error) {
	if call.PreviewID != "" {
		// Applying: the uses are checked again first.
		r, err := t.openFSRoot(ws)
		if err != nil {
			return answer{}, err
		}
		defer r.Close()
		err = t.service.Session(ctx, call.Path, ws, func(ctx context.Context, s lspseam.Session) error {
			_, err := t.checkedDeletion(ctx, s, r, call)
			return err
		})
		if err != nil {
			return answer{}, err
		}
	}
	return t.refactorChange(ctx, call, ws, func(ctx context.Context, s lspseam.Session, r *workspacefs.Root) (change, error) {
		return t.checkedDeletion(ctx, s, r, call)
	})
}

// unsearchedFiles is the session's lspseam.UnsearchedFilesLister answer
// (false when it is none).
func unsearchedFiles(s lspseam.Session) ([]string, bool) {
	if l, ok := s.(lspseam.UnsearchedFilesLister); ok {
		return l.UnsearchedFiles()
	}
	return nil, false
}

// checkedDeletion is the change that deletes the call's target, once
// neither its references (deletionEdit) nor a check of the code without
// it (deletionBreaks) show a use left.
func (t *Toolbox) checkedDeletion(ctx context.Context, s lspseam.Session, r *workspacefs.Root, call lspseam.CodeCall) (change, error) {
	uri, edit, rt, err := t.deletionEdit(ctx, s, r, *call.Target)
	if err != nil {
		return change{}, err
	}
	we, _ := json.Marshal(map[string]any{"changes": map[string][]json.RawMessage{uri: {edit}}})
	files, err := t.workspaceEditFiles(ctx, r, s.Server(), call.Tool, we, nil)
	if err != nil || len(files) != 1 {
		return change{what: "delete " + targetLabel(rt), files: files}, err
	}
	checked := t.withSpeculation(ctx, answer{}, r, s, files)
	if err := deletionBreaks(rt, checked, files[0]); err != nil {
		return change{}, err
	}
	return change{what: "delete " + targetLabel(rt), files: files, checked: &checked}, nil
}

// deletionEdit is the edit that deletes the target's declaration, or
// LSP_CONFLICT listing the uses outside it (ReasonStillReferenced) or
// saying why the search cannot tell (ReasonUsesUnknown).
func (t *Toolbox) deletionEdit(ctx context.Context, s lspseam.Session, r *workspacefs.Root, target lspseam.Target) (string, json.RawMessage, lspseam.ResolvedTarget, error) {
	if target.Symbol == "" {
		return "", nil, lspseam.ResolvedTarget{}, lspseam.Errorf(lspseam.CodeInvalidArgument, "code_delete deletes a symbol: give target.symbol (a line target has no declaration to delete)")
	}
	uri, edit, rt, err := t.targetEdit(ctx, s, target, "delete", "", 0)
	if err != nil {
		return "", nil, rt, err
	}
	var deleted struct{ Range lspseam.Range }
	if err := json.Unmarshal(edit, &deleted); err != nil {
		return "", nil, rt, lspseam.Errorf(lspseam.CodeInternal, "the core's delete edit is unreadable: %v; this is a bug in lspseam", err)
	}
	raw, err := t.referencesWithComponents(ctx, s, uri, rt.Position)
	if err != nil {
		return "", nil, rt, err
	}
	refs, err := t.core.Translate(ctx, lspseam.OpReferences, raw)
	if err != nil {
		return "", nil, rt, serverPayloadError(err, s.Server(), "textDocument/references")
	}
	var outside []lspseam.Location
	for _, l := range refs.Locations {
		if workspacefs.HostPaths.URIKey(l.URI) != workspacefs.HostPaths.URIKey(uri) || !l.Range.Within(deleted.Range) {
			outside = append(outside, l)
		}
	}
	if len(outside) == 0 {
		// "No use left" is only as good as the search: one the server
		// says may be partial (loading, a file in no project, no index)
		// could have missed the uses that matter.
		why := s.Notice()
		if unsearched, ok := unsearchedFiles(s); why != "" && ok {
			// The server's search left out files it was not given
			// (unsearchedfiles.go): they can use the name only where
			// they spell it.
			seen, total, stopped := t.unsearchedSpellings(ctx, r, rt, deleted.Range, unsearched)
			switch {
			case stopped != "":
				why += "; searching those files for `" + rt.Identifier + "` could not be finished: " + stopped
			case total > 0:
				more := ""
				if total > len(seen) {
					more = " and " + strconv.Itoa(total-len(seen)) + " more " + plural(total-len(seen), "line", "lines")
				}
				e := lspseam.Errorf(lspseam.CodeConflict, "cannot tell whether %s is still used, so nothing was deleted: the server found no use outside it, but %s%s %s `%s` in files the server did not search, or that they include (%s); check %s, then delete it with code_replace or edit", targetLabel(rt), strings.Join(seen, ", "), more, plural(total, "spells", "spell"), rt.Identifier, why, plural(total, "that line", "those lines"))
				e.Reason = core.ReasonUsesUnknown
				return "", nil, rt, e
			default:
				why = ""
			}
		}
		if why != "" {
			e := lspseam.Errorf(lspseam.CodeConflict, "cannot tell whether %s is still used, so nothing was deleted: the server found no use outside it, but its search may be incomplete (%s); delete it with code_replace or edit once you have checked its uses yourself", targetLabel(rt), why)
			e.Reason = core.ReasonUsesUnknown
			return "", nil, rt, e
		}
		if links := linksToFile(ctx, linksOf(s), r, rt.Path); len(links) > 0 {
			e := lspseam.Errorf(lspseam.CodeConflict, "cannot tell whether %s is still used, so nothing was deleted: the server found no use outside it, but the workspace also reaches its file through the symbolic %s %s, and a server takes the file under each path as another file, so uses through %s are not among its references; check them, then delete it with code_replace or edit", targetLabel(rt), plural(len(links), "link", "links"), core.Listed(links, 8), plural(len(links), "it", "them"))
			e.Reason = core.ReasonUsesUnknown
			return "", nil, rt, e
		}
		if hidden := t.goBuild.excludedUsers(r, rt.Path, []string{rt.Identifier}); len(hidden) > 0 {
			e := lspseam.Errorf(lspseam.CodeConflict, "cannot tell whether %s is still used, so nothing was deleted: the server found no use outside it, but it searches only the files of this machine's build, and the build excludes %s, which %s `%s`; check %s, then delete it with code_replace or edit", targetLabel(rt), core.Listed(hidden, 8), plural(len(hidden), "names", "name"), rt.Identifier, plural(len(hidden), "that file", "those files"))
			e.Reason = core.ReasonUsesUnknown
			return "", nil, rt, e
		}
		if seen := t.textualUses(ctx, r, rt, deleted.Range, refs.Locations); len(seen) > 0 {
			e := lspseam.Errorf(lspseam.CodeConflict, "cannot tell whether %s is still used, so nothing was deleted: the server found no use outside it, but in a dynamically typed language it does not see uses through values of unknown type or aliases, and `%s` also appears at %s; check %s, then delete it with code_replace or edit", targetLabel(rt), rt.Identifier, strings.Join(seen, ", "), plural(len(seen), "that line", "those lines"))
			e.Reason = core.ReasonUsesUnknown
			return "", nil, rt, e
		}
		return uri, edit, rt, nil
	}
	wsURI := s.WorkspaceURI()
	listed, rerr := t.core.Render(ctx, lspseam.Result{Kind: lspseam.KindLocations, Locations: outside, WorkspaceURI: wsURI}, wsURI, lspseam.Limits{MaxLocations: maxListedUses})
	uses := strconv.Itoa(len(outside)) + " " + plural(len(outside), "use", "uses")
	e := lspseam.Errorf(lspseam.CodeConflict, "%s is still used: %s outside its declaration, so nothing was deleted; change or remove them first", targetLabel(rt), uses)
	if rerr == nil {
		e.Message += ":\n" + listed.Text
	}
	e.Reason = core.ReasonStillReferenced
	return "", nil, rt, e
}
