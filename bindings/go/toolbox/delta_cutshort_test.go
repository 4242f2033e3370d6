package toolbox

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// stoppingSession is a session whose check after a change is cut short as
// a stopping lspseam cuts it: the files are opened, no report comes, and
// Check fails with the call's context.
type stoppingSession struct {
	lspseam.Session
	r *workspacefs.Root
}

func (s stoppingSession) Check(ctx context.Context, paths []string, _ lspseam.DiagnosticsOptions) ([]lspseam.FileCheck, error) {
	out := make([]lspseam.FileCheck, len(paths))
	for i, p := range paths {
		out[i].File = lspseam.SourceFile{Path: p, URI: workspacefs.FileURI(s.r.Abs(p)), Text: "package a\n\nfunc Greet() {}\n"}
	}
	return out, errors.Join(ctx.Err(), errors.New("the session ended"))
}

// A change whose check after is cut short (lspseam stopping while the
// call ran: `lspseam daemon stop` during a rename) answers each file not
// checked, saying why — not LSP_INVALID_ARGUMENT from a report with no
// how ("files[0].how must be …, got \"\"").
func TestAppliedAnswerCheckCutShort(t *testing.T) {
	tb, ws := newFSToolbox(t)
	writeFile(t, filepath.Join(ws, "a.go"), "package a\n\nfunc Greet() {}\n")
	r := openTestRoot(t, ws)
	files := []plannedFile{{rel: "a.go", before: "package a\n\nfunc Hello() {}\n", after: "package a\n\nfunc Greet() {}\n", edits: 1}}
	before := baseline{reports: map[string]lspseam.DiagnosticReport{"a.go": {
		URI: workspacefs.FileURI(r.Abs("a.go")), Diagnostics: json.RawMessage("[]"), How: "pull", Fresh: true,
	}}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the drain cancelled the call when the grace ran out
	a, err := tb.appliedAnswer(ctx, r, stoppingSession{r: r}, "Applied: rename", files, before, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "Diagnostics after the edit: not checked — the language server of a.go gave no report on it (after the edit: the call was cancelled before its language server reported on the change (lspseam was stopping, or the client cancelled the call))"
	if strings.Contains(a.text, "LSP_INVALID_ARGUMENT") || !strings.Contains(a.text, want) {
		t.Fatalf("the answer should say a.go was not checked, and why:\n%s\nwant it to hold:\n%s", a.text, want)
	}
}
