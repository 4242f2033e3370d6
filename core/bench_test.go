package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/lspseam/lspseam/internal/casefile"
	"github.com/lspseam/lspseam/internal/gocorpus"
)

// Native-only benchmarks of the hot paths; bindings/go has the module
// comparison.

func BenchmarkTranslate(b *testing.B) {
	for _, n := range []int{10, 1000} {
		in := casefile.ReferencesPayload(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				Call("translate", in)
			}
		})
	}
}

func BenchmarkRender(b *testing.B) {
	for _, n := range []int{10, 1000} {
		tr := Call("translate", casefile.ReferencesPayload(n))
		in := []byte(`{"workspaceUri":"file:///work/project","maxLocations":100000,"maxResultChars":10000000,"result":` + string(tr[6:len(tr)-1]) + `}`)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				Call("render", in)
			}
		})
	}
}

// benchFile is a Go-like file of n functions, each three lines, and its
// documentSymbol answer.
func benchFile(n int) (string, string) {
	var text, syms []byte
	syms = append(syms, '[')
	for i := 0; i < n; i++ {
		text = fmt.Appendf(text, "func F%d(x int) int {\n\treturn x + %d // 🚀\n}\n", i, i)
		if i > 0 {
			syms = append(syms, ',')
		}
		syms = fmt.Appendf(syms, `{"name":"F%d","kind":12,"range":{"start":{"line":%d,"character":0},"end":{"line":%d,"character":1}},"selectionRange":{"start":{"line":%d,"character":5},"end":{"line":%d,"character":%d}}}`,
			i, 3*i, 3*i+2, 3*i, 3*i, 5+len(fmt.Sprint(i))+1)
	}
	return string(text), string(append(syms, ']'))
}

// BenchmarkResolveTarget: flatten the symbols of a 3,000-line file and
// resolve a name in it (what a by-name call adds before its request).
func BenchmarkResolveTarget(b *testing.B) {
	text, raw := benchFile(1000)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		syms, err := FlattenSymbols(gjson.Parse(raw), text)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := ResolveTarget(Target{Path: "a.go", Symbol: "F777"}, false, TargetFile{Text: text, Symbols: syms}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCodeLocations: plan, build and render 500 references with one
// line of context in one 3,000-line file.
func BenchmarkCodeLocations(b *testing.B) {
	text, raw := benchFile(1000)
	uri := "file:///w/p/a.go"
	syms, _ := FlattenSymbols(gjson.Parse(raw), text)
	symbols := map[string][]Symbol{uri: syms}
	lines := SplitLines(text)
	locs := make([]Location, 500)
	for i := range locs {
		locs[i] = Location{URI: uri, Range: Range{Start: Position{Line: uint32(6*i + 1), Character: 8}, End: Position{Line: uint32(6*i + 1), Character: 9}}}
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		plan, err := PlanSnippets(locs, "file:///w/p", SnippetOptions{Context: 1, Limit: 500}, symbols)
		if err != nil {
			b.Fatal(err)
		}
		var read []FileLines
		for _, f := range plan.Files {
			fl := FileLines{URI: f.URI}
			for _, s := range f.Spans {
				fl.Chunks = append(fl.Chunks, LineChunk{Start: s.Start, Lines: lines[s.Start:min(int(s.End)+1, len(lines))]})
			}
			read = append(read, fl)
		}
		cl, err := BuildCodeLocations(plan, read, symbols)
		if err != nil {
			b.Fatal(err)
		}
		RenderCodeLocations(cl, "", 0)
	}
}

// byNameInputs are the ABI inputs of a by-name references call on the
// generated 2,000-line file (internal/gocorpus), as the Go host builds
// them: method, then input (flattenSymbols: the file's outline, asked
// once per version of the file).
func byNameInputs() [][2]string {
	ws := gocorpus.Generate()
	const wsURI = "file:///w/big"
	texts, outlines := map[string]string{}, map[string]json.RawMessage{}
	for _, f := range ws.Files {
		texts[wsURI+"/"+f.Path] = f.Text
		outlines[wsURI+"/"+f.Path] = f.Outline()
	}
	locs := make([]gocorpus.Location, len(ws.NameRefs))
	for i, l := range ws.NameRefs {
		l.URI = wsURI + "/" + l.URI
		locs[i] = l
	}
	target := wsURI + "/" + gocorpus.LargeFile
	files, symbols := map[string]string{}, map[string]json.RawMessage{}
	for _, l := range locs {
		files[l.URI], symbols[l.URI] = texts[l.URI], outlines[l.URI]
	}
	enc := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	return [][2]string{
		{"flattenSymbols", enc(map[string]any{"symbols": outlines[target], "text": texts[target]})},
		{"resolveTarget", enc(map[string]any{"target": map[string]string{"path": gocorpus.LargeFile, "symbol": gocorpus.NameMethod}, "text": texts[target], "symbols": outlines[target]})},
		{"planSnippets", enc(map[string]any{"locations": locs, "workspaceUri": wsURI})},
		{"codeLocations", enc(map[string]any{"locations": locs, "workspaceUri": wsURI, "symbols": symbols, "files": files, "subject": "Target: `Name`"})},
	}
}

// BenchmarkByNameLarge: the core calls of a by-name references call on a
// 2,000-line file with 79 references in 13 files, through the envelope
// (what the module runs, natively).
func BenchmarkByNameLarge(b *testing.B) {
	for _, call := range byNameInputs() {
		in := []byte(call[1])
		b.Run(call[0], func(b *testing.B) {
			if out := Call(call[0], in); !bytes.HasPrefix(out, []byte(`{"ok":`)) {
				b.Fatalf("%s", out)
			}
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				Call(call[0], in)
			}
		})
	}
}

// BenchmarkDiagnosticsDelta: an edit's delta on the generated 2,000-line
// file, one problem before and after, the file object's fields in the
// order the host sends them (the texts last: toolbox's deltaFileInput).
func BenchmarkDiagnosticsDelta(b *testing.B) {
	var text string
	for _, f := range gocorpus.Generate().Files {
		if f.Path == gocorpus.LargeFile {
			text = f.Text
		}
	}
	after := strings.Replace(text, "func (c *Command) Name() string {", "func (c *Command) Name() string { // edited", 1)
	problem := `[{"range":{"start":{"line":5,"character":1},"end":{"line":5,"character":3}},"severity":1,"message":"undefined: x"}]`
	q := func(s string) string { v, _ := json.Marshal(s); return string(v) }
	in := []byte(`{"workspaceUri":"file:///w","files":[{"uri":"file:///w/command.go","how":"pull","fresh":true,"before":` + problem + `,"after":` + problem + `,"beforeText":` + q(text) + `,"afterText":` + q(after) + `}]}`)
	if out := Call("diagnosticsDelta", in); !bytes.Contains(out, []byte(`"ok"`)) {
		b.Fatalf("diagnosticsDelta: %s", out)
	}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Call("diagnosticsDelta", in)
	}
}

