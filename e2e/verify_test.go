package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Issue 12's verify loop against the real servers, with the expectations
// of testdata/workspaces/verify.json: per language, on a copy of the
// fixture, one `lspseam serve` session (tools/call, the presets: they turn
// on gopls's pull diagnostics) reads a file, makes an edit that breaks the
// build, is told exactly what broke (and only that), fixes it and is told
// it is resolved; code_diagnostics reports a change made outside the
// session, fresh; and the observation policy holds against the real shim
// (FS_NOT_OBSERVED for a file never read, FS_STALE after an outside change,
// the file untouched either way).

// verifyProblem is one problem of the structured answers (the
// diagnostics' problem shape), as verify.json records it.
type verifyProblem struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	Severity  string `json:"severity"`
	Code      string `json:"code"`
	Source    string `json:"source"`
	Message   string `json:"message"`
}

func (p verifyProblem) String() string {
	return fmt.Sprintf("%s:%d:%d-%d:%d %s %s %s: %q", p.Path, p.Line, p.Column, p.EndLine, p.EndColumn, p.Severity, p.Code, p.Source, p.Message)
}

type verifyEdit struct {
	OldString string `json:"old_string"`
	NewString string `json:"new_string"`
}

// verifyLang is one language of verify.json.
type verifyLang struct {
	Workspace string        `json:"workspace"`
	How       string        `json:"how"`
	File      string        `json:"file"`
	Break     verifyEdit    `json:"break"`
	Problem   verifyProblem `json:"problem"`
	// Neutral is an edit that changes no diagnostic (a comment);
	// NeutralFresh whether the delta after it (and after its reversal)
	// is fresh.
	Neutral      verifyEdit `json:"neutral"`
	NeutralFresh bool       `json:"neutralFresh"`
	External     struct {
		File      string        `json:"file"`
		OldString string        `json:"old_string"`
		NewString string        `json:"new_string"`
		Problem   verifyProblem `json:"problem"`
	} `json:"external"`
}

func loadVerify(t testing.TB) []verifyLang {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "testdata/workspaces/verify.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Languages []verifyLang `json:"languages"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range doc.Languages {
		names = append(names, l.Workspace)
	}
	if strings.Join(names, ",") != "go,ts,py,c" {
		t.Fatalf("verify.json covers %v, want go, ts, py and c", names)
	}
	return doc.Languages
}

// editArgs are an edit's arguments; reversed, the edit undone.
func editArgs(file string, e verifyEdit, reversed bool) json.RawMessage {
	old, repl := e.OldString, e.NewString
	if reversed {
		old, repl = repl, old
	}
	b, _ := json.Marshal(map[string]any{"file_path": file, "old_string": old, "new_string": repl})
	return b
}

