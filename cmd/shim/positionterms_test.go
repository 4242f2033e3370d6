package main

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// serve's lsp/query takes zero-based positions: a position error quotes
// the numbers as sent and says zero-based (the tester's harness sent line
// 5 of a 5-line file and read "line 6 … one-based"). A request converted
// from a model's one-based arguments says positionTerms "one-based" and
// reads the model's numbers; the lsp tool through tools/call does too.
func TestServePositionErrorsInCallersTerms(t *testing.T) {
	f := newMCPFixture(t)
	c := startClient(t, true, f.bin, "serve", "--config", f.config)
	ws := strconv.Quote(f.workspace)
	query := func(id, position, extra string) string {
		t.Helper()
		c.send(text(`{"jsonrpc":"2.0","id":` + id + `,"method":"lsp/query","params":{"operation":"goToDefinition","filePath":"a.go","position":` + position + `,"workspaceRoot":` + ws + extra + `}}`))
		return string(c.response(id)["error"])
	}
	for _, tc := range []struct {
		name, id, position, extra string
		want                      []string
	}{
		{"line past the end, zero-based", "1", `{"line":5,"character":0}`, "",
			[]string{`"code":"LSP_INVALID_ARGUMENT"`, "line 5 is past the end of the file, which has 5 lines, so valid lines are 0 to 4; its last line, 4, is `func use() { Hello() }`", "zero-based, as sent"}},
		{"character past the end, zero-based", "2", `{"line":2,"character":40}`, "",
			[]string{"character 40 is past the end of line 2, which has 15 characters, so valid characters are 0 to 15", "zero-based"}},
		{"one-based terms", "3", `{"line":5,"character":0}`, `,"positionTerms":"one-based"`,
			[]string{"line 6 is past the end of the file, which has 5 lines; its last line, 5,", "Line and character are one-based"}},
		{"unknown terms", "4", `{"line":0,"character":0}`, `,"positionTerms":"1-based"`,
			[]string{`"code":"LSP_INVALID_ARGUMENT"`, "positionTerms must be"}},
	} {
		got := query(tc.id, tc.position, tc.extra)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: error lacks %q: %s", tc.name, w, got)
			}
		}
		if tc.extra == "" && strings.Contains(got, "one-based") {
			t.Errorf("%s: a zero-based caller is told one-based: %s", tc.name, got)
		}
	}
	// The lsp tool speaks one-based, as before.
	c.send(text(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"lsp","workspaceRoot":` + ws + `,"arguments":{"operation":"goToDefinition","file_path":"a.go","line":6,"character":1}}}`))
	if res := string(c.response("5")["result"]); !strings.Contains(res, "line 6 is past the end of the file, which has 5 lines; its last line, 5,") || !strings.Contains(res, "one-based") {
		t.Errorf("lsp tool: want a one-based error, got %.600s", res)
	}
}

// Every serve error carries its seam error as data: {code, message},
// including the duplicate in-flight id, an unknown method and a query
// after shutdown (docs/errors.md: clients map data.code).
func TestServeErrorsCarryCodes(t *testing.T) {
	f := newMCPFixture(t)
	c := startClient(t, true, f.bin, "serve", "--config", f.config)
	ws := strconv.Quote(f.workspace)
	dataCode := func(id string) (int, string) {
		t.Helper()
		var e struct {
			Code int `json:"code"`
			Data struct {
				Code string `json:"code"`
			} `json:"data"`
		}
		raw := c.response(id)["error"]
		if err := json.Unmarshal(raw, &e); err != nil {
			t.Fatalf("id %s: no JSON-RPC error: %s", id, raw)
		}
		return e.Code, e.Data.Code
	}
	c.send(text(`{"jsonrpc":"2.0","id":1,"method":"lsp/nope","params":{}}`))
	if code, data := dataCode("1"); code != -32601 || data != "LSP_UNKNOWN_METHOD" {
		t.Errorf("unknown method: %d %q", code, data)
	}
	// References hang in the fake: the first id 2 stays in flight.
	references := `{"jsonrpc":"2.0","id":2,"method":"lsp/query","params":{"operation":"findReferences","filePath":"a.go","position":{"line":2,"character":6},"workspaceRoot":` + ws + `}}`
	c.send(text(references))
	f.waitFakeEvent(t, "the references request", func(e fakeEvent) bool { return e.Method == "textDocument/references" })
	c.send(text(references))
	if code, data := dataCode("2"); code != -32600 || data != "LSP_INVALID_ARGUMENT" {
		t.Errorf("duplicate in-flight id: %d %q", code, data)
	}
	c.send(text(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}`))
	if _, data := dataCode("2"); data != "LSP_CANCELLED" {
		t.Errorf("cancelled query: %q", data)
	}
	c.send(text(`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"toolsets":"code"}}`))
	if code, data := dataCode("3"); code != -32600 || data != "LSP_INVALID_ARGUMENT" {
		t.Errorf("bad tools/list params: %d %q", code, data)
	}
	c.send(text(`{"jsonrpc":"2.0","id":4,"method":"shutdown"}`))
	c.response("4")
	c.send(text(`{"jsonrpc":"2.0","id":5,"method":"lsp/query","params":{"operation":"hover","filePath":"a.go","position":{"line":0,"character":0},"workspaceRoot":` + ws + `}}`))
	if code, data := dataCode("5"); code != -32600 || data != "LSP_DISPOSED" {
		t.Errorf("query after shutdown: %d %q", code, data)
	}
}

// doctor says what was wrong with its command line, and its recovery
// error for a missing workspace has the stable code every call gives.
func TestDoctorUsageAndWorkspaceErrors(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"doctor", "--format", "yaml"}, nil, &out, &errOut); code != exitUsage || !strings.Contains(errOut.String(), `--format must be text or json, got "yaml"`) {
		t.Errorf("--format yaml: exit %d, stderr %q", code, errOut.String())
	}
	out.Reset()
	errOut.Reset()
	code := run([]string{"doctor", "--workspace", "/nonexistent-lspseam-workspace", "--format", "json"}, nil, &out, &errOut)
	var report doctorReport
	if err := json.Unmarshal(out.Bytes(), &report); err != nil {
		t.Fatalf("exit %d: %v: %s %s", code, err, out.String(), errOut.String())
	}
	if code != exitError || !strings.HasPrefix(report.RecoveryError, "LSP_WORKSPACE_INVALID: ") || !strings.HasPrefix(report.LanguagesError, "LSP_WORKSPACE_INVALID: ") {
		t.Errorf("missing workspace: exit %d, recoveryError %q, languagesError %q", code, report.RecoveryError, report.LanguagesError)
	}
}
