package toolbox

import (
	"context"
	"sort"
	"strconv"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// A preview's speculative check: before anything is written, the change's
// new texts are shown to the server as unsaved edits (Session.Speculate,
// which gives every document the disk's bytes back before it returns), and
// the delta they would cause is added to the preview, marked speculative —
// so a rename onto an existing name, or an edit that breaks its file or
// the files that use what it changes (the change's dependents, impact.go,
// checked beside it), says so while it can still be declined. Files a change creates, deletes
// or renames cannot be shown without writing; the preview names them as
// not checked. Nor are the files whose new text imports a created or
// moved file shown (core.WritesNameOf): their imports of it would not
// resolve, and what they type through it would be untyped, so the check
// would list their problems with it as resolved and miss those the change
// causes; the preview names them as not checked before writing, and why.
// (A server cannot be shown the moved file instead: tsserver resolves an
// import to an open document that is not on the disk only in a directory
// that is, and a move's new directory is not, until it is written.)

// withSpeculation adds to a preview's answer the diagnostics delta its
// files would have, or says why there is none; the preview stands either
// way.
func (t *Toolbox) withSpeculation(ctx context.Context, a answer, r *workspacefs.Root, s lspseam.Session, files []plannedFile) answer {
	var shown []plannedFile
	var changed []lspseam.SpeculativeText
	var left, arriving, importers []string
	for _, f := range files {
		if f.created || f.deleted || f.from != "" {
			left = append(left, f.rel)
			if f.created {
				arriving = append(arriving, f.rel)
			}
		}
	}
	for _, f := range files {
		switch {
		case f.created || f.deleted || f.from != "":
		case core.WritesNameOf(f.before, f.after, arriving):
			importers = append(importers, f.rel)
		default:
			shown = append(shown, f)
			changed = append(changed, lspseam.SpeculativeText{Path: f.rel, Text: f.after})
		}
	}
	if len(left) > 0 {
		a.text += "\nNot checked before writing: " + strings.Join(left, ", ") + " (a created, deleted or renamed file cannot be shown to the server without writing it)."
	}
	if len(importers) > 0 {
		n := len(importers)
		a.text += "\nNot checked before writing: " + strings.Join(importers, ", ") + " (" + plural(n, "it imports ", "they import ") + strings.Join(arriving, ", ") +
			", which the server cannot see until the change is written: checked before, " + plural(n, "its", "their") + " imports of it would not resolve and what " +
			plural(n, "it uses", "they use") + " from it would be untyped, hiding the problems the change causes there and showing others as resolved; the applied change checks " + plural(n, "it", "them") + ")."
		left = append(left, importers...)
	}
	// A header the server reads from the disk when it parses the files
	// that include it (clangd) is shown to the server for its own check
	// only: the other files would be checked against its old text.
	headers, others := splitHeadersFromDisk(shown, s.Policy())
	if len(headers) > 0 {
		names := relsOf(others)
		left = append(left, names...)
		shown, changed = headers, changed[:0]
		for _, f := range headers {
			changed = append(changed, lspseam.SpeculativeText{Path: f.rel, Text: f.after})
		}
		what := "the files that use what changed"
		if len(names) > 0 {
			what = strings.Join(names, ", ") + " and " + what
		}
		a.text += "\nNot checked before writing: " + what + " (language server " + strconv.Quote(s.Server()) + " reads " + strings.Join(relsOf(headers), ", ") + " from the disk when it parses the files that include " + plural(len(headers), "it", "them") + ", so they cannot be checked against " + plural(len(headers), "its", "their") + " new text before it is written; the applied change checks them)."
	}
	// A file another server serves (a .svelte use a .ts rename edits)
	// cannot be shown to it: the speculative text goes to this session's
	// server only, and the other reads the disk.
	if groups := t.otherServers(ctx, s, r.Dir, relsOf(shown)); len(groups) > 0 {
		var elsewhere, servers []string
		other := map[int]bool{}
		for id, group := range groups {
			servers = append(servers, strconv.Quote(id))
			for _, i := range group {
				other[i] = true
			}
		}
		sort.Strings(servers)
		keptShown, keptChanged := shown[:0:0], changed[:0:0]
		for i, f := range shown {
			if other[i] {
				elsewhere = append(elsewhere, f.rel)
				continue
			}
			keptShown, keptChanged = append(keptShown, f), append(keptChanged, changed[i])
		}
		shown, changed = keptShown, keptChanged
		left = append(left, elsewhere...)
		n := len(elsewhere)
		a.text += "\nNot checked before writing: " + strings.Join(elsewhere, ", ") + " (language server " + strings.Join(servers, ", ") + " checks " + plural(n, "it", "them") +
			", and the change is shown before writing only to " + strconv.Quote(s.Server()) + "; the applied change checks " + plural(n, "it", "them") + ")."
	}
	if len(left) > 0 {
		a.fields = append(a.fields, field{"speculativeLeftOut", left})
	}
	if len(shown) == 0 {
		return a
	}
	var imp *impact
	if len(headers) == 0 {
		imp = t.impactOf(ctx, r, s, shown) // the files that use what the change touches, checked beside it
		if imp != nil {
			t.leaveOtherServers(ctx, r, s, imp.found)
		}
	}
	before, err := (*Toolbox)(nil).diagnosticsBeforeAcross(ctx, s, "", shown, imp, lspseam.DiagnosticsOptions{})
	if err != nil {
		return withoutSpeculation(a, err)
	}
	var also []string
	if imp != nil {
		also = imp.found.paths
	}
	checks, err := s.Speculate(ctx, changed, also, lspseam.DiagnosticsOptions{})
	if err != nil {
		return withoutSpeculation(a, err)
	}
	var deltaFiles []any
	for i, f := range shown {
		deltaFiles = append(deltaFiles, changedFileDelta(r, f, before, &checks[i], ""))
	}
	delta := map[string]any{"workspaceUri": workspacefs.FileURI(r.Dir), "files": deltaFiles, "speculative": true}
	if imp != nil {
		delta["dependents"] = dependentsInput(ctx, r, imp.found, imp.before, checks[len(shown):])
	}
	with, err := t.withDelta(ctx, a, delta)
	if err != nil {
		return withoutSpeculation(impFound(imp).noted(a), err)
	}
	return impFound(imp).noted(with)
}

// withoutSpeculation is a preview whose speculative check failed: the
// preview stands, and says why it has no delta.
func withoutSpeculation(a answer, err error) answer {
	msg := errorMessage(err)
	a.text += "\nNot checked before writing: " + msg
	a.fields = append(a.fields, field{"speculativeError", msg})
	return a
}

// splitHeadersFromDisk separates the files the server reads from the
// disk when it parses the files that include them
// (Readiness.ReadsFromDisk) from the others; none when no file is such a
// header.
func splitHeadersFromDisk(files []plannedFile, policy lspseam.Readiness) (headers, others []plannedFile) {
	for _, f := range files {
		if policy.ReadsFromDisk(f.rel) {
			headers = append(headers, f)
		} else {
			others = append(others, f)
		}
	}
	return headers, others
}

// relsOf is the files' workspace-relative paths.
func relsOf(files []plannedFile) []string {
	rels := make([]string, len(files))
	for i, f := range files {
		rels[i] = f.rel
	}
	return rels
}

// leaveOtherServers moves the dependents another server serves out of
// found's files to check, into its not-checked ones (reason
// core.NotCheckedOtherServer): a speculative check shows the change to
// the session's server only, and the other would check the files against
// what the disk still holds.
func (t *Toolbox) leaveOtherServers(ctx context.Context, r *workspacefs.Root, s lspseam.Session, found *dependents) {
	groups := t.otherServers(ctx, s, r.Dir, found.paths)
	if len(groups) == 0 {
		return
	}
	other := map[int]bool{}
	for _, group := range groups {
		for _, i := range group {
			other[i] = true
		}
	}
	kept := found.paths[:0:0]
	for i, rel := range found.paths {
		if other[i] {
			found.notChecked = append(found.notChecked, map[string]any{"uri": workspacefs.FileURI(r.Abs(rel)), "reason": core.NotCheckedOtherServer})
			continue
		}
		kept = append(kept, rel)
	}
	found.paths = kept
}