func jsonArgs(v map[string]any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// deltaFile is one file of an edit's diagnostics delta.
type deltaFile struct {
	Path            string          `json:"path"`
	How             string          `json:"how"`
	Fresh           bool            `json:"fresh"`
	Introduced      []verifyProblem `json:"introduced"`
	Resolved        []verifyProblem `json:"resolved"`
	Persisting      int             `json:"persisting"`
	IntroducedTotal int             `json:"introducedTotal"`
	ResolvedTotal   int             `json:"resolvedTotal"`
}

// editResult is the structured answer of write and edit.
type editResult struct {
	OK    bool   `json:"ok"`
	Tool  string `json:"tool"`
	Path  string `json:"path"`
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	DiagnosticsError string `json:"diagnosticsError"`
	Diagnostics      *struct {
		Files  []deltaFile `json:"files"`
		Counts struct {
			Introduced       int `json:"introduced"`
			Resolved         int `json:"resolved"`
			Persisting       int `json:"persisting"`
			IntroducedErrors int `json:"introducedErrors"`
		} `json:"counts"`
		Truncated bool     `json:"truncated"`
		Uncovered []string `json:"uncovered"`
		Stale     []string `json:"stale"`
		Rendered  struct {
			Text string `json:"text"`
		} `json:"rendered"`
	} `json:"diagnostics"`
}

// diagnosticsResult is code_diagnostics's structured answer.
type diagnosticsResult struct {
	OK         bool            `json:"ok"`
	Status     string          `json:"status"`
	Problems   []verifyProblem `json:"problems"`
	TotalFound int             `json:"totalFound"`
	Coverage   []struct {
		Path  string `json:"path"`
		How   string `json:"how"`
		Fresh bool   `json:"fresh"`
	} `json:"coverage"`
	Incomplete string `json:"incomplete"`
}

// checkDelta checks an edit's answer: the edit succeeded and its delta
// lists exactly introduced and resolved (as sets of one or none here),
// fresh, from the language's server.
func checkDelta(t *testing.T, what string, l verifyLang, file string, a toolCallAnswer, introduced, resolved []verifyProblem) {
	t.Helper()
	checkDeltaFresh(t, what, l, file, a, introduced, resolved, true)
}

// checkDeltaFresh is checkDelta with the freshness expected: a delta that
// is not fresh names the file as stale.
func checkDeltaFresh(t *testing.T, what string, l verifyLang, file string, a toolCallAnswer, introduced, resolved []verifyProblem, fresh bool) {
	t.Helper()
	var r editResult
	if err := json.Unmarshal(a.StructuredContent, &r); err != nil {
		t.Fatalf("%s: %v: %s", what, err, a.StructuredContent)
	}
	if a.IsError || !r.OK || r.Tool != "edit" || r.Path != file {
		t.Fatalf("%s: isError %v: %s", what, a.IsError, a.StructuredContent)
	}
	if r.Diagnostics == nil {
		t.Fatalf("%s: no diagnostics delta (diagnosticsError %q): %s", what, r.DiagnosticsError, a.StructuredContent)
	}
	d := r.Diagnostics
	if len(d.Files) != 1 {
		t.Fatalf("%s: delta of %d files, want 1: %s", what, len(d.Files), a.StructuredContent)
	}
	f := d.Files[0]
	wantStale := []string{}
	if !fresh {
		wantStale = []string{file}
	}
	if d.Stale == nil {
		d.Stale = []string{}
	}
	if f.Path != file || f.How != l.How || f.Fresh != fresh || !reflect.DeepEqual(d.Stale, wantStale) || len(d.Uncovered) != 0 || d.Truncated {
		t.Errorf("%s: delta file %s how %s fresh %v, stale %v, uncovered %v, truncated %v; want %s how %s fresh %v", what, f.Path, f.How, f.Fresh, d.Stale, d.Uncovered, d.Truncated, file, l.How, fresh)
	}
	if f.Introduced == nil {
		f.Introduced = []verifyProblem{}
	}
	if f.Resolved == nil {
		f.Resolved = []verifyProblem{}
	}
	if !reflect.DeepEqual(f.Introduced, introduced) {
		t.Errorf("%s: introduced\n  got  %v\n  want %v", what, f.Introduced, introduced)
	}
	if !reflect.DeepEqual(f.Resolved, resolved) {
		t.Errorf("%s: resolved\n  got  %v\n  want %v", what, f.Resolved, resolved)
	}
	errs := 0
	for _, p := range introduced {
		if p.Severity == "error" {
			errs++
		}
	}
	if f.IntroducedTotal != len(introduced) || f.ResolvedTotal != len(resolved) || f.Persisting != 0 ||
		d.Counts.Introduced != len(introduced) || d.Counts.Resolved != len(resolved) || d.Counts.Persisting != 0 || d.Counts.IntroducedErrors != errs {
		t.Errorf("%s: totals %d/%d/%d, counts %+v; want %d introduced (%d errors), %d resolved, 0 persisting", what,
			f.IntroducedTotal, f.ResolvedTotal, f.Persisting, d.Counts, len(introduced), errs, len(resolved))
	}
	// The model reads the text: each problem with its one-based position.
	text := a.Content[0].Text
	for _, p := range append(append([]verifyProblem{}, introduced...), resolved...) {
		at := fmt.Sprintf("%s:%d:%d %s", p.Path, p.Line, p.Column, p.Severity)
		if !strings.Contains(text, at) {
			t.Errorf("%s: the text does not name %q:\n%s", what, at, text)
		}
	}
	if want := fmt.Sprintf("%d resolved, 0 persisting", len(resolved)); !strings.Contains(text, want) {
		t.Errorf("%s: the text lacks %q:\n%s", what, want, text)
	}
}

// checkFSError checks a refused write or edit: the error code, and the
// file as it was.
func checkFSError(t *testing.T, what string, a toolCallAnswer, code, path string, want []byte) {
	t.Helper()
	var r editResult
	json.Unmarshal(a.StructuredContent, &r)
	if !a.IsError || r.OK || r.Error.Code != code || !strings.HasPrefix(a.Content[0].Text, code+": ") {
		t.Errorf("%s: want %s, got isError %v: %s", what, code, a.IsError, a.StructuredContent)
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != string(want) {
		t.Errorf("%s: the file changed (%v):\n%s", what, err, got)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// replaceOnce applies an edit as the test's own outside change (or to
// compute what the file must hold after the tool's edit).
func replaceOnce(t *testing.T, text []byte, old, repl string) []byte {
	t.Helper()
	if strings.Count(string(text), old) != 1 {
		t.Fatalf("%q occurs %d times, want once", old, strings.Count(string(text), old))
	}
	return []byte(strings.Replace(string(text), old, repl, 1))
}

// codeDiagnostics calls code_diagnostics; a first answer marked
// incomplete (a server still loading) is asked again once.
func codeDiagnostics(t *testing.T, srv *serveClient, path, dir string) (diagnosticsResult, toolCallAnswer) {
	t.Helper()
	args := jsonArgs(map[string]any{"path": path})
	a := srv.toolCall(t, "code_diagnostics", args, dir)
	var r diagnosticsResult
	json.Unmarshal(a.StructuredContent, &r)
	if r.Incomplete != "" {
		t.Logf("code_diagnostics %s: incomplete (%s); asking again", path, r.Incomplete)
		a = srv.toolCall(t, "code_diagnostics", args, dir)
		r = diagnosticsResult{}
		json.Unmarshal(a.StructuredContent, &r)
	}
	if a.IsError || !r.OK {
		t.Fatalf("code_diagnostics %s: %s", path, a.StructuredContent)
	}
	return r, a
}

// TestVerifyLoop: read → break → told exactly that → fix → told it is
// resolved, per language, then code_diagnostics after an outside change
// and the observation policy, in one serve session per language.
func TestVerifyLoop(t *testing.T) {
	requireServers(t, "gopls", "typescript-language-server", "pyright-langserver", "clangd")
	for _, l := range loadVerify(t) {
		t.Run(l.Workspace, func(t *testing.T) {
			t.Parallel()
			dir := copyFixture(t, l.Workspace)
			if l.Workspace == "c" {
				freshC.prepare(t, dir)
			}
			l.Problem.Message = strings.ReplaceAll(l.Problem.Message, "{WS}", dir)
			l.External.Problem.Message = strings.ReplaceAll(l.External.Problem.Message, "{WS}", dir)
			srv := catalogServe(t)
			file, ext := filepath.Join(dir, l.File), filepath.Join(dir, l.External.File)
			orig, extOrig := readFile(t, file), readFile(t, ext)

			// The observation policy: a file this session never read is
			// not updated, by write or by edit.
			a := srv.toolCall(t, "write", jsonArgs(map[string]any{"file_path": l.External.File, "content": "overwritten\n"}), dir)
			checkFSError(t, "write before any read", a, "FS_NOT_OBSERVED", ext, extOrig)
			a = srv.toolCall(t, "edit", editArgs(l.External.File, verifyEdit{l.External.OldString, l.External.NewString}, false), dir)
			checkFSError(t, "edit before any read", a, "FS_NOT_OBSERVED", ext, extOrig)

			// read → break → exactly that error introduced.
			a = srv.toolCall(t, "read", jsonArgs(map[string]any{"file_path": l.File}), dir)
			if a.IsError {
				t.Fatalf("read: %s", a.StructuredContent)
			}
			a = srv.toolCall(t, "edit", editArgs(l.File, l.Break, false), dir)
			t.Logf("break:\n%s", a.Content[0].Text)
			checkDelta(t, "break", l, l.File, a, []verifyProblem{l.Problem}, []verifyProblem{})
			if got, want := readFile(t, file), replaceOnce(t, orig, l.Break.OldString, l.Break.NewString); string(got) != string(want) {
				t.Errorf("after the break the file holds:\n%s", got)
			}
			// fix → that error resolved, nothing introduced.
			a = srv.toolCall(t, "edit", editArgs(l.File, l.Break, true), dir)
			t.Logf("fix:\n%s", a.Content[0].Text)
			checkDelta(t, "fix", l, l.File, a, []verifyProblem{}, []verifyProblem{l.Problem})
			if got := readFile(t, file); string(got) != string(orig) {
				t.Errorf("after the fix the file holds:\n%s", got)
			}
			// An edit that changes no diagnostic, and its reversal:
			// nothing introduced or resolved, fresh as verify.json's
			// neutralFresh says (typescript-language-server publishes
			// nothing when a file's diagnostics stay empty: fresh only
			// because its diagnostics are asked of tsserver).
			for _, back := range []bool{false, true} {
				a = srv.toolCall(t, "edit", editArgs(l.File, l.Neutral, back), dir)
				checkDeltaFresh(t, fmt.Sprintf("neutral edit (reversed: %v)", back), l, l.File, a, []verifyProblem{}, []verifyProblem{}, l.NeutralFresh)
			}

			// code_diagnostics after an outside change, on a file this
			// session read and the server already holds.
			a = srv.toolCall(t, "read", jsonArgs(map[string]any{"file_path": l.External.File, "offset": 1, "limit": 1}), dir)
			if a.IsError {
				t.Fatalf("read: %s", a.StructuredContent)
			}
			r, _ := codeDiagnostics(t, srv, l.External.File, dir)
			if r.Status != "fresh" || len(r.Problems) != 0 || r.TotalFound != 0 {
				t.Errorf("code_diagnostics of the untouched %s: status %s, %d problems: %v", l.External.File, r.Status, r.TotalFound, r.Problems)
			}
			broken := replaceOnce(t, extOrig, l.External.OldString, l.External.NewString)
			if err := os.WriteFile(ext, broken, 0o644); err != nil {
				t.Fatal(err)
			}
			r, a = codeDiagnostics(t, srv, l.External.File, dir)
			t.Logf("code_diagnostics after the outside change:\n%s", a.Content[0].Text)
			if r.Status != "fresh" || len(r.Coverage) != 1 || !r.Coverage[0].Fresh || r.Coverage[0].How != l.How {
				t.Errorf("code_diagnostics after the outside change: status %s, coverage %+v; want fresh by %s", r.Status, r.Coverage, l.How)
			}
			if !reflect.DeepEqual(r.Problems, []verifyProblem{l.External.Problem}) || r.TotalFound != 1 {
				t.Errorf("code_diagnostics after the outside change (%d found):\n  got  %v\n  want %v", r.TotalFound, r.Problems, l.External.Problem)
			}

			// The session read the file before the outside change: an
			// edit now is FS_STALE and leaves the file as it is.
			fix := editArgs(l.External.File, verifyEdit{l.External.OldString, l.External.NewString}, true)
			a = srv.toolCall(t, "edit", fix, dir)
			checkFSError(t, "edit after an outside change", a, "FS_STALE", ext, broken)
			a = srv.toolCall(t, "write", jsonArgs(map[string]any{"file_path": l.External.File, "content": string(extOrig)}), dir)
			checkFSError(t, "write after an outside change", a, "FS_STALE", ext, broken)
			// Read again: the fix goes through and resolves the error.
			a = srv.toolCall(t, "read", jsonArgs(map[string]any{"file_path": l.External.File}), dir)
			if a.IsError {
				t.Fatalf("read: %s", a.StructuredContent)
			}
			a = srv.toolCall(t, "edit", fix, dir)
			checkDelta(t, "fix after reading again", l, l.External.File, a, []verifyProblem{}, []verifyProblem{l.External.Problem})
			if got := readFile(t, ext); string(got) != string(extOrig) {
				t.Errorf("after the fix %s holds:\n%s", l.External.File, got)
			}
			srv.shutdown(t)
		})
	}
}
