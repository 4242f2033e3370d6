package toolbox

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// commandSession is a server whose command creates a file empty on disk
// (as typescript-language-server's "Move to a new file" does) and then
// sends one workspace/applyEdit; while the command runs it reports on no
// file (silent: it waits for the edit's answer), and after it the files
// have the problems in after.
type commandSession struct {
	lspseam.Session
	r       *workspacefs.Root
	edit    json.RawMessage
	created string
	after   map[string]string // path → Diagnostic[] after the command
	running atomic.Bool
}

func (s *commandSession) Server() string                     { return "fake" }
func (s *commandSession) DocumentVersions() map[string]int64 { return nil }

func (s *commandSession) Check(ctx context.Context, paths []string, _ lspseam.DiagnosticsOptions) ([]lspseam.FileCheck, error) {
	if s.running.Load() {
		<-ctx.Done() // a server that answers nothing while its command waits
		return make([]lspseam.FileCheck, len(paths)), ctx.Err()
	}
	out := make([]lspseam.FileCheck, len(paths))
	for i, p := range paths {
		f, _ := s.r.Read(p)
		out[i].File = lspseam.SourceFile{Path: p, URI: workspacefs.FileURI(s.r.Abs(p)), Text: f.Text}
		items := s.after[p]
		if items == "" {
			items = "[]"
		}
		out[i].Report = lspseam.DiagnosticReport{URI: out[i].File.URI, Diagnostics: json.RawMessage(items), How: "pull", Fresh: true}
	}
	return out, nil
}

func (s *commandSession) ExecuteCommand(ctx context.Context, _ json.RawMessage, applyEdit func(context.Context, json.RawMessage) error) (json.RawMessage, error) {
	s.running.Store(true)
	defer s.running.Store(false)
	if err := os.WriteFile(s.r.Abs(s.created), nil, 0o644); err != nil {
		return nil, err
	}
	return json.RawMessage("null"), applyEdit(ctx, s.edit)
}

// A command's files: the one it created empty has nothing before it, so
// its problems are introduced; one whose report before the edit the
// server did not give (it answered nothing while its command ran) is not
// compared, said so in the heading, and its problems now are listed.
func TestRunCommandComparesWhatItCan(t *testing.T) {
	tb, ws := newFSToolbox(t)
	writeFile(t, filepath.Join(ws, "util.ts"), "export function esc(s: string) { return s; }\nexport const v = 1;\n")
	writeFile(t, filepath.Join(ws, "regexes.ts"), "import * as util from \"./util\";\nexport const r = util.esc(\".\");\n")
	r := openTestRoot(t, ws)
	uri := func(p string) string { return workspacefs.FileURI(r.Abs(p)) }
	whole := func(line int, text string) map[string]any {
		return map[string]any{"range": map[string]any{"start": map[string]any{"line": line, "character": 0}, "end": map[string]any{"line": line + 1, "character": 0}}, "newText": text}
	}
	edit, _ := json.Marshal(map[string]any{"changes": map[string]any{
		uri("util.ts"):    []any{whole(0, "")},
		uri("esc.ts"):     []any{map[string]any{"range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 0, "character": 0}}, "newText": "export function esc(s: string) { return t; }\n"}},
		uri("regexes.ts"): []any{whole(0, "import * as util from \"./util\";\nimport { esc } from \"./esc\";\n"), whole(1, "export const r = esc(\".\");\n")},
	}})
	diag := func(code int, msg string) string {
		b, _ := json.Marshal([]any{map[string]any{"range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 0, "character": 5}}, "severity": 1, "code": code, "source": "typescript", "message": msg}})
		return string(b)
	}
	s := &commandSession{r: r, edit: edit, created: "esc.ts", after: map[string]string{
		"regexes.ts": diag(6133, "'util' is declared but its value is never read."),
		"esc.ts":     diag(2304, "Cannot find name 't'."),
	}}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	ch := change{what: "apply \"Move to a new file\"", command: &serverCommand{name: "fake.move", params: json.RawMessage(`{"command":"fake.move"}`), fileRel: "util.ts"}}
	a, err := tb.runCommand(ctx, r, s, ch)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"1 error introduced, 0 resolved, 0 persisting in the 2 files compared; 1 file was not compared (below).",
		"Introduced:\n  esc.ts:1:1 error TS2304: Cannot find name 't'.",
		"Not checked: regexes.ts — its language server gave no report on it (before the edit: the server gave no report on it while its command waited for the edit to be applied)",
		"Problems the files not compared have now (1; whether the edit introduced them is unknown):\n  regexes.ts:1:1 error TS6133: 'util' is declared but its value is never read.",
	} {
		if !strings.Contains(a.text, want) {
			t.Errorf("the answer lacks %q:\n%s", want, a.text)
		}
	}
}
