package localstdio

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/internal/testenv"
)

// Confirming a clean document (cleanconfirm.go) with the fake server
// answering as terraform-ls, whose table entry names documentSymbol as the
// request that confirms a document clean.

// terraformLS is a fake script answering as terraform-ls, with methods.
func terraformLS(methods map[string]any) map[string]any {
	return map[string]any{
		"serverInfo":   map[string]any{"name": "terraform-ls", "version": "(fake)"},
		"capabilities": map[string]any{"textDocumentSync": 2, "definitionProvider": true, "documentSymbolProvider": true},
		"methods":      methods,
	}
}

// TestCleanConfirmedWithoutAReport: a server that publishes nothing for a
// clean document. The wait, an hour within the test's budget, would end
// with the budget and answer stale; asked documentSymbol, the answer is
// fresh and empty long before, cold and after a change.
func TestCleanConfirmedWithoutAReport(t *testing.T) {
	f := newFake(t, nil, nil)
	f.setScript(terraformLS(map[string]any{"textDocument/documentSymbol": map[string]any{"result": []any{}}}))
	budget := testenv.StepBudget(t)
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	err := f.session(ctx, func(ctx context.Context, s lspseam.Session) error {
		src, err := s.Open(ctx, "a.go")
		if err != nil {
			return err
		}
		rep, err := s.Diagnostics(ctx, src, lspseam.DiagnosticsOptions{Wait: budget})
		if err != nil {
			return err
		}
		wantReport(t, rep, "push", true, 1)
		if rep.Waited > budget/2 {
			t.Errorf("waited %v of a %v budget: the confirmation was not used", rep.Waited, budget)
		}
		if err := os.WriteFile(filepath.Join(f.ws, "a.go"), []byte("package a\n\nfunc A() {}\n\n// more\n"), 0o644); err != nil {
			return err
		}
		src, err = s.Open(ctx, "a.go") // didChange
		if err != nil {
			return err
		}
		rep, err = s.Diagnostics(ctx, src, lspseam.DiagnosticsOptions{Wait: budget})
		if err != nil {
			return err
		}
		wantReport(t, rep, "push", true, 2) // the changed document's version
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := f.received("textDocument/documentSymbol"); n != 2 {
		t.Errorf("documentSymbol asked %d times, want once per wait", n)
	}
	f.noViolations()
}

// TestCleanConfirmationThenAReport: the report the validation causes
// comes just after the confirming answer (terraform-ls publishes from
// another goroutine once its jobs are done): it is the answer, not a
// "clean" taken from the confirmation alone.
func TestCleanConfirmationThenAReport(t *testing.T) {
	f := newFake(t, nil, nil)
	f.setScript(terraformLS(map[string]any{"textDocument/documentSymbol": map[string]any{"result": []any{},
		"after": []any{map[string]any{"sleepMs": 60}, f.publish("a.go", 0, "Unsupported argument")}}}))
	rep, err := f.diagnose(context.Background(), "a.go", lspseam.DiagnosticsOptions{Wait: checkWait(t)})
	if err != nil {
		t.Fatal(err)
	}
	wantReport(t, rep, "push", true, 1, "Unsupported argument")
	f.noViolations()
}

// TestCleanNotConfirmedAfterAProblem: a document whose latest report
// lists a problem is not confirmed clean by an answer: its server
// publishes again for a module that had a problem, so the report is
// awaited, and without one the answer is the old report, not fresh.
func TestCleanNotConfirmedAfterAProblem(t *testing.T) {
	f := newFake(t, nil, nil)
	f.setScript(terraformLS(map[string]any{
		"textDocument/didOpen":        map[string]any{"action": "none", "after": []any{f.publish("a.go", 0, "Unsupported argument")}},
		"textDocument/documentSymbol": map[string]any{"result": []any{}},
	}))
	ctx := context.Background()
	asked := 0
	err := f.session(ctx, func(ctx context.Context, s lspseam.Session) error {
		src, err := s.Open(ctx, "a.go")
		if err != nil {
			return err
		}
		rep, err := s.Diagnostics(ctx, src, lspseam.DiagnosticsOptions{Wait: checkWait(t)})
		if err != nil {
			return err
		}
		wantReport(t, rep, "push", true, 1, "Unsupported argument")
		asked = f.received("textDocument/documentSymbol") // before the report came, there was none: it may have been asked
		if err := os.WriteFile(filepath.Join(f.ws, "a.go"), []byte("package a\n\nfunc A() {}\n\n// fixed\n"), 0o644); err != nil {
			return err
		}
		src, err = s.Open(ctx, "a.go")
		if err != nil {
			return err
		}
		rep, err = s.Diagnostics(ctx, src, lspseam.DiagnosticsOptions{Wait: 300 * time.Millisecond})
		if err != nil {
			return err
		}
		wantReport(t, rep, "push", false, 0, "Unsupported argument")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := f.received("textDocument/documentSymbol") - asked; n != 0 {
		t.Errorf("documentSymbol asked %d times for a document with a problem", n)
	}
	f.noViolations()
}

// TestCheckConfirmsCleanTogether: a change's clean documents are
// confirmed in one round, fresh, and a document with a report keeps it.
func TestCheckConfirmsCleanTogether(t *testing.T) {
	f := newFake(t, nil, nil)
	files := []string{"b.go", "c.go", "d.go"}
	f.writeFiles(t, files...)
	f.setScript(terraformLS(map[string]any{
		"textDocument/didOpen":        map[string]any{"action": "none", "after": []any{f.publish("d.go", 0, "problem in d.go")}},
		"textDocument/documentSymbol": map[string]any{"result": []any{}},
	}))
	budget := testenv.StepBudget(t)
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	var checks []lspseam.FileCheck
	err := f.session(ctx, func(ctx context.Context, s lspseam.Session) error {
		var err error
		checks, err = s.Check(ctx, files, lspseam.DiagnosticsOptions{Wait: budget})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	wantReport(t, checks[0].Report, "push", true, 1)
	wantReport(t, checks[1].Report, "push", true, 1)
	wantReport(t, checks[2].Report, "push", true, 1, "problem in d.go")
	for _, c := range checks {
		if c.Report.Waited > budget/2 {
			t.Errorf("%s waited %v of a %v budget", c.File.Path, c.Report.Waited, budget)
		}
	}
	f.noViolations()
}