// BenchmarkDiagnosticsDeltaRename: a rename's delta on the generated
// 2,000-line file, the file sent as the host sends it (LinesChanged): the
// same identifier changed on 22 lines scattered over the whole file, a
// problem on every changed line before and after. Reports the input's
// bytes (input-B/op) beside the time.
func BenchmarkDiagnosticsDeltaRename(b *testing.B) {
	var text string
	for _, f := range gocorpus.Generate().Files {
		if f.Path == gocorpus.LargeFile {
			text = f.Text
		}
	}
	after := strings.ReplaceAll(text, "HasPrefix", "StartsWith")
	var problems []string
	for i, l := range SplitLines(text) {
		if c := strings.Index(l, "HasPrefix"); c >= 0 {
			problems = append(problems, fmt.Sprintf(`{"range":{"start":{"line":%d,"character":%d},"end":{"line":%d,"character":%d}},"severity":1,"message":"undefined: x"}`, i, c, i, c+1))
		}
	}
	if len(problems) < 20 {
		b.Fatalf("the rename changes %d lines, want about 20: the generated file changed?", len(problems))
	}
	problem := "[" + strings.Join(problems, ",") + "]"
	lines, _ := json.Marshal(LinesChanged(text, after))
	in := []byte(`{"workspaceUri":"file:///w","files":[{"uri":"file:///w/command.go","how":"pull","fresh":true,"before":` + problem + `,"after":` + problem + `,"lines":` + string(lines) + `}]}`)
	if out := Call("diagnosticsDelta", in); !bytes.Contains(out, []byte(`"persisting":`+fmt.Sprint(len(problems)))) {
		b.Fatalf("diagnosticsDelta: %s", out)
	}
	b.ReportMetric(float64(len(in)), "input-B/op")
	b.ReportMetric(float64(len(lines)), "lines-B/op")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Call("diagnosticsDelta", in)
	}
}
