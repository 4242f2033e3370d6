package core

import (
	"testing"

	"github.com/lspseam/lspseam/internal/casefile"
)

// snippetInputOfAnswer is a navigation answer's codeLocations input as a
// host sends it: locations, the outline entries on their lines, and the
// lines read, with the escapes source lines have (tabs, quotes, <, &).
const snippetInputOfAnswer = `{"locations":[{"uri":"file:///ws/a.go","range":{"start":{"line":3,"character":5},"end":{"line":3,"character":9}}},` +
	`{"uri":"file:///ws/sub/b.go","range":{"start":{"line":10,"character":2},"end":{"line":10,"character":6}}},` +
	`{"uri":"file:///elsewhere/c.go","range":{"start":{"line":1,"character":0},"end":{"line":1,"character":1}}}],` +
	`"workspaceUri":"file:///ws","limit":200,` +
	`"outlines":{"file:///ws/sub/b.go":[{"name":"Run","kind":12,"range":{"start":{"line":8,"character":0},"end":{"line":14,"character":1}},"selectionRange":{"start":{"line":8,"character":5},"end":{"line":8,"character":8}}}]},` +
	`"files":{"file:///ws/a.go":[{"start":3,"lines":["func Name() string { return \"x\" }"]}],"file:///ws/sub/b.go":[{"start":10,"lines":["\tif a \u003c b \u0026\u0026 Name() != \"\" {"]}]},` +
	`"subject":"Target: ` + "`Name`" + ` (function) at a.go:4:6"}`

// TestFastSnippetsTakeTheAnswerInput: the shape a navigation answer sends
// is read by the fast path, with the same envelope as the general path.
func TestFastSnippetsTakeTheAnswerInput(t *testing.T) {
	for _, method := range []string{"planSnippets", "codeLocations"} {
		if !fastMatchesGeneral(t, method, []byte(snippetInputOfAnswer)) {
			t.Fatalf("%s fell back", method)
		}
	}
}

// FuzzFastSnippets checks that whatever the fast path answers for
// planSnippets and codeLocations, the general path answers with the same
// bytes.
func FuzzFastSnippets(f *testing.F) {
	cases, err := casefile.Load(casefile.Dir(".."))
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range cases {
		if c.Method == "planSnippets" || c.Method == "codeLocations" {
			f.Add(c.Method == "codeLocations", c.Bytes())
		}
	}
	f.Add(true, []byte(snippetInputOfAnswer))
	f.Add(false, []byte(`{"locations":[{"uri":"file:///ws/a","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}}],"workspaceUri":"file:///ws","context":null,"includeBody":false,"x":[1,{"y":"\u0041"}],"files":{"file:///ws/a":[{"start":0,"lines":null,"z":1}]}}`))
	f.Add(true, []byte(`{"locations":[{"uri":"file:///ws/a","range":{"start":{"line":2,"character":0},"end":{"line":2,"character":1}}}],"workspaceUri":"file:///ws","context":4,"maxResultChars":10,"subject":"s\ud83d\ude00"}`))
	// null where an object or array belongs: gjson's walk reads it as
	// one element, so the general path refuses it (the fuzzer's first
	// find).
	for _, member := range []string{`"files":null`, `"outlines":null`, `"files":{"file:///ws/a":[{"start":0,"lines":null}]}`} {
		f.Add(true, []byte(`{"locations":[{"uri":"file:///ws/a","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}}}],"workspaceUri":"file:///ws",`+member+`}`))
	}
	f.Fuzz(func(t *testing.T, locations bool, input []byte) {
		method := "planSnippets"
		if locations {
			method = "codeLocations"
		}
		fastMatchesGeneral(t, method, input)
	})
}
