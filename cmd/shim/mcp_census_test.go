package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lspseam/lspseam/bindings/go/localstdio"
)

// The MCP handshake says which languages of the workspace are served and
// how to install the servers of the others: in its instructions, and once
// in the tools, at the end of the first tool that needs a language server
// (lsp), not in the others nor in read, write and edit.
func TestMCPHandshakeNamesServedLanguages(t *testing.T) {
	f := newMCPFixture(t)
	writeFile(t, filepath.Join(f.workspace, "tool.py"), "print(1)\n")
	writeFile(t, filepath.Join(f.workspace, "lib", "util.py"), "x = 1\n")
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	began := time.Now()
	cs := f.connect(t, client, t.TempDir(), "--workspace", f.workspace, "--tools", "lsp,code,fs")
	handshake := time.Since(began)
	defer cs.Close()
	ins := cs.InitializeResult().Instructions
	for _, want := range []string{
		"Languages of the workspace ",
		"served by a language server (the lsp and code tools answer for their files): Go (1 file).",
		"NOT served (calls on their files answer LSP_UNAVAILABLE; use search and read for them): Python (2 files) — no configured server claims .py files; the user can run `lspseam servers install python`.",
		"`lspseam servers install --detected` installs every missing server it can",
	} {
		if !strings.Contains(ins, want) {
			t.Errorf("instructions lack %q:\n%s", want, ins)
		}
	}
	if strings.Contains(ins, "census incomplete") {
		t.Errorf("a two-file census is complete: %s", ins)
	}
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	note := "In this workspace, served: Go; not served (no language server installed; use a text search (grep) and read): Python."
	for _, tool := range tools.Tools {
		has := strings.HasSuffix(tool.Description, "\n\n"+note)
		if n := strings.Count(tool.Description, "In this workspace"); has != (tool.Name == "lsp") || n > 1 {
			t.Errorf("%s: note %v (%d times) in %q", tool.Name, has, n, tool.Description)
		}
	}
	t.Logf("handshake (process start, core load, census) in %s", handshake)
}

// An incomplete census says so in the handshake: the languages it names
// are a lower bound.
func TestCensusSummaryIncomplete(t *testing.T) {
	w := workspaceLanguages{workspace: "/ws", census: localstdio.LanguageCensus{Incomplete: "stopped after 300ms (41000 files looked at)"}}
	if s := w.summary(); !strings.Contains(s, "(census incomplete: stopped after 300ms (41000 files looked at); more languages may be present)") || !strings.Contains(s, "no source file of a language lspseam knows was found") {
		t.Errorf("summary: %s", s)
	}
	w.languages = []localstdio.LanguageServing{{LanguageFiles: localstdio.LanguageFiles{Name: "Go", Files: 3}, State: localstdio.ServingFound}}
	if n := w.toolNote(); n != "In this workspace (census incomplete), served: Go." {
		t.Errorf("note: %q", n)
	}
}
