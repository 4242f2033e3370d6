package localstdio

import (
	"strings"
	"testing"
)

// A diagnostic's notes (clangd's "'f' declared here") are context, not
// the problem: when only the note changes — the definition changed to
// match its prototype, so the note of every unchanged call error now
// points at the definition — the error persists; it is neither
// introduced nor resolved.

// noted is a publishDiagnostics step for file with one error whose
// message is msg and whose relatedInformation, when related is not "", is
// one note at relLine in a.go.
func (f *fake) noted(file, msg, related string, relLine int) map[string]any {
	d := diagnostic(msg)
	d["code"], d["source"] = "typecheck_call_too_few_args", "clang"
	if related != "" {
		d["relatedInformation"] = []any{map[string]any{"location": f.loc("a.go", relLine, 5), "message": related}}
	}
	return map[string]any{"notification": "textDocument/publishDiagnostics", "params": map[string]any{"uri": f.uri(file), "diagnostics": []any{d}}}
}

// TestEditDeltaIgnoresChangedNotes: the fake publishes, on a.go and on
// its dependent b.go, the same error before and after the edit with a
// different note: appended to the message as clangd does for a client
// that takes no relatedInformation ("\n\n/abs/a.go:3:6:\nnote: …", the
// main file's basename in its own notes), or as relatedInformation. Each
// is 1 persisting, none introduced or resolved; and lspseam declares
// relatedInformation, so that clangd sends its notes there.
func TestEditDeltaIgnoresChangedNotes(t *testing.T) {
	const msg = "Too few arguments to function call, expected 2, have 1"
	absA := func(f *fake) string { return f.ws + "/sub/../a.go" }
	for _, tt := range []struct {
		name          string
		before, after func(f *fake, file string) map[string]any
	}{
		{"appended to the message",
			func(f *fake, file string) map[string]any {
				return f.noted(file, msg+"\n\n"+absA(f)+":3:6:\nnote: 'A' declared here", "", 0)
			},
			func(f *fake, file string) map[string]any {
				if file == "a.go" {
					return f.noted(file, msg+"\n\na.go:3:6: note: 'A' declared here", "", 0)
				}
				return f.noted(file, msg+"\n\n"+absA(f)+":7:6:\nnote: 'A' declared here", "", 0)
			}},
		{"as relatedInformation",
			func(f *fake, file string) map[string]any { return f.noted(file, msg, "'A' declared here", 2) },
			func(f *fake, file string) map[string]any { return f.noted(file, msg, "'A' defined here", 6) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, nil, nil)
			f.writeFiles(t, "b.go")
			f.setScript(map[string]any{"capabilities": catalogCaps, "methods": map[string]any{
				"textDocument/documentSymbol": map[string]any{"result": symbolsOfA},
				"textDocument/references":     map[string]any{"result": []any{f.loc("a.go", 2, 5), f.loc("b.go", 2, 11)}},
				"textDocument/didOpen":        map[string]any{"action": "none", "after": []any{tt.before(f, "a.go"), tt.before(f, "b.go")}},
				"textDocument/didChange":      map[string]any{"action": "none", "after": []any{tt.after(f, "a.go"), tt.after(f, "b.go")}},
			}})
			tb := f.toolbox()
			if res, _ := f.call(tb, "read", `{"file_path":"a.go"}`); res.IsError {
				t.Fatalf("read: %s", res.Text)
			}
			res, s := f.call(tb, "edit", `{"file_path":"a.go","old_string":"func A() {}","new_string":"func A(x int) {}"}`)
			if res.IsError {
				t.Fatalf("edit: %s", res.Text)
			}
			if !strings.Contains(res.Text, "0 introduced, 0 resolved, 1 persisting") ||
				!strings.Contains(res.Text, "1 other file checked, no new problems") || strings.Contains(res.Text, "Resolved") {
				t.Errorf("a changed note made the unchanged error new:\n%s", res.Text)
			}
			others, _ := s["diagnostics"].(map[string]any)["others"].(map[string]any)
			if others["checked"] != float64(1) {
				t.Errorf("others: %v", others)
			}
			var declared bool
			for _, e := range f.events() {
				if e.Event == "recv" && e.Method == "initialize" {
					declared = strings.Contains(string(e.Params), `"publishDiagnostics":{"versionSupport":true,"relatedInformation":true}`)
				}
			}
			if !declared {
				t.Error("initialize does not declare publishDiagnostics.relatedInformation")
			}
		})
	}
}
