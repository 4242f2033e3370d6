package core

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/lspseam/lspseam/internal/casefile"
)

// Fuzz targets for every parser of untrusted input: model arguments
// (parseToolArgs), source text checked against a position (request with
// text, FuzzRequestText), server payloads (translate), results handed to render,
// configuration files (validateConfig), servers' watcher registrations and
// glob patterns (fileWatchers, FuzzGlobMatch) and hosts' recorded file
// changes (fileChanges). The seed corpus is every golden case of the method
// (the glob table for FuzzGlobMatch); `make fuzz` runs each target for
// FUZZTIME.
//
// Each target checks that the answer is a well-formed envelope with a
// documented code (never LSP_INTERNAL_ERROR, i.e. no panic), that its size
// is bounded by its input, and a property of the method.

func seed(f *testing.F, method string) {
	cases, err := casefile.Load(casefile.Dir(".."))
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range cases {
		if c.Method == method {
			f.Add(c.Bytes())
		}
	}
}

var documentedCodes = map[string]bool{}

func init() {
	for _, c := range []Code{CodeInvalidArgument, CodeWorkspaceRequired, CodeUnavailable, CodeConflict, CodeDisposed,
		CodeUnsupportedOperation, CodeUnsupportedSync, CodeSourceRejected, CodeMalformedResponse, CodeProtocolError,
		CodeServerFailed, CodeServerError, CodeCancelled, CodeTimeout, CodeConfigInvalid, CodeWorkspaceInvalid, CodeUnknownMethod,
		CodeTargetNotFound, CodeAmbiguousTarget, CodeFSNotObserved, CodeFSStale, CodeFSNotFound, CodeFSNoMatch,
		CodeFSAmbiguousMatch, CodeFSInvalidArgument, CodeFSRejected} {
		documentedCodes[string(c)] = true
	}
}

// checkEnvelope asserts the envelope's shape and returns its ok value (or
// an empty result for an error).
func checkEnvelope(t *testing.T, input, env []byte, maxLen int) gjson.Result {
	t.Helper()
	if !gjson.ValidBytes(env) || !utf8.Valid(env) {
		t.Fatalf("envelope is not valid UTF-8 JSON: %q", env)
	}
	if len(env) > maxLen {
		t.Fatalf("envelope of %d bytes for an input of %d bytes (bound %d)", len(env), len(input), maxLen)
	}
	v := gjson.ParseBytes(env)
	if e := v.Get("error"); e.Exists() {
		code := e.Get("code").Str
		if !documentedCodes[code] {
			t.Fatalf("undocumented or internal error code %q: %s (input %q)", code, env, input)
		}
		if e.Get("message").Str == "" {
			t.Fatalf("error without message: %s", env)
		}
		return gjson.Result{}
	}
	ok := v.Get("ok")
	if !ok.Exists() {
		t.Fatalf("envelope has neither ok nor error: %s", env)
	}
	return ok
}

func FuzzParseToolArgs(f *testing.F) {
	seed(f, "parseToolArgs")
	f.Fuzz(func(t *testing.T, input []byte) {
		env := Call("parseToolArgs", input)
		ok := checkEnvelope(t, input, env, 2*len(input)+4096)
		if !ok.Exists() {
			if !bytes.Contains(env, []byte("one-based")) && gjson.ValidBytes(input) {
				t.Fatalf("argument error without the coordinate convention: %s", env)
			}
			return
		}
		if !Operation(ok.Get("operation").Str).valid() || ok.Get("filePath").Str == "" {
			t.Fatalf("accepted bad arguments: %s", env)
		}
		for _, k := range []string{"position.line", "position.character"} {
			if n := ok.Get(k).Int(); n < 0 || n >= maxUint31 {
				t.Fatalf("%s = %d out of range: %s", k, n, env)
			}
		}
		// The main property: one-based in, zero-based out, the path and
		// the operation as given.
		args := gjson.ParseBytes(input)
		if ok.Get("position.line").Int() != args.Get("line").Int()-1 || ok.Get("position.character").Int() != args.Get("character").Int()-1 {
			t.Fatalf("coordinates not converted one-based → zero-based: %s → %s", input, env)
		}
		// (A path that is not UTF-8 comes back with U+FFFD in place of
		// its invalid bytes, by the encoder's rule.)
		if (utf8.ValidString(args.Get("file_path").Str) && ok.Get("filePath").Str != args.Get("file_path").Str) || ok.Get("operation").Str != args.Get("operation").Str {
			t.Fatalf("path or operation changed: %s → %s", input, env)
		}
	})
}

