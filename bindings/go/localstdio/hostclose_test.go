package localstdio

import (
	"context"
	"errors"
	"log/slog"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// TestHostCloseAnswersDisposed: after Host.Close, a query on a file its
// servers owned answers LSP_DISPOSED (it answered LSP_UNAVAILABLE "no
// language servers are configured … use a text search (grep)", which
// sent a model to grep instead of telling the harness its host was gone).
func TestHostCloseAnswersDisposed(t *testing.T) {
	ctx := context.Background()
	c, err := lspseam.NewCore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	svc := lspseam.NewService(c)
	table := &Table{
		Servers: []Server{{ID: "fake", Config: lspseam.ServerConfig{Command: "never-started", ExtensionToLanguage: map[string]string{".go": "go"}}, Path: "/nonexistent/never-started"}},
		Missing: []MissingServer{{ID: "missing", Config: lspseam.ServerConfig{Command: "nothere", ExtensionToLanguage: map[string]string{".rs": "rust"}}, NotFound: "nothere is not on PATH"}},
	}
	host, err := StartTable(ctx, c, svc, table, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if err := host.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	for _, path := range []string{"a.go", "b.rs"} {
		_, err := svc.Query(ctx, lspseam.QueryRequest{Operation: lspseam.OpHover, FilePath: path, WorkspaceRoot: t.TempDir()})
		var lerr *lspseam.Error
		if !errors.As(err, &lerr) || lerr.Code != lspseam.CodeDisposed {
			t.Errorf("query on %s after Host.Close: %v, want LSP_DISPOSED", path, err)
		}
	}
}
