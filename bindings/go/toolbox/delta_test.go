package toolbox

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// A changed file with no report from before the change is "not covered by
// any language server" only when no server covers it: when its server
// failed (typescript-language-server whose tsserver died: "no language
// server covers api.ts" was the answer), the delta names the failure.
func TestChangedFileDeltaSaysWhyUnreported(t *testing.T) {
	r := openTestRoot(t, t.TempDir())
	f := plannedFile{rel: "api.ts", before: "export const a = 1;\n", after: "\n"}
	failed := lspseam.Errorf(lspseam.CodeServerFailed, "language server %q stopped", "typescript")
	uncovered := lspseam.Errorf(lspseam.CodeUnavailable, "no server for .ts")
	checked := &lspseam.FileCheck{File: lspseam.SourceFile{URI: workspacefs.FileURI(r.Abs("api.ts")), Text: "\n"}, Report: lspseam.DiagnosticReport{Diagnostics: json.RawMessage("[]"), How: "pull", Fresh: true}}
	var before baseline
	before.unreport("api.ts", failed)
	var uncoveredBefore baseline
	uncoveredBefore.unreport("api.ts", uncovered)
	for _, tt := range []struct {
		name       string
		before     baseline
		after      *lspseam.FileCheck
		unreported string // a substring; "" for none (no server covers it)
	}{
		{"failed before", before, &lspseam.FileCheck{Err: failed}, "before the edit: LSP_SERVER_FAILED"},
		{"failed after only", baseline{}, &lspseam.FileCheck{Err: failed}, "after the edit: LSP_SERVER_FAILED"},
		{"reported after only", baseline{}, checked, "reported after the edit only"},
		{"no server covers it", uncoveredBefore, &lspseam.FileCheck{Err: uncovered}, ""},
		{"not checked at all", baseline{}, nil, ""},
	} {
		d := changedFileDelta(r, f, tt.before, tt.after, "")
		if d.How != "none" || (tt.unreported == "") != (d.Unreported == "") || !strings.Contains(d.Unreported, tt.unreported) {
			t.Errorf("%s: how %q, unreported %q; want how none, unreported with %q", tt.name, d.How, d.Unreported, tt.unreported)
		}
	}
	// The core's text names the failure, not a missing server.
	tb, _ := newFSToolbox(t)
	out, err := tb.coreJSON(context.Background(), "diagnosticsDelta", map[string]any{"workspaceUri": workspacefs.FileURI(r.Dir), "files": []any{changedFileDelta(r, f, before, &lspseam.FileCheck{Err: failed}, "")}})
	if err != nil {
		t.Fatal(err)
	}
	if text := string(out); strings.Contains(text, "no language server covers") || !strings.Contains(text, "the language server of api.ts gave no report on it (before the edit: LSP_SERVER_FAILED") {
		t.Errorf("the delta of a file whose server failed: %s", text)
	}
}
