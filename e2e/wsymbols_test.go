package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// code_symbols with query and no path: a workspace-wide search of every
// language (testdata/workspaces/README.md, "Workspace-wide symbol
// search"), on the real servers.

// wsAnswer is the part of a workspace-wide code_symbols answer the tests
// check.
type wsAnswer struct {
	OK      bool   `json:"ok"`
	Mode    string `json:"mode"`
	Symbols []struct {
		Name   string `json:"name"`
		Kind   string `json:"kind"`
		Path   string `json:"path"`
		Line   int    `json:"line"`
		Column int    `json:"column"`
		Server string `json:"server"`
	} `json:"symbols"`
	TotalFound int `json:"totalFound"`
	Exact      int `json:"exact"`
	Searched   []struct {
		Server    string   `json:"server"`
		Languages []string `json:"languages"`
		Roots     []string `json:"roots"`
		Documents []string `json:"documents"`
	} `json:"searched"`
	NotSearched []struct {
		Server     string   `json:"server"`
		Languages  []string `json:"languages"`
		Extensions []string `json:"extensions"`
		Files      int      `json:"files"`
		Reason     string   `json:"reason"`
		// Unsupported: the server has no workspace/symbol (JSON, YAML):
		// listed, but not a gap that makes the answer incomplete.
		Unsupported bool `json:"unsupported"`
	} `json:"notSearched"`
	Notice              string `json:"notice"`
	Incomplete          string `json:"incomplete"`
	DependenciesLeftOut int    `json:"dependenciesLeftOut"`
}

// at lists the matches as "kind name path:line:column".
// gaps counts the not-searched entries that leave the answer partial
// (not those of servers without workspace symbol search).
func (a wsAnswer) gaps() int {
	n := 0
	for _, g := range a.NotSearched {
		if !g.Unsupported {
			n++
		}
	}
	return n
}

func (a wsAnswer) at() []string {
	var out []string
	for _, s := range a.Symbols {
		out = append(out, fmt.Sprintf("%s %s %s:%d:%d", s.Kind, s.Name, s.Path, s.Line, s.Column))
	}
	return out
}

func (a wsAnswer) searchedServers() []string {
	var out []string
	for _, s := range a.Searched {
		out = append(out, s.Server+"="+strings.Join(s.Languages, ",")+"@"+strings.Join(s.Roots, ","))
	}
	return out
}

// loadingOnly reports whether an answer is incomplete only because a
// server had not confirmed it was ready (a cold start on a loaded
// machine): asking again is the documented remedy.
func loadingOnly(incomplete string) bool {
	if incomplete == "" {
		return false
	}
	for _, part := range strings.Split(incomplete, "; ") {
		if !strings.Contains(part, "finished loading") && !strings.Contains(part, "may miss files") {
			return false
		}
	}
	return true
}

// callSymbols runs `lspseam call code_symbols ARGS --format json` in a
// fresh process (every server cold).
func callSymbols(t *testing.T, dir, args string, extra ...string) (wsAnswer, string) {
	t.Helper()
	out, code, stderr := runCall(t, dir, "code_symbols", json.RawMessage(args), append([]string{"--format", "json"}, extra...)...)
	if code != 0 {
		t.Fatalf("lspseam call code_symbols %s: exit %d: %s %s", args, code, out, stderr)
	}
	var a wsAnswer
	if err := json.Unmarshal(out, &a); err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	return a, string(out)
}

// serveSymbols runs code_symbols ARGS through srv, once more while the
// answer is incomplete only because a server was still loading (a second
// call finds it warm).
func serveSymbols(t *testing.T, srv *serveClient, dir, args string) (wsAnswer, string) {
	t.Helper()
	var a wsAnswer
	var res toolCallAnswer
	for attempt := 1; attempt <= 2; attempt++ {
		res = srv.toolCall(t, "code_symbols", json.RawMessage(args), dir)
		if res.IsError {
			t.Fatalf("%s: %s", args, res.StructuredContent)
		}
		a = wsAnswer{}
		if err := json.Unmarshal(res.StructuredContent, &a); err != nil {
			t.Fatal(err)
		}
		if !loadingOnly(a.Incomplete) {
			break
		}
		t.Logf("%s: attempt %d incomplete (%s): asking again", args, attempt, a.Incomplete)
	}
	return a, res.Content[0].Text
}

