package core

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

const rng00 = `{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}`

func plan(t *testing.T, input string) (gjson.Result, gjson.Result) {
	t.Helper()
	env := gjson.ParseBytes(Call("planWorkspaceEdit", []byte(input)))
	return env.Get("ok"), env.Get("error")
}

func TestPlanWorkspaceEdit(t *testing.T) {
	for _, c := range []struct {
		name, input string
		want        []string // substrings of the ok value
		code        Code
		phrase      string
	}{
		{name: "null edit", input: `{"edit":null,"workspaceUri":"file:///w"}`,
			want: []string{`{"files":[],"operations":[],"outside":[],"conflicts":[],"touched":[],"summary":"no changes"}`}},
		{name: "empty object", input: `{"edit":{},"workspaceUri":"file:///w"}`, want: []string{`"summary":"no changes"`}},
		{name: "changes", input: `{"edit":{"changes":{"file:///w/a.go":[{"range":` + rng00 + `,"newText":"x"}],"file:///w/b.go":[{"range":` + rng00 + `,"newText":"y"},{"range":` + rng00 + `,"newText":"z","annotationId":"a"}]}},"workspaceUri":"file:///w"}`,
			want: []string{`"path":"a.go","edits":[{"range"`, `"touched":["a.go","b.go"]`, `"summary":"3 edits in 2 files"`}},
		{name: "documentChanges wins", input: `{"edit":{"changes":{"file:///w/a.go":[{"range":` + rng00 + `,"newText":"x"}]},"documentChanges":[{"textDocument":{"uri":"file:///w/b.go","version":4},"edits":[]}]},"workspaceUri":"file:///w"}`,
			want: []string{`"files":[{"uri":"file:///w/b.go","path":"b.go","index":0,"version":4,"edits":[]}]`, `"touched":[]`}},
		{name: "operations", input: `{"edit":{"documentChanges":[{"kind":"create","uri":"file:///w/n.ts","options":{"ignoreIfExists":true}},{"kind":"rename","oldUri":"file:///w/a.ts","newUri":"file:///w/b.ts"},{"kind":"delete","uri":"file:///w/old","options":{"recursive":true}}]},"workspaceUri":"file:///w"}`,
			want: []string{`{"kind":"create","index":0,"uri":"file:///w/n.ts","path":"n.ts","options":{"overwrite":false,"ignoreIfExists":true}}`,
				`{"kind":"rename","index":1,"oldUri":"file:///w/a.ts","oldPath":"a.ts","newUri":"file:///w/b.ts","newPath":"b.ts","options":{"overwrite":false,"ignoreIfExists":false}}`,
				`"options":{"recursive":true,"ignoreIfNotExists":false}`, `"touched":["n.ts","a.ts","b.ts","old"]`, `"summary":"create n.ts; rename a.ts → b.ts; delete old"`}},
		{name: "outside", input: `{"edit":{"changes":{"file:///etc/passwd":[],"file:///w":[],"untitled:1":[],"file:///w/../x":[],"file:///w/ok":[]}},"workspaceUri":"file:///w"}`,
			want: []string{`"outside":["file:///etc/passwd","file:///w","untitled:1","file:///w/../x"]`}},
		{name: "versions", input: `{"edit":{"documentChanges":[{"textDocument":{"uri":"file:///w/a.go","version":3},"edits":[]},{"textDocument":{"uri":"file:///w/b.go","version":2},"edits":[]},{"textDocument":{"uri":"file:///w/c.go","version":1},"edits":[]},{"textDocument":{"uri":"file:///w/d.go","version":null},"edits":[]}]},"workspaceUri":"file:///w","versions":{"file:///w/a.go":3,"file:///w/%62.go":5,"file:///w/d.go":9}}`,
			want: []string{`"conflicts":[{"uri":"file:///w/b.go","path":"b.go","expected":2,"have":5},{"uri":"file:///w/c.go","path":"c.go","expected":1,"have":null}]`}},
		{name: "windows versions", input: `{"edit":{"documentChanges":[{"textDocument":{"uri":"file:///c%3A/W/A.go","version":3},"edits":[]},{"textDocument":{"uri":"file:///c:/w/b.go","version":2},"edits":[]}]},"workspaceUri":"file:///C:/w","versions":{"file:///C:/w/a.go":3,"file:///C:/w/b.go":5}}`,
			want: []string{`"conflicts":[{"uri":"file:///c:/w/b.go","path":"b.go","expected":2,"have":5}]`, `"path":"A.go"`}},
		{name: "windows outside", input: `{"edit":{"changes":{"file:///D:/w/a.go":[],"file:///C:/w":[],"file:///C:/ww/a.go":[],"file:///c%3A/W/ok.go":[]}},"workspaceUri":"file:///C:/w"}`,
			want: []string{`"outside":["file:///D:/w/a.go","file:///C:/w","file:///C:/ww/a.go"]`}},
		{name: "same document twice", input: `{"edit":{"documentChanges":[{"textDocument":{"uri":"file:///w/a.go","version":1},"edits":[{"range":` + rng00 + `,"newText":"x"}]},{"kind":"rename","oldUri":"file:///w/a.go","newUri":"file:///w/b.go"},{"textDocument":{"uri":"file:///w/b.go","version":null},"edits":[{"range":` + rng00 + `,"newText":"y"}]},{"textDocument":{"uri":"file:///w/b.go","version":null},"edits":[{"range":` + rng00 + `,"newText":"z"}]}]},"workspaceUri":"file:///w"}`,
			want: []string{`"index":2,"version":null`, `"index":3,"version":null`, `"touched":["a.go","b.go"]`, `"summary":"3 edits in 2 files; rename a.go → b.go"`}},
		{name: "many operations", input: `{"edit":{"documentChanges":[` + strings.Repeat(`{"kind":"delete","uri":"file:///w/x"},`, 6) + `{"kind":"delete","uri":"file:///w/y"}]},"workspaceUri":"file:///w"}`,
			want: []string{`"summary":"delete x; delete x; delete x; delete x; delete x; and 2 more operations"`, `"touched":["x","y"]`}},
		{name: "not an object", input: `{"edit":[],"workspaceUri":"file:///w"}`, code: CodeMalformedResponse, phrase: "edit must be a WorkspaceEdit object or null, got an array"},
		{name: "bad range", input: `{"edit":{"changes":{"file:///w/a":[{"range":{"start":{"line":0,"character":-1},"end":{"line":0,"character":0}},"newText":""}]}},"workspaceUri":"file:///w"}`,
			code: CodeMalformedResponse, phrase: `edit.changes["file:///w/a"][0].range.start.character must be a non-negative integer, got -1`},
		{name: "reversed range", input: `{"edit":{"changes":{"file:///w/a":[{"range":{"start":{"line":1,"character":0},"end":{"line":0,"character":0}},"newText":""}]}},"workspaceUri":"file:///w"}`,
			code: CodeMalformedResponse, phrase: `range ends before it starts (1:0–0:0)`},
		{name: "unknown kind", input: `{"edit":{"documentChanges":[{"kind":"chmod","uri":"file:///w/a"}]},"workspaceUri":"file:///w"}`,
			code: CodeMalformedResponse, phrase: `edit.documentChanges[0].kind must be "create", "rename" or "delete", got a string ("chmod")`},
		{name: "snippet edit", input: `{"edit":{"documentChanges":[{"textDocument":{"uri":"file:///w/a","version":null},"edits":[{"range":` + rng00 + `,"snippet":{"kind":"snippet","value":"$0"}}]}]},"workspaceUri":"file:///w"}`,
			code: CodeMalformedResponse, phrase: `edit.documentChanges[0].edits[0].newText must be a string, got missing`},
		{name: "bad option", input: `{"edit":{"documentChanges":[{"kind":"create","uri":"file:///w/a","options":{"overwrite":"yes"}}]},"workspaceUri":"file:///w"}`,
			code: CodeMalformedResponse, phrase: `edit.documentChanges[0].options.overwrite must be a boolean`},
		{name: "duplicate uri in changes", input: `{"edit":{"changes":{"file:///w/a":[],"file:///w/a":[]}},"workspaceUri":"file:///w"}`,
			code: CodeMalformedResponse, phrase: `names "file:///w/a" twice`},
		{name: "missing edit", input: `{"workspaceUri":"file:///w"}`, code: CodeInvalidArgument, phrase: "edit must be"},
		{name: "bad workspace", input: `{"edit":null,"workspaceUri":"/w"}`, code: CodeInvalidArgument, phrase: "workspaceUri must be the file: URI"},
		{name: "bad versions", input: `{"edit":null,"workspaceUri":"file:///w","versions":{"file:///w/a":"1"}}`, code: CodeInvalidArgument, phrase: `versions["file:///w/a"] must be an integer`},
	} {
		t.Run(c.name, func(t *testing.T) {
			ok, e := plan(t, c.input)
			if c.code != "" {
				if e.Get("code").Str != string(c.code) || !strings.Contains(e.Get("message").Str, c.phrase) {
					t.Fatalf("got %s %s; want %s with %q", ok.Raw, e.Raw, c.code, c.phrase)
				}
				return
			}
			if !ok.Exists() {
				t.Fatalf("error %s", e.Raw)
			}
			for _, w := range c.want {
				if !strings.Contains(ok.Raw, w) {
					t.Errorf("%s\nlacks %s", ok.Raw, w)
				}
			}
		})
	}
}

// TestPlanThenApply: a plan's file edits are what applyTextEdits takes.
func TestPlanThenApply(t *testing.T) {
	ok, e := plan(t, `{"edit":{"changes":{"file:///w/a.go":[{"range":{"start":{"line":0,"character":4},"end":{"line":0,"character":5}},"newText":"y"},{"range":{"start":{"line":1,"character":0},"end":{"line":1,"character":1}},"newText":"y"}]}},"workspaceUri":"file:///w"}`)
	if e.Exists() {
		t.Fatal(e.Raw)
	}
	f := ok.Get("files.0")
	input := `{"uri":` + f.Get("uri").Raw + `,"text":"let x = 1\nx++\n","edits":` + f.Get("edits").Raw + `,"workspaceUri":"file:///w"}`
	env := gjson.ParseBytes(Call("applyTextEdits", []byte(input)))
	if env.Get("ok.text").Str != "let y = 1\ny++\n" || env.Get("ok.path").Str != "a.go" {
		t.Fatalf("%s", env.Raw)
	}
}
