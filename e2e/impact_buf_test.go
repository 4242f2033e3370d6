package e2e

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestImpactBufImports: buf's server checks a file only when that file is
// opened or changed (its entry's reportsOnlySynced). After an edit through
// lspseam of a file another open file imports, the importer's report from
// before the edit answered "no problems, fresh" while `buf build` failed,
// and after the fix the old errors, fresh. The importer is synced again
// before its report is awaited: the edit's delta lists the problem it
// introduced there, code_diagnostics answers it fresh, and undone, the
// importer is clean again, fresh.
func TestImpactBufImports(t *testing.T) {
	requireServers(t, "buf")
	dir := copyFixture(t, "proto")
	srv := catalogServe(t)
	defer srv.shutdown(t)
	const importer, changed = "shapes/v1/service.proto", "shapes/v1/shape.proto"
	diagnostics := func(what, want string) {
		t.Helper()
		a := srv.toolCall(t, "code_diagnostics", jsonArgs(map[string]any{"path": importer}), dir)
		if text := a.Content[0].Text; a.IsError || !strings.Contains(text, want) || !strings.Contains(text, "fresh") {
			t.Fatalf("%s: code_diagnostics of %s answered %q; want %q, fresh", what, importer, text, want)
		}
	}
	diagnostics("before the edit", "No problems in "+importer)
	if a := srv.toolCall(t, "read", jsonArgs(map[string]any{"file_path": changed}), dir); a.IsError {
		t.Fatalf("read: %s", a.Content[0].Text)
	}
	rename := verifyEdit{"message Circle {", "message Disc {"}
	a := srv.toolCall(t, "edit", editArgs(changed, rename, false), dir)
	var r struct {
		Diagnostics *struct {
			Others *impactOthers `json:"others"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal(a.StructuredContent, &r); err != nil || a.IsError || r.Diagnostics == nil || r.Diagnostics.Others == nil {
		t.Fatalf("edit: no delta of other files (%v): %s", err, a.Content[0].Text)
	}
	if o := r.Diagnostics.Others; !slices.Contains(o.WithIntroduced, importer) || slices.Contains(o.Stale, importer) {
		t.Fatalf("edit: %s not listed with new problems (or stale): %s", importer, a.Content[0].Text)
	}
	diagnostics("after the edit", importer+"\n  9:3 error")
	if a := srv.toolCall(t, "edit", editArgs(changed, rename, true), dir); a.IsError {
		t.Fatalf("undo: %s", a.Content[0].Text)
	}
	diagnostics("after the undo", "No problems in "+importer)
}
