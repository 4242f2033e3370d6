package core

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lspseam/lspseam/internal/casefile"
	"github.com/tidwall/gjson"
)

// fsCases returns a method's golden-case inputs, to seed the fs fuzzers.
func fsCases(f *testing.F, method string) []gjson.Result {
	cases, err := casefile.Load(casefile.Dir(".."))
	if err != nil {
		f.Fatal(err)
	}
	var out []gjson.Result
	for _, c := range cases {
		if c.Method == method {
			out = append(out, gjson.ParseBytes(c.Bytes()))
		}
	}
	return out
}

func editInput(text, old, new string, all bool) []byte {
	b := append([]byte(`{"text":`), appendString(nil, text)...)
	b = append(append(b, `,"oldString":`...), appendString(nil, old)...)
	b = append(append(b, `,"newString":`...), appendString(nil, new)...)
	b = append(append(b, `,"replaceAll":`...), strconv.FormatBool(all)...)
	return append(b, `,"path":"f.txt"}`...)
}

// FuzzEditText: any text and strings give a well-formed envelope; an ok
// edit is valid UTF-8, keeps a byte order mark, replaces once unless
// replaceAll, reports lines that exist, changes the length by the
// replacements (files without \r), and a unique edit reverses.
func FuzzEditText(f *testing.F) {
	for _, in := range fsCases(f, "editText") {
		f.Add(in.Get("text").Str, in.Get("oldString").Str, in.Get("newString").Str, in.Get("replaceAll").Bool())
	}
	for _, c := range editCases {
		f.Add(c.text, c.old, c.new, c.all)
	}
	f.Fuzz(func(t *testing.T, text, old, new string, all bool) {
		// The JSON encoding makes invalid UTF-8 valid; compare with what
		// core sees.
		text, old, new = strings.ToValidUTF8(text, "\uFFFD"), strings.ToValidUTF8(old, "\uFFFD"), strings.ToValidUTF8(new, "\uFFFD")
		input := editInput(text, old, new, all)
		bound := 6*(len(text)+(len(text)/max(1, len(old))+1)*2*len(new)) + 1<<14
		env := Call("editText", input)
		ok := checkEnvelope(t, input, env, bound)
		if !ok.Exists() {
			code := gjson.GetBytes(env, "error.code").Str
			if code != string(CodeFSNoMatch) && code != string(CodeFSAmbiguousMatch) && code != string(CodeFSInvalidArgument) {
				t.Fatalf("unexpected error: %s", env)
			}
			if code == string(CodeFSInvalidArgument) && old != "" && old != new {
				t.Fatalf("invalid argument for valid strings: %s", env)
			}
			return
		}
		out := ok.Get("text").Str
		n := int(ok.Get("replacements").Int())
		hadBOM := strings.HasPrefix(text, utf8BOM)
		switch {
		case !utf8.ValidString(out):
			t.Fatalf("output is not UTF-8: %q", out)
		case ok.Get("bom").Bool() != hadBOM || (hadBOM && !strings.HasPrefix(out, utf8BOM)):
			t.Fatalf("byte order mark not kept: %s", env)
		case n < 1 || (!all && n != 1) || ok.Get("replaceAll").Bool() != all:
			t.Fatalf("replacements: %s", env)
		}
		body, newBody := strings.TrimPrefix(text, utf8BOM), out
		if hadBOM {
			newBody = out[len(utf8BOM):]
		}
		before, after := int(ok.Get("linesBefore").Int()), int(ok.Get("linesAfter").Int())
		first, last := int(ok.Get("changedLines.first").Int()), int(ok.Get("changedLines.last").Int())
		if before != len(SplitLines(body)) || after != len(SplitLines(newBody)) {
			t.Fatalf("line counts %d, %d: %s", len(SplitLines(body)), len(SplitLines(newBody)), env)
		}
		if first < 1 || first > last || last > max(1, after) {
			t.Fatalf("changedLines out of range: %s", env)
		}
		if strings.ContainsRune(text+old+new, '\r') {
			return
		}
		if len(out) != len(text)+n*(len(new)-len(old)) {
			t.Fatalf("length %d, want %d: %s", len(out), len(text)+n*(len(new)-len(old)), env)
		}
		// A unique edit whose new string occurs once (overlaps counted)
		// reverses.
		i := strings.Index(newBody, new)
		if all || new == "" || strings.Contains(old+new, utf8BOM) || i < 0 || strings.Contains(newBody[i+1:], new) {
			return
		}
		back := Call("editText", editInput(out, new, old, false))
		if got := gjson.GetBytes(back, "ok.text"); got.Str != text {
			t.Fatalf("reversing %q → %q in %q gave %s", old, new, text, back)
		}
	})
}

