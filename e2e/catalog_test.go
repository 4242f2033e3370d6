package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lspseam/lspseam/internal/testenv"
)

// The code tools (code_symbols, code_navigate, code_hover, code_hierarchy,
// code_inlay_hints) against the real servers, with the answers recorded in
// testdata/workspaces/catalog.json: every case through one `lspseam serve`
// per workspace (tools/call), the cases marked cold through `lspseam call`
// in a fresh process, and a cold-versus-warm readiness check per language.
// The shim runs with its presets (no --config; the servers are found on
// PATH, which starts with .tools/bin), because the presets are what turn
// on gopls's and tsserver's inlay hints.

// catalogCase is one case of catalog.json.
type catalogCase struct {
	ID        string          `json:"id"`
	Workspace string          `json:"workspace"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	Cold      bool            `json:"cold"`
	MCP       bool            `json:"mcp"`
	Expect    map[string]any  `json:"expect"`
}

// catalogSetKeys are compared as sets (the order in which a server lists
// references, workspace symbols or calls is not part of the contract);
// every other key is compared in order.
var catalogSetKeys = map[string]bool{"locations": true, "workspaceSymbols": true, "nodes": true, "edges": true, "failures": true,
	"problems": true, "renamed": true, "formatted": true}

func loadCatalog(t *testing.T) []catalogCase {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "testdata/workspaces/catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []catalogCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cases) < 60 {
		t.Fatalf("only %d catalog cases", len(doc.Cases))
	}
	seen := map[string]bool{}
	for _, c := range doc.Cases {
		if seen[c.ID] || c.Expect == nil {
			t.Fatalf("catalog case %q: duplicate id or no expect", c.ID)
		}
		seen[c.ID] = true
	}
	return doc.Cases
}

// presetEnv is the environment of a shim running on its presets: the
// pinned servers first on PATH.
func presetEnv() []string {
	return append(os.Environ(), "PATH="+toolsBin+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// catalogLoc is "path:line:column" of an answer's object.
func catalogLoc(o map[string]any, col string) string {
	return fmt.Sprintf("%v:%v:%v", o["path"], o["line"], o[col])
}

func asList(v any) []map[string]any {
	list, _ := v.([]any)
	out := make([]map[string]any, 0, len(list))
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func qualified(o map[string]any, name string) string {
	if c := str(o["container"]); c != "" {
		return c + "." + str(o[name])
	}
	return str(o[name])
}

// deriveCatalog reduces a structured answer to the compact form
// catalog.json records (README.md, "Code tools"): the same function as
// derive in e2e/mcp/catalog.test.mjs.
func deriveCatalog(tool string, s map[string]any) map[string]any {
	e := map[string]any{}
	if s["ok"] != true {
		errObj, _ := s["error"].(map[string]any)
		e["error"] = errObj["code"]
		if cands := asList(s["candidates"]); len(cands) > 0 {
			var list []any
			for _, c := range cands {
				list = append(list, fmt.Sprintf("%s %s %s", str(c["qualifiedName"]), str(c["kind"]), catalogLoc(c, "column")))
			}
			e["candidates"] = list
		}
		return e
	}
	if t, ok := s["target"].(map[string]any); ok {
		e["target"] = catalogLoc(t, "column") + " " + str(t["identifier"])
		if t["by"] == "symbol" {
			e["targetSymbol"] = t["symbol"]
		}
	}
	switch tool {
	case "code_navigate":
		locs := []any{}
		for _, l := range asList(s["locations"]) {
			o := map[string]any{"at": catalogLoc(l, "column"), "snippet": l["snippet"]}
			if str(l["symbol"]) != "" {
				o["in"] = qualified(l, "symbol")
			}
			locs = append(locs, o)
		}
		e["locations"] = locs
		e["totalFound"] = s["totalFound"]
		if _, ok := s["notice"]; ok {
			e["notice"] = true
		}
	case "code_symbols":
		if s["mode"] == "document" {
			outline := []any{}
			var walk func(syms []map[string]any, depth int)
			walk = func(syms []map[string]any, depth int) {
				for _, x := range syms {
					outline = append(outline, fmt.Sprintf("%s%s %s %v:%v-%v", strings.Repeat("  ", depth), str(x["kind"]), qualified(x, "name"), x["line"], x["column"], x["endLine"]))
					walk(asList(x["children"]), depth+1)
				}
			}
			walk(asList(s["symbols"]), 0)
			e["outline"] = outline
		} else {
			// Symbols outside the workspace (gopls searches the standard
			// library too; they come only with dependencies: true) depend
			// on the toolchain: only the workspace's are recorded, and the
			// total only when there are no others.
			syms := asList(s["symbols"])
			list := []any{}
			for _, x := range syms {
				if !strings.HasPrefix(str(x["path"]), "/") {
					list = append(list, fmt.Sprintf("%s %s %s", str(x["kind"]), qualified(x, "name"), catalogLoc(x, "column")))
				}
			}
			e["workspaceSymbols"] = list
			if len(list) == len(syms) {
				e["totalFound"] = s["totalFound"]
			}
		}
	case "code_hierarchy":
		nodes, edges, failures := []any{}, []any{}, []any{}
		for _, n := range asList(s["nodes"]) {
			d := fmt.Sprintf("%s depth=%v", str(n["id"]), n["depth"])
			if n["cycle"] == true {
				d += " cycle"
			}
			if u := str(n["unexpanded"]); u != "" {
				d += " unexpanded=" + u
			}
			nodes = append(nodes, d)
		}
		for _, x := range asList(s["edges"]) {
			d := str(x["from"]) + " -> " + str(x["to"])
			if sites := asList(x["callSites"]); len(sites) > 0 {
				var at []string
				for _, c := range sites {
					at = append(at, catalogLoc(c, "column"))
				}
				d += " @ " + strings.Join(at, ", ")
			}
			if x["cycle"] == true {
				d += " cycle"
			}
			edges = append(edges, d)
		}
		for _, f := range asList(s["failures"]) {
			code, _, _ := strings.Cut(str(f["message"]), ":")
			failures = append(failures, str(f["id"])+" "+code)
		}
		e["nodes"], e["edges"], e["failures"] = nodes, edges, failures
	case "code_hover":
		e["text"] = s["text"]
		if sig, ok := s["signature"]; ok && sig != nil {
			e["signature"] = sig
		}
	// The refactor and diagnostics tools are not in catalog.json (nor in
	// the MCP test's derive); the languages' rows files check them
	// (languages_test.go).
	case "code_diagnostics":
		problems := []any{}
		for _, p := range asList(s["problems"]) {
			problems = append(problems, fmt.Sprintf("%s %s %s", catalogLoc(p, "column"), str(p["severity"]), str(p["message"])))
		}
		e["status"], e["problems"] = s["status"], problems
	case "code_rename":
		renamed := []any{}
		for _, f := range asList(s["files"]) {
			renamed = append(renamed, fmt.Sprintf("%s edits=%v", str(f["path"]), f["edits"]))
		}
		e["renamed"], e["edits"] = renamed, s["edits"]
	case "code_format":
		formatted := []any{}
		for _, f := range asList(s["files"]) {
			formatted = append(formatted, str(f["path"]))
		}
		e["formatted"] = formatted
		if errs, ok := s["fileErrors"]; ok { // no edits to a file with errors (formatblocked.go)
			e["fileErrors"] = errs
		}
	case "code_inlay_hints":
		hints := []any{}
		for _, h := range asList(s["hints"]) {
			hints = append(hints, fmt.Sprintf("%v:%v %s %s", h["line"], h["column"], str(h["label"]), str(h["kind"])))
		}
		e["hints"] = hints
		e["totalFound"] = s["totalFound"]
	}
	return e
}

// normalize round-trips v through JSON, so a derived value and a value
// read from catalog.json have the same Go types.
func normalize(v any) any {
	b, _ := json.Marshal(v)
	var out any
	json.Unmarshal(b, &out)
	return out
}

func sortedByJSON(v any) any {
	list, ok := v.([]any)
	if !ok {
		return v
	}
	keyed := make([]string, len(list))
	for i, e := range list {
		b, _ := json.Marshal(e)
		keyed[i] = string(b)
	}
	slices.Sort(keyed)
	out := make([]any, len(keyed))
	for i, k := range keyed {
		json.Unmarshal([]byte(k), &out[i])
	}
	return out
}

// checkCatalog compares a structured answer with a case's expectation; it
// returns the differences (none when they agree).
func checkCatalog(c catalogCase, structured json.RawMessage) []string {
	var s map[string]any
	if err := json.Unmarshal(structured, &s); err != nil {
		return []string{fmt.Sprintf("structured answer is not a JSON object: %v: %.300s", err, structured)}
	}
	var diffs []string
	if s["tool"] != nil && s["tool"] != c.Tool {
		diffs = append(diffs, fmt.Sprintf("tool %v, want %s", s["tool"], c.Tool))
	}
	want := map[string]any{}
	for k, v := range c.Expect {
		if k != "errorContains" {
			want[k] = v
		}
	}
	got := normalize(deriveCatalog(c.Tool, s)).(map[string]any)
	keys := map[string]bool{}
	for k := range want {
		keys[k] = true
	}
	for k := range got {
		keys[k] = true
	}
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range keys {
			if !yield(k) {
				return
			}
		}
	}) {
		g, w := got[k], want[k]
		if catalogSetKeys[k] {
			g, w = sortedByJSON(g), sortedByJSON(w)
		}
		if !reflect.DeepEqual(g, w) {
			gb, _ := json.MarshalIndent(g, "    ", "  ")
			wb, _ := json.MarshalIndent(w, "    ", "  ")
			diffs = append(diffs, fmt.Sprintf("%s:\n  got:  %s\n  want: %s", k, gb, wb))
		}
	}
	if frags, ok := c.Expect["errorContains"].([]any); ok {
		errObj, _ := s["error"].(map[string]any)
		for _, f := range frags {
			if !strings.Contains(str(errObj["message"]), str(f)) {
				diffs = append(diffs, fmt.Sprintf("error message %q lacks %q", errObj["message"], f))
			}
		}
	}
	return diffs
}

// catalogServe starts `lspseam serve` on the presets (or with the given
// flags, such as --config).
func catalogServe(t *testing.T, flags ...string) *serveClient {
	t.Helper()
	return languageServe(t, flags)
}

type toolCallAnswer struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

// toolCall runs one tools/call on serve.
func (c *serveClient) toolCall(t testing.TB, name string, args json.RawMessage, ws string) toolCallAnswer {
	t.Helper()
	ch := c.send("tools/call", map[string]any{"name": name, "arguments": args, "workspaceRoot": ws})
	var resp serveResponse
	select {
	case resp = <-ch:
	case <-c.done:
		t.Fatal("serve exited")
	case <-time.After(testenv.StepBudget(t)):
		t.Fatal("no answer from serve")
	}
	if resp.Error != nil {
		t.Fatalf("tools/call %s: JSON-RPC error %+v", name, resp.Error)
	}
	var a toolCallAnswer
	if err := json.Unmarshal(resp.Result, &a); err != nil {
		t.Fatalf("tools/call %s: %v: %s", name, err, resp.Result)
	}
	return a
}

// checkToolAnswer checks what every answer has: one text content, isError
// as the case expects, and no `incomplete` (the caller deals with
// answers that may be incomplete).
func checkToolAnswer(t *testing.T, c catalogCase, a toolCallAnswer) {
	t.Helper()
	wantErr := c.Expect["error"] != nil
	if len(a.Content) != 1 || a.Content[0].Type != "text" || a.Content[0].Text == "" {
		t.Errorf("%s: content %+v, want one text", c.ID, a.Content)
	}
	if a.IsError != wantErr {
		t.Errorf("%s: isError %v, want %v: %s", c.ID, a.IsError, wantErr, a.StructuredContent)
	}
	if wantErr && !strings.HasPrefix(a.Content[0].Text, str(c.Expect["error"])+": ") {
		t.Errorf("%s: error text %q does not start with the code", c.ID, a.Content[0].Text)
	}
	for _, d := range checkCatalog(c, a.StructuredContent) {
		t.Errorf("%s (%s %s): %s", c.ID, c.Tool, c.Arguments, d)
	}
}

func incomplete(structured json.RawMessage) string {
	var s struct {
		Incomplete string `json:"incomplete"`
	}
	json.Unmarshal(structured, &s)
	return s.Incomplete
}

// TestCatalogServe runs every case of catalog.json through one `lspseam
// serve` per workspace (tools/call), the workspaces in parallel. A fresh
// server's first answer may say it is incomplete: that call is repeated
// once (TestCatalogReadiness checks the cold answers themselves).
func TestCatalogServe(t *testing.T) {
	requireServers(t, "gopls", "typescript-language-server", "pyright-langserver", "clangd")
	cases := loadCatalog(t)
	byWorkspace := map[string][]catalogCase{}
	for _, c := range cases {
		byWorkspace[c.Workspace] = append(byWorkspace[c.Workspace], c)
	}
	if len(byWorkspace) != 4 {
		t.Fatalf("catalog.json covers %d workspaces, want go, ts, py and c", len(byWorkspace))
	}
	for ws, cases := range byWorkspace {
		t.Run(ws, func(t *testing.T) {
			t.Parallel()
			srv := catalogServe(t)
			dir := workspaceDir(ws)
			tools := map[string]bool{}
			for _, c := range cases {
				tools[c.Tool] = true
				start := time.Now()
				a := srv.toolCall(t, c.Tool, c.Arguments, dir)
				if why := incomplete(a.StructuredContent); why != "" {
					t.Logf("%s: first answer incomplete (%s); asking again", c.ID, why)
					a = srv.toolCall(t, c.Tool, c.Arguments, dir)
					if why := incomplete(a.StructuredContent); why != "" {
						t.Errorf("%s: still incomplete on a warm server: %s", c.ID, why)
					}
				}
				checkToolAnswer(t, c, a)
				t.Logf("%s: %v", c.ID, time.Since(start).Round(time.Millisecond))
			}
			if len(tools) != 5 {
				t.Errorf("%s: the catalog covers %d of the 5 code tools", ws, len(tools))
			}
			srv.shutdown(t)
		})
	}
}

// TestCatalogServeToolsList: serve lists the lsp tool and the code tools
// (toolsets lsp and code), each read-only with an object schema.
func TestCatalogServeToolsList(t *testing.T) {
	srv := catalogServe(t)
	resp := awaitResponse(t, srv.send("tools/list", map[string]any{"toolsets": []string{"lsp", "code"}}))
	if resp.Error != nil {
		t.Fatalf("tools/list: %+v", resp.Error)
	}
	var list struct {
		Tools []struct {
			Name        string          `json:"name"`
			Toolset     string          `json:"toolset"`
			InputSchema json.RawMessage `json:"inputSchema"`
			ReadOnly    bool            `json:"readOnly"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(resp.Result, &list); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		var schema struct {
			Type     string   `json:"type"`
			Required []string `json:"required"`
		}
		if err := json.Unmarshal(tool.InputSchema, &schema); err != nil || schema.Type != "object" || !tool.ReadOnly {
			t.Errorf("%s: schema %s (%v), readOnly %v", tool.Name, tool.InputSchema, err, tool.ReadOnly)
		}
	}
	want := []string{"lsp", "code_symbols", "code_navigate", "code_hover", "code_hierarchy", "code_diagnostics", "code_inlay_hints"}
	if !slices.Equal(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}
	srv.shutdown(t)
}

// runCall runs `lspseam call --format json` in a fresh process: every
// server starts cold. It returns the structured answer and the exit code.
func runCall(t *testing.T, dir, tool string, args json.RawMessage, extra ...string) (json.RawMessage, int, string) {
	t.Helper()
	cmd := exec.Command(shimPath, append([]string{"call", "--workspace", dir, tool, string(args)}, extra...)...)
	cmd.Env = presetEnv()
	cmd.Dir = t.TempDir() // not the workspace: --workspace says where
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	return bytes.TrimSpace(out), exitCode(t, err), stderr.String()
}

// TestCatalogCallCold runs the cases marked cold (at least one per
// language) through `lspseam call`, one process each, in JSON and in text.
func TestCatalogCallCold(t *testing.T) {
	requireServers(t, "gopls", "typescript-language-server", "pyright-langserver", "clangd")
	langs := map[string]int{}
	for _, c := range loadCatalog(t) {
		if !c.Cold {
			continue
		}
		langs[c.Workspace]++
		t.Run(c.ID, func(t *testing.T) {
			wantExit := 0
			if c.Expect["error"] != nil {
				wantExit = 1
			}
			out, code, stderr := runCall(t, workspaceDir(c.Workspace), c.Tool, c.Arguments, "--format", "json")
			if code != wantExit {
				t.Errorf("exit %d, want %d (stderr %s)", code, wantExit, stderr)
			}
			if bytes.Count(out, []byte("\n")) != 0 {
				t.Errorf("--format json printed more than one line: %s", out)
			}
			if why := incomplete(out); why != "" {
				t.Logf("cold answer marked incomplete (%s): not compared", why)
			} else {
				for _, d := range checkCatalog(c, out) {
					t.Errorf("%s: %s", c.ID, d)
				}
			}
			text, code, stderr := runCall(t, workspaceDir(c.Workspace), c.Tool, c.Arguments)
			if code != wantExit || (wantExit == 0 && len(text) == 0) || (wantExit == 1 && !strings.HasPrefix(stderr, str(c.Expect["error"])+": ")) {
				t.Errorf("text format: exit %d, stdout %q, stderr %q", code, text, stderr)
			}
		})
	}
	for _, ws := range []string{"go", "ts", "py", "c"} {
		if langs[ws] == 0 {
			t.Errorf("no cold case for %s in catalog.json", ws)
		}
	}
}

// TestCatalogReadiness: a cold server's first answer equals the warm one,
// or says it is incomplete. For each language, a code_navigate references
// case on a copy of the fixture (C: with a compilation database and no
// index, so clangd starts from nothing): first through `lspseam call` (a
// fresh process), then twice through one serve (the second is warm).
func TestCatalogReadiness(t *testing.T) {
	requireServers(t, "gopls", "typescript-language-server", "pyright-langserver", "clangd")
	byID := map[string]catalogCase{}
	for _, c := range loadCatalog(t) {
		byID[c.ID] = c
	}
	var mu sync.Mutex
	for _, ws := range []string{"go", "ts", "py", "c"} {
		c, ok := byID[ws+"-same-name-geom-refs"]
		if !ok || c.Tool != "code_navigate" {
			t.Fatalf("catalog.json has no %s-same-name-geom-refs references case", ws)
		}
		t.Run(ws, func(t *testing.T) {
			t.Parallel()
			dir := copyFixture(t, ws)
			if ws == "c" {
				freshC.prepare(t, dir)
			}
			cold, code, stderr := runCall(t, dir, c.Tool, c.Arguments, "--format", "json")
			if code != 0 {
				t.Fatalf("cold call: exit %d: %s %s", code, cold, stderr)
			}
			srv := catalogServe(t)
			first := srv.toolCall(t, c.Tool, c.Arguments, dir)
			warm := srv.toolCall(t, c.Tool, c.Arguments, dir)
			srv.shutdown(t)
			if why := incomplete(warm.StructuredContent); why != "" {
				t.Fatalf("warm answer incomplete: %s", why)
			}
			for _, d := range checkCatalog(c, warm.StructuredContent) {
				t.Errorf("warm: %s", d)
			}
			for name, ans := range map[string]json.RawMessage{"cold call": cold, "serve's first call": first.StructuredContent} {
				if why := incomplete(ans); why != "" {
					mu.Lock()
					t.Logf("%s: %s marked incomplete: %s", ws, name, why)
					mu.Unlock()
					continue
				}
				if !jsonEqual(ans, warm.StructuredContent) {
					t.Errorf("%s differs from the warm answer and is not marked incomplete:\n cold: %s\n warm: %s", name, ans, warm.StructuredContent)
				}
			}
		})
	}
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