// FuzzRequestText checks the position check on document text, the one
// parser of a source file in the core: valid exactly when the line exists
// (read tools' numbering) and the column is at most one past its last
// UTF-16 unit, one-based in every message, and the subject names the
// position.
func FuzzRequestText(f *testing.F) {
	cases, err := casefile.Load(casefile.Dir(".."))
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range cases {
		if in := gjson.ParseBytes(c.Bytes()); c.Method == "request" && in.Get("text").Type == gjson.String {
			f.Add(in.Get("text").Str, uint32(in.Get("position.line").Uint()), uint32(in.Get("position.character").Uint()))
		}
	}
	f.Add("a\r\nb\rc\n\n🚀x", uint32(3), uint32(2))
	f.Fuzz(func(t *testing.T, text string, line, char uint32) {
		line, char = line%64, char%256
		subject, perr := CheckPosition(text, Position{Line: line, Character: char}, ZeroBasedTerms) // any bytes: must not panic
		if !utf8.ValidString(text) {
			return
		}
		// The reference: split at every terminator, a final one ends the
		// last line.
		lines := strings.Split(strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n"), "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		valid := int(line) < len(lines) && int(char) <= len(utf16.Encode([]rune(lines[line])))
		if valid != (perr == nil) {
			t.Fatalf("text %q line %d char %d (zero-based): valid=%v but got %q, %v", text, line, char, valid, subject, perr)
		}
		in := appendString([]byte(`{"operation":"hover","uri":"file:///w/a.go","position":{"line":`+strconv.Itoa(int(line))+`,"character":`+strconv.Itoa(int(char))+`},"text":`), text)
		in = append(in, '}')
		env := Call("request", in)
		ok := checkEnvelope(t, in, env, 2*maxQuotedLine+4096)
		// The envelope reads lines from the raw JSON string: the same text
		// with its line breaks escaped as \u000a / \u000D must give the
		// same envelope.
		alt := []byte(`{"operation":"hover","uri":"file:///w/a.go","position":{"line":` + strconv.Itoa(int(line)) + `,"character":` + strconv.Itoa(int(char)) + `},"text":"`)
		for i := 0; i < len(text); i++ {
			switch c := text[i]; {
			case c == '\n':
				alt = append(alt, `\u000a`...)
			case c == '\r':
				alt = append(alt, `\u000D`...)
			case c == '"' || c == '\\':
				alt = append(alt, '\\', c)
			case c < 0x20:
				alt = append(alt, `\u00`...)
				alt = append(alt, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
			default:
				alt = append(alt, c)
			}
		}
		alt = append(alt, `"}`...)
		if altEnv := Call("request", alt); !bytes.Equal(altEnv, env) {
			t.Fatalf("\\u-escaped line breaks changed the answer:\n%s\n%s", altEnv, env)
		}
		// Without positionTerms the caller sent the position itself: the
		// error quotes it as sent; the subject is the rendered, one-based
		// first line.
		if !ok.Exists() {
			if valid || !strings.Contains(string(env), "line "+strconv.Itoa(int(line))) || !strings.Contains(string(env), "zero-based") || strings.Contains(string(env), "one-based") {
				t.Fatalf("position error not in the zero-based terms it was sent in for %q: %s", in, env)
			}
			return
		}
		where := "line " + strconv.Itoa(int(line)+1)
		if !strings.Contains(ok.Get("subject").Str, where+", column "+strconv.Itoa(int(char)+1)) {
			t.Fatalf("subject does not name the one-based position: %s", env)
		}
		if ok.Get("subject").Str != subject {
			t.Fatalf("the envelope's subject %q differs from CheckPosition's %q", ok.Get("subject").Str, subject)
		}
	})
}

func FuzzTranslate(f *testing.F) {
	seed(f, "translate")
	f.Fuzz(func(t *testing.T, input []byte) {
		env := Call("translate", input)
		ok := checkEnvelope(t, input, env, 8*len(input)+4096)
		if !ok.Exists() {
			return
		}
		// A translated result must itself be a valid render input.
		renderIn := append(append([]byte(`{"workspaceUri":"file:///w","result":`), ok.Raw...), '}')
		checkEnvelope(t, renderIn, Call("render", renderIn), 64*1024+4096)
		if !bytes.HasPrefix(Call("render", renderIn), []byte(`{"ok":`)) {
			t.Fatalf("render rejected translate's output: %s", Call("render", renderIn))
		}
	})
}

func FuzzRender(f *testing.F) {
	seed(f, "render")
	// A Windows host's workspace (hostpaths.go).
	f.Add([]byte(`{"result":{"kind":"locations","locations":[{"uri":"file:///c%3A/W/a.go","range":{"start":{"line":1,"character":2},"end":{"line":1,"character":3}}},{"uri":"file://srv/s/b.go","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}}}]},"workspaceUri":"file:///C:/w"}`))
	f.Fuzz(func(t *testing.T, input []byte) {
		env := Call("render", input)
		ok := checkEnvelope(t, input, env, 6*4*DefaultMaxResultChars+4096)
		if !ok.Exists() {
			return
		}
		limit := DefaultMaxResultChars
		if m := gjson.GetBytes(input, "maxResultChars"); m.Type == gjson.Number {
			limit = int(m.Int())
		}
		text := ok.Get("text").Str
		if n := utf8.RuneCountInString(text); n > limit {
			t.Fatalf("text has %d code points, maxResultChars %d", n, limit)
		}
		if text == "" {
			t.Fatalf("empty text: %s", env)
		}
		if ok.Get("shown").Int() < 0 || ok.Get("omitted").Int() < 0 {
			t.Fatalf("negative counts: %s", env)
		}
		if strings.Contains(text, "\ufffd") && !bytes.Contains(input, []byte("\ufffd")) && utf8.Valid(input) && !bytes.Contains(input, []byte(`\u`)) {
			t.Fatalf("text gained a replacement character: %s", env)
		}
	})
}

func FuzzValidateConfig(f *testing.F) {
	seed(f, "validateConfig")
	f.Fuzz(func(t *testing.T, input []byte) {
		env := Call("validateConfig", input)
		// A server the table knows gets its defaults (a few hundred
		// bytes), and presets: true adds the whole built-in table.
		bound := 32*len(input) + 4096
		if gjson.GetBytes(input, "presets").Type == gjson.True {
			bound += len(Call("validateConfig", []byte(`{"presets":true}`)))
		}
		ok := checkEnvelope(t, input, env, bound)
		if !ok.Exists() {
			if !bytes.Contains(env, []byte(`"LSP_CONFIG_INVALID"`)) && !bytes.Contains(env, []byte(`"LSP_INVALID_ARGUMENT"`)) {
				t.Fatalf("config error with an unexpected code: %s", env)
			}
			return
		}
		// Normalization is idempotent: a validated config validates to itself.
		again := Call("validateConfig", []byte(ok.Raw))
		if want := append(append([]byte(`{"ok":`), ok.Raw...), '}'); !bytes.Equal(again, want) {
			t.Fatalf("validating the normalized config changed it:\nfirst:  %s\nsecond: %s", want, again)
		}
	})
}

// FuzzGlobMatch compiles server-supplied glob patterns: compiling never
// panics, and whenever a pattern compiles, Match agrees with the
// independent regular-expression reference in glob_test.go (for inputs up
// to 1 KiB; longer ones are only compiled and matched).
func FuzzGlobMatch(f *testing.F) {
	for _, c := range globCases {
		for _, p := range append(append([]string{}, c.yes...), c.no...) {
			f.Add(c.pattern, p)
		}
	}
	f.Fuzz(func(t *testing.T, pattern, path string) {
		g, err := CompileGlob(pattern)
		if err != nil {
			if err.Code != CodeInvalidArgument || err.Message == "" {
				t.Fatalf("CompileGlob(%q) error %v", pattern, err)
			}
			return
		}
		got := g.Match(path)
		if len(pattern)+len(path) > 1024 {
			return // the reference's regexp compile would dominate (and stall minimization)
		}
		if want := referenceGlob(t, pattern).MatchString("/" + path); got != want {
			t.Fatalf("CompileGlob(%q).Match(%q) = %v, reference says %v", pattern, path, got, want)
		}
	})
}

// FuzzFileChanges checks the watched-file notifications for arbitrary host
// input: every sent event is counted in matched, no batch is larger than
// maxBatch or empty, and matched plus ignored never exceeds the changes.
func FuzzFileChanges(f *testing.F) {
	seed(f, "fileChanges")
	// A Windows host's paths (FileChangesInput.Windows).
	f.Add([]byte(`{"changes":[{"path":"/C:/w/a.go","first":"changed","last":"changed"},{"path":"/C:","first":"created","last":"created"}],"registrations":[{"id":"1","watchers":[{"pattern":"**/*.go","baseUri":"file:///c%3A/w","kind":7}]}],"extensions":[".go"],"root":"/C:/w","openDocuments":[],"windows":true}`))
	f.Fuzz(func(t *testing.T, input []byte) {
		env := Call("fileChanges", input)
		ok := checkEnvelope(t, input, env, 8*len(input)+4096)
		if !ok.Exists() {
			return
		}
		maxBatch := int64(DefaultMaxBatch)
		if m := gjson.GetBytes(input, "maxBatch"); m.Type == gjson.Number {
			maxBatch = m.Int()
		}
		sent := int64(0)
		for _, b := range ok.Get("batches").Array() {
			n := int64(len(b.Get("changes").Array()))
			if n == 0 || n > maxBatch {
				t.Fatalf("a batch of %d changes (maxBatch %d): %s", n, maxBatch, env)
			}
			for _, e := range b.Get("changes").Array() {
				if typ := e.Get("type").Int(); typ < FileCreated || typ > FileDeleted || !strings.HasPrefix(e.Get("uri").Str, "file:///") {
					t.Fatalf("bad event %s", e.Raw)
				}
			}
			sent += n
		}
		changes := int64(len(gjson.GetBytes(input, "changes").Array()))
		if matched := ok.Get("matched").Int(); matched != sent || matched+ok.Get("ignored").Int() > changes {
			t.Fatalf("counts disagree with %d changes and %d sent: %s", changes, sent, env)
		}
	})
}

// FuzzFileWatchers reads arbitrary registerCapability and
// unregisterCapability requests from servers: the answer is always an
// update, and every watcher it keeps compiles.
func FuzzFileWatchers(f *testing.F) {
	seed(f, "fileWatchers")
	f.Fuzz(func(t *testing.T, input []byte) {
		env := Call("fileWatchers", input)
		ok := checkEnvelope(t, input, env, 4*len(input)+4096)
		if !ok.Exists() {
			return
		}
		for _, r := range ok.Get("register").Array() {
			for _, w := range r.Get("watchers").Array() {
				if _, err := CompileGlob(w.Get("pattern").Str); err != nil {
					t.Fatalf("kept a watcher whose pattern does not compile: %s", w.Raw)
				}
				if k := w.Get("kind").Int(); k < 1 || k > WatchAll {
					t.Fatalf("kept a watcher with kind %d", k)
				}
			}
		}
	})
}

// FuzzResolveTarget resolves arbitrary targets in arbitrary files with
// arbitrary documentSymbol answers (seeded with the resolveTarget
// golden cases): it never panics, failures carry a documented code, and a
// resolved target lies inside the file (its line exists, its column is at
// most one past the line's last UTF-16 unit), names the identifier the
// text has there, converts one-based ↔ zero-based, and for matchText sits
// on the text; a symbol target's symbol ends with the name asked for.
func FuzzResolveTarget(f *testing.F) {
	cases, err := casefile.Load(casefile.Dir(".."))
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range cases {
		if c.Method != "resolveTarget" {
			continue
		}
		in := gjson.ParseBytes(c.Bytes())
		tg := in.Get("target")
		f.Add(in.Get("text").Str, in.Get("symbols").Raw, tg.Get("symbol").Str, tg.Get("kind").Str, tg.Get("line").Int(), tg.Get("column").Int(), tg.Get("matchText").Str, in.Get("firstMatch").Bool())
	}
	f.Fuzz(func(t *testing.T, text, symbolsJSON, symbol, kind string, line, column int64, matchText string, firstMatch bool) {
		file := TargetFile{Text: text, NoSymbols: symbolsJSON == ""}
		if !file.NoSymbols {
			if !gjson.Valid(symbolsJSON) {
				return
			}
			var serr *Error
			if file.Symbols, serr = FlattenSymbols(gjson.Parse(symbolsJSON), text); serr != nil {
				if serr.Code != CodeMalformedResponse || serr.Message == "" {
					t.Fatalf("FlattenSymbols error %v", serr)
				}
				return
			}
		}
		lines := SplitLines(text)
		for _, s := range file.Symbols {
			if int(s.Selection.Start.Line) >= len(lines) || int(s.Selection.Start.Character) > utf16Len(lines[s.Selection.Start.Line]) {
				t.Fatalf("symbol %+v not in the text %q", s, text)
			}
		}
		tg := Target{Path: "a.go", Symbol: symbol, Kind: kind, Line: line, Column: column, MatchText: matchText}
		r, cands, rerr := ResolveTarget(tg, firstMatch, file)
		if rerr != nil {
			if !documentedCodes[string(rerr.Code)] || rerr.Message == "" || rerr.Code == CodeInternal {
				t.Fatalf("error %v", rerr)
			}
			if len(cands) > maxCandidates || (cands != nil && rerr.Code != CodeAmbiguousTarget && rerr.Code != CodeTargetNotFound) {
				t.Fatalf("%d candidates with %v", len(cands), rerr)
			}
			if rerr.Code == CodeAmbiguousTarget && (firstMatch || len(cands) < 2) {
				t.Fatalf("ambiguous with firstMatch %v and %d candidates", firstMatch, len(cands))
			}
			return
		}
		if int(r.Position.Line) >= len(lines) {
			t.Fatalf("resolved line %d of a %d-line file", r.Line(), len(lines))
		}
		l := lines[r.Position.Line]
		if int(r.Position.Character) > utf16Len(l) {
			t.Fatalf("resolved column %d past line %q", r.Column(), l)
		}
		if id, _ := identifierAt(l, int(r.Position.Character)); id != r.Identifier {
			t.Fatalf("identifier %q, the text has %q at %d:%d", r.Identifier, id, r.Line(), r.Column())
		}
		if r.Line() != uint64(r.Position.Line)+1 || r.Column() != uint64(r.Position.Character)+1 {
			t.Fatalf("one-based %d:%d for zero-based %+v", r.Line(), r.Column(), r.Position)
		}
		switch r.By {
		case BySymbol:
			segs := strings.Split(strings.ReplaceAll(strings.TrimSpace(symbol), "::", "."), ".")
			if !strings.HasSuffix(r.Symbol, segs[len(segs)-1]) {
				t.Fatalf("symbol %q resolved to %q", symbol, r.Symbol)
			}
		case ByMatchText:
			if !strings.HasPrefix(l[byteOffsetOfColumn(l, int(r.Position.Character)):], matchText) || int64(r.Line()) != line {
				t.Fatalf("matchText %q not at %d:%d of %q", matchText, r.Line(), r.Column(), l)
			}
		case ByColumn:
			if int64(r.Line()) != line || int64(r.Column()) != column {
				t.Fatalf("line+column %d:%d resolved to %d:%d", line, column, r.Line(), r.Column())
			}
		case ByLine:
			if int64(r.Line()) != line || strings.TrimSpace(l) == "" {
				t.Fatalf("line %d resolved to %d:%d", line, r.Line(), r.Column())
			}
		default:
			t.Fatalf("resolved by %q", r.By)
		}
	})
}

// FuzzCodeLocations plans, reads (from the input's files), builds and
// renders arbitrary locations (seeded with the planSnippets and
// codeLocations golden cases): no panic, documented codes, every planned
// read inside the workspace with merged spans of at most a body's length
// each, at most limit locations, and the text within maxResultChars.
func FuzzCodeLocations(f *testing.F) {
	cases, err := casefile.Load(casefile.Dir(".."))
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range cases {
		if c.Method == "planSnippets" || c.Method == "codeLocations" {
			f.Add(c.Bytes())
		}
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		ws := gjson.GetBytes(input, "workspaceUri").Str
		wsPath, _ := FileURIPath(ws)
		limit := int(gjson.GetBytes(input, "limit").Int())
		if limit == 0 {
			limit = DefaultLocationLimit
		}
		plan := checkEnvelope(t, input, Call("planSnippets", input), 64*len(input)+4096)
		if plan.Exists() {
			if n := len(plan.Get("locations").Array()); n > limit || n > int(plan.Get("totalFound").Int()) {
				t.Fatalf("%d locations kept, limit %d: %s", n, limit, plan.Raw)
			}
			for _, fr := range plan.Get("files").Array() {
				p := fr.Get("path").Str
				if !strings.HasPrefix(p, wsPath+"/") && wsPath != "/" || p == wsPath {
					t.Fatalf("planned a read outside the workspace %s: %s", wsPath, fr.Raw)
				}
				prev := int64(-2)
				for _, s := range fr.Get("spans").Array() {
					start, end := s.Get("start").Int(), s.Get("end").Int()
					if start <= prev+1 || end < start || end-start >= MaxBodyLines+2*MaxSnippetContext {
						t.Fatalf("spans not merged, ordered and bounded: %s", fr.Raw)
					}
					prev = end
				}
			}
		}
		ok := checkEnvelope(t, input, Call("codeLocations", input), 1<<20)
		if !ok.Exists() {
			return
		}
		budget := DefaultMaxResultChars
		if m := gjson.GetBytes(input, "maxResultChars").Int(); m > 0 && m <= maxUint31 {
			budget = int(m)
		}
		if n := utf8.RuneCountInString(ok.Get("rendered.text").Str); n > budget {
			t.Fatalf("text of %d code points, budget %d", n, budget)
		}
	})
}