// TestWorkspaceSymbolsMixed: in a workspace with Go, TypeScript and Python
// files, code_symbols {query} without path asks gopls, pyright and
// typescript-language-server and finds each language's symbols, exact
// names first; with one server missing from the table, or configured but
// not installed, the answer names the language it could not search and
// is marked incomplete.
func TestWorkspaceSymbolsMixed(t *testing.T) {
	requireServers(t, "gopls", "typescript-language-server", "pyright-langserver")
	dir := workspaceDir("mixed")

	t.Run("every language", func(t *testing.T) {
		cfg := writeConfig(t)
		a, raw := callSymbols(t, dir, `{"query":"Ledger"}`, "--config", cfg)
		if loadingOnly(a.Incomplete) {
			// A cold server on a loaded machine: a warm one's answer is
			// the one to check.
			t.Logf("cold answer incomplete (%s): asking a serve", a.Incomplete)
			srv := catalogServe(t, "--config", cfg)
			a, raw = serveSymbols(t, srv, dir, `{"query":"Ledger"}`)
			srv.shutdown(t)
		}
		if a.Incomplete != "" || a.gaps() != 0 || a.Mode != "workspace" {
			t.Fatalf("want a complete workspace answer: %s", raw)
		}
		got := a.at()
		// The three exact names first, in the servers' order (gopls,
		// pyright, typescript: the table's ids sorted).
		wantFirst := []string{"struct Ledger ledger.go:5:6", "class Ledger tools/ledger.py:4:7", "interface Ledger web/ledger.ts:2:1"}
		if len(got) < 3 || !slices.Equal(got[:3], wantFirst) {
			t.Errorf("first matches %q, want %q", got, wantFirst)
		}
		for _, want := range []string{"function TallyGoLedger ledger.go:10:6", "function tally_py_ledger tools/ledger.py:11:5", "function tallyTsLedger web/ledger.ts:7:1"} {
			if !slices.Contains(got, want) {
				t.Errorf("%q missing from %q", want, got)
			}
		}
		if a.Exact != 3 {
			t.Errorf("the answer must count the 3 exact names (exact %d): %.300s", a.Exact, raw)
		}
		wantSearched := []string{"gopls=go@.", "pyright=python@.", "typescript=typescript@."}
		if s := a.searchedServers(); !slices.Equal(s, wantSearched) {
			t.Errorf("searched %q, want %q", s, wantSearched)
		}
	})

	t.Run("a directory as path", func(t *testing.T) {
		// It used to answer that the path "has no file extension".
		out, code, stderr := runCall(t, dir, "code_symbols", json.RawMessage(`{"query":"Ledger","path":"tools"}`))
		if text := string(out) + stderr; code == 0 || !strings.Contains(text, "LSP_INVALID_ARGUMENT") || !strings.Contains(text, "path tools is a directory") {
			t.Errorf("exit %d:\n%s", code, text)
		}
	})

	t.Run("pyright missing from the table", func(t *testing.T) {
		cfg := writeTable(t, fmt.Sprintf(`servers:
  gopls:
    command: %[1]s/gopls
    extensionToLanguage: {.go: go}
  typescript:
    command: %[1]s/typescript-language-server
    args: [--stdio]
    extensionToLanguage: {.ts: typescript}
`, toolsBin))
		a, raw := callSymbols(t, dir, `{"query":"tally_py_ledger"}`, "--config", cfg)
		if a.gaps() != 1 || !slices.Equal(a.NotSearched[0].Languages, []string{"Python"}) || !slices.Equal(a.NotSearched[0].Extensions, []string{".py"}) || a.NotSearched[0].Files != 1 {
			t.Fatalf("notSearched should name Python (.py, 1 file): %s", raw)
		}
		if !strings.Contains(a.Incomplete, "Python (.py, 1 file)") || !strings.Contains(a.NotSearched[0].Reason, "no language server is configured for .py files") {
			t.Errorf("the answer must be marked incomplete, naming Python and why: %s", raw)
		}
		if a.TotalFound == 0 && (a.Notice == "" || strings.Contains(a.Notice, "in the workspace")) {
			t.Errorf("an empty answer must not claim the workspace: notice %q", a.Notice)
		}
		if s := a.searchedServers(); !slices.Equal(s, []string{"gopls=go@.", "typescript=typescript@."}) {
			t.Errorf("searched %q", s)
		}
		text, code, stderr := runCall(t, dir, "code_symbols", json.RawMessage(`{"query":"tally_py_ledger"}`), "--config", cfg)
		if code != 0 || !strings.Contains(string(text), "Not searched:\n  Python (.py, 1 file): no language server is configured for .py files") || !strings.Contains(string(text), "\nIncomplete: not searched: Python") {
			t.Errorf("text answer (exit %d, %s):\n%s", code, stderr, text)
		}
	})

	t.Run("pyright configured but not installed", func(t *testing.T) {
		cfg := writeTable(t, fmt.Sprintf(`servers:
  gopls:
    command: %[1]s/gopls
    extensionToLanguage: {.go: go}
  typescript:
    command: %[1]s/typescript-language-server
    args: [--stdio]
    extensionToLanguage: {.ts: typescript}
  pyright:
    command: %[2]s
    optional: true
    args: [--stdio]
    extensionToLanguage: {.py: python}
`, toolsBin, filepath.Join(t.TempDir(), "no-such-pyright-langserver")))
		a, raw := callSymbols(t, dir, `{"query":"Ledger"}`, "--config", cfg)
		if a.gaps() != 1 || a.NotSearched[0].Server != "pyright" || !slices.Equal(a.NotSearched[0].Languages, []string{"python"}) {
			t.Fatalf("notSearched should name pyright's python: %s", raw)
		}
		if !strings.Contains(a.NotSearched[0].Reason, "(pyright) is not installed") || !strings.Contains(a.Incomplete, "python (pyright, 1 file)") {
			t.Errorf("reason and incomplete must say pyright is not installed: %s", raw)
		}
		got := a.at()
		for _, want := range []string{"struct Ledger ledger.go:5:6", "interface Ledger web/ledger.ts:2:1"} {
			if !slices.Contains(got, want) {
				t.Errorf("%q missing from %q", want, got)
			}
		}
	})
}