// FuzzReadView: any text and window give a well-formed envelope; an ok
// view returns at most limit lines numbered consecutively from startLine,
// counts the file's lines as SplitLines does, and says what follows.
func FuzzReadView(f *testing.F) {
	for _, in := range fsCases(f, "readView") {
		f.Add(in.Get("text").Str, in.Get("offset").Int(), in.Get("limit").Int(), in.Get("maxLineChars").Int())
	}
	f.Add("a\r\nb\rc\n\n", int64(2), int64(2), int64(1))
	f.Fuzz(func(t *testing.T, text string, offset, limit, maxChars int64) {
		text = strings.ToValidUTF8(text, "\uFFFD")
		b := append([]byte(`{"text":`), appendString(nil, text)...)
		b = append(b, `,"path":"f.txt"`...)
		for _, p := range []struct {
			name string
			v    int64
		}{{"offset", offset}, {"limit", limit}, {"maxLineChars", maxChars}} {
			if p.v != 0 { // 0: left out, the default
				b = append(append(b, `,"`+p.name+`":`...), strconv.FormatInt(p.v, 10)...)
			}
		}
		input := append(b, '}')
		lines := SplitLines(strings.TrimPrefix(text, utf8BOM))
		env := Call("readView", input)
		ok := checkEnvelope(t, input, env, 6*len(text)+64*len(lines)+1<<14)
		if offset == 0 {
			offset = 1
		}
		if limit == 0 {
			limit = defaultReadLimit
		}
		if !ok.Exists() {
			code := gjson.GetBytes(env, "error.code").Str
			valid := offset >= 1 && offset <= maxOneBased && limit >= 1 && limit <= maxReadLimit && maxChars >= 0 && maxChars <= maxReadMaxLineChars
			if valid && (code != string(CodeFSInvalidArgument) || offset <= int64(max(len(lines), 1))) {
				t.Fatalf("unexpected error: %s", env)
			}
			return
		}
		start, returned, total := ok.Get("startLine").Int(), ok.Get("returnedLines").Int(), ok.Get("totalLines").Int()
		if start != offset || returned > limit || total != int64(len(lines)) || returned > total {
			t.Fatalf("window: %s", env)
		}
		shown := ok.Get("text").Str
		if returned == 0 {
			if shown != "" || total != 0 {
				t.Fatalf("empty window: %s", env)
			}
			return
		}
		for i, l := range strings.Split(shown, "\n") {
			num, content, found := strings.Cut(strings.TrimLeft(l, " "), "\t")
			if !found || num != strconv.FormatInt(start+int64(i), 10) || int64(i) >= returned {
				t.Fatalf("line %d %q not numbered %d: %s", i, l, start+int64(i), env)
			}
			if orig := lines[start-1+int64(i)]; content != orig && !strings.HasPrefix(orig, strings.Split(content, "… [line truncated: ")[0]) {
				t.Fatalf("line %d shows %q for %q", i, content, orig)
			}
		}
		next := ok.Get("nextOffset").Int()
		more := start+returned-1 < total
		if (next != 0) != more || (more && next != start+returned) || ok.Get("partial").Bool() != (more || start > 1) {
			t.Fatalf("pagination: %s", env)
		}
	})
}