// TestWorkspaceSymbolsTsProjects: typescript-language-server searches only
// the projects of the document it handled last. In tsprojects/ the root's
// tsconfig.json includes source/ only, test/ is outside every project, and
// e2e/ is a tsconfig.json project (and so a project root) of its own. One
// serve: after a search with path source/index.ts (which opens it last),
// code_symbols {query} without path still finds the helper outside every
// project and the flow in the other project; with path, the answer says
// it searched that file's project, never "the workspace".
func TestWorkspaceSymbolsTsProjects(t *testing.T) {
	requireServers(t, "typescript-language-server")
	dir := workspaceDir("tsprojects")
	srv := catalogServe(t)
	call := func(args string) (wsAnswer, string) { return serveSymbols(t, srv, dir, args) }

	// The file's project: the helper is outside it. Today's answer, worded
	// for what was searched.
	a, text := call(`{"path":"source/index.ts","query":"createHttpTestServer"}`)
	if a.TotalFound != 0 || !strings.Contains(a.Notice, "in the projects typescript has for source/index.ts") || strings.Contains(a.Notice, "in the workspace") || !strings.Contains(a.Notice, "leave out path") {
		t.Errorf("with path, the notice must name the file's project:\n%s", text)
	}
	a, text = call(`{"path":"source/index.ts","query":"runCheckoutFlow"}`)
	if a.TotalFound != 0 || strings.Contains(text, "in the workspace") {
		t.Errorf("the other tsconfig.json project is not the file's:\n%s", text)
	}

	for _, c := range []struct{ query, want string }{
		{"createHttpTestServer", "function createHttpTestServer test/helpers/create-http-test-server.ts:6:1"},
		{"runCheckoutFlow", "function runCheckoutFlow e2e/flows/checkout-flow.ts:2:1"},
		{"startServer", "function startServer source/index.ts:2:1"},
	} {
		a, text := call(`{"query":"` + c.query + `"}`)
		if got := a.at(); len(got) == 0 || got[0] != c.want || a.Incomplete != "" || a.gaps() != 0 {
			t.Errorf("%s: want %q first, complete:\n%s", c.query, c.want, text)
		}
		if s := a.searchedServers(); !slices.Equal(s, []string{"typescript=typescript@.,e2e"}) {
			t.Errorf("%s: searched %q, want both project roots", c.query, s)
		}
	}
	srv.shutdown(t)
}

// writeTable writes a server table for --config.
func writeTable(t *testing.T, yaml string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "lspseam.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestWorkspaceSymbolsDependencies: gopls's workspace/symbol also searches
// the standard library and the module cache. A search answers the
// workspace's own symbols, counts what it left out and says how to get
// it; dependencies: true lists those too (issue 26: 67 answers where the
// workspace had 35). Both the search of one file's server (path) and the
// workspace-wide one.
func TestWorkspaceSymbolsDependencies(t *testing.T) {
	requireServers(t, "gopls")
	dir := workspaceDir("go")
	cfg := writeConfig(t)
	for _, scope := range []string{`"path":"shape.go",`, ""} {
		a, raw := callSymbols(t, dir, `{`+scope+`"query":"Sprintf"}`, "--config", cfg)
		if a.TotalFound != 0 || a.DependenciesLeftOut == 0 || !strings.Contains(a.Notice, "dependencies: true lists them") {
			t.Errorf("%s default: want no workspace match and the standard library's counted: %s", scope, raw)
		}
		a, raw = callSymbols(t, dir, `{`+scope+`"query":"Sprintf","dependencies":true}`, "--config", cfg)
		found := false
		for _, m := range a.Symbols {
			found = found || (m.Name == "Sprintf" || strings.HasSuffix(m.Name, ".Sprintf")) && filepath.IsAbs(m.Path)
		}
		if !found || a.DependenciesLeftOut != 0 {
			t.Errorf("%s dependencies: true: want fmt.Sprintf with its absolute path: %s", scope, raw)
		}
	}
}
