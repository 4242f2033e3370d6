package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lspseam/lspseam/core"
	"github.com/lspseam/lspseam/internal/testenv"
)

// Every language lspseam tests, end to end, with the real servers `make
// servers` installs: one rows file per (language, server) in
// testdata/workspaces/languages/, each with one case per operation of the
// capability matrix (languageOperations) and the fresh steps that edit its
// workspace (README.md there). Each file's first case runs cold, through
// `lspseam call` in a fresh process; then every case and the fresh steps
// run through one warm `lspseam serve`. The shim runs on its presets (the
// servers found on PATH, which starts with .tools/bin); a rows file naming
// a server that is not a preset, or another binary of one, adds it with a
// config of `presets: true`.
//
// The documented capability matrix (docs/languages.md) is generated from
// these files by TestLanguageMatrix: a cell says "pass" only for a case
// this test runs and checks.

// languageOperations are the operations of the capability matrix, in its
// column order.
var languageOperations = []string{"definition", "references", "implementation", "hover", "symbols", "diagnostics", "rename", "format"}

// languageRows is one file of testdata/workspaces/languages/.
type languageRows struct {
	file      string
	Language  string `json:"language"`
	Server    string `json:"server"`
	Workspace string `json:"workspace"`
	// Command, when set, is a path under the repository's .tools to run
	// instead of the server found on PATH.
	Command string         `json:"command"`
	Note    string         `json:"note"`
	Cases   []languageCase `json:"cases"`
	Fresh   []languageCase `json:"fresh"`
}

// languageCase is a catalog case with the operation it stands for in the
// matrix, or a fresh step: a file written or removed before the call.
type languageCase struct {
	catalogCase
	Operation string `json:"operation"`
	Write     *struct {
		Path string `json:"path"`
		Text string `json:"text"`
	} `json:"write"`
	Remove string `json:"remove"`
	Note   string `json:"note"`
	// Incomplete, when set, is text the answer's incomplete notice must
	// hold: the server searches less than the workspace by design
	// (vscode-css-language-server: one stylesheet), which the answer says.
	// Unset, the answer must not be marked incomplete.
	Incomplete string `json:"incomplete"`
}

// checkIncomplete checks an answer's incomplete notice (why) against the
// case's Incomplete.
func checkIncomplete(t *testing.T, c languageCase, why, when string) {
	t.Helper()
	switch {
	case c.Incomplete == "" && why != "":
		t.Errorf("%s: marked incomplete %s: %s", c.ID, when, why)
	case c.Incomplete != "" && !strings.Contains(why, c.Incomplete):
		t.Errorf("%s: %s, the incomplete notice %q does not hold %q", c.ID, when, why, c.Incomplete)
	}
}

func loadLanguageRows(t testing.TB) []languageRows {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(repoRoot, "testdata/workspaces/languages/*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no rows files in testdata/workspaces/languages (%v)", err)
	}
	var all []languageRows
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var r languageRows
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		r.file = filepath.Base(p)
		checkLanguageRows(t, r)
		all = append(all, r)
	}
	return all
}

// checkLanguageRows refuses a rows file the matrix could not be read from:
// a server or language the table does not have, or not exactly one case
// per operation.
func checkLanguageRows(t testing.TB, r languageRows) {
	t.Helper()
	entry, ok := tableEntry(r.Server)
	if !ok {
		t.Fatalf("%s: server %q is not in core/servers.json", r.file, r.Server)
	}
	if !slices.Contains(entry.LanguageNames(), r.Language) {
		t.Fatalf("%s: %s does not serve %q (it serves %v)", r.file, r.Server, r.Language, entry.LanguageNames())
	}
	seen := map[string]bool{}
	for _, c := range r.Cases {
		if !slices.Contains(languageOperations, c.Operation) || seen[c.Operation] || c.ID == "" || c.Expect == nil {
			t.Fatalf("%s: case %q: operation %q unknown or twice, or no id or expect", r.file, c.ID, c.Operation)
		}
		seen[c.Operation] = true
	}
	if len(seen) != len(languageOperations) {
		t.Fatalf("%s: %d of the %d operations have a case", r.file, len(seen), len(languageOperations))
	}
	for _, c := range r.Fresh {
		if (c.Write == nil) == (c.Remove == "") || c.ID == "" || c.Expect == nil {
			t.Fatalf("%s: fresh step %q needs one of write or remove, an id and expect", r.file, c.ID)
		}
	}
}

func tableEntry(id string) (core.ServerEntry, bool) {
	for _, e := range core.Servers().Servers {
		if e.ID == id {
			return e, true
		}
	}
	return core.ServerEntry{}, false
}

// languageSetup is how the shim is run for a rows file: its arguments
// (a config when the presets alone do not run the server) and its
// environment.
func languageSetup(t testing.TB, r languageRows) (args []string) {
	t.Helper()
	entry, _ := tableEntry(r.Server)
	command := filepath.Join(toolsBin, entry.Command)
	if r.Command != "" {
		command = filepath.Join(repoRoot, ".tools", r.Command)
	}
	testenv.RequireE2E(t)
	if _, err := os.Stat(command); err != nil {
		t.Fatalf("language server %s (%s) is not installed: run `make servers` (%v)", r.Server, command, err)
	}
	if entry.Preset && r.Command == "" {
		return nil
	}
	server := map[string]any{"command": command, "extensionToLanguage": entry.ExtensionToLanguage()}
	if names := entry.FileNameToLanguage(); len(names) > 0 {
		server["fileNameToLanguage"] = names
	}
	cfg, _ := json.Marshal(map[string]any{"presets": true, "servers": map[string]any{r.Server: server}})
	path := filepath.Join(t.TempDir(), "lspseam.json")
	if err := os.WriteFile(path, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{"--config", path}
}

// TestLanguages runs every rows file: cold, warm and fresh.
func TestLanguages(t *testing.T) {
	testenv.RequireE2E(t)
	rows := loadLanguageRows(t)
	// A few languages at a time: each starts a server (some of them Node
	// or Python programs that take seconds to load) on a loaded machine.
	slots := make(chan struct{}, 3)
	for _, r := range rows {
		t.Run(strings.TrimSuffix(r.file, ".json"), func(t *testing.T) {
			t.Parallel()
			slots <- struct{}{}
			defer func() { <-slots }()
			runLanguage(t, r)
		})
	}
}

func runLanguage(t *testing.T, r languageRows) {
	args := languageSetup(t, r)
	dir := copyFixture(t, r.Workspace)
	// A C or C++ workspace's compilation database names absolute paths,
	// so it is written for the copy: without it clangd has no background
	// index (testdata/workspaces/README.md, "C").
	if gen := filepath.Join(dir, "gen-compile-commands.sh"); func() bool { _, err := os.Stat(gen); return err == nil }() {
		if out, err := exec.Command("sh", gen).CombinedOutput(); err != nil {
			t.Fatalf("gen-compile-commands: %v\n%s", err, out)
		}
	}
	start := time.Now()
	first := r.Cases[0]
	cmd := exec.Command(shimPath, append(append([]string{"call", "--format", "json", "--workspace", dir}, args...), first.Tool, string(first.Arguments))...)
	cmd.Env = presetEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if code := exitCode(t, err); code > 1 {
		t.Fatalf("%s (cold): exit %d: %s", first.ID, code, stderr.String())
	}
	checkIncomplete(t, first, incomplete(out), "(cold)")
	for _, d := range checkCatalog(first.catalogCase, out) {
		t.Errorf("%s (cold, %s %s): %s", first.ID, first.Tool, first.Arguments, d)
	}
	cold := time.Since(start)

	start = time.Now()
	srv := languageServe(t, args)
	for _, c := range r.Cases {
		a := srv.toolCall(t, c.Tool, c.Arguments, dir)
		checkIncomplete(t, c, incomplete(a.StructuredContent), "on a warm server")
		checkLanguageAnswer(t, c, a)
	}
	warm := time.Since(start)
	start = time.Now()
	for _, c := range r.Fresh {
		if c.Write != nil {
			write := filepath.Join(dir, filepath.FromSlash(c.Write.Path))
			if err := os.MkdirAll(filepath.Dir(write), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(write, []byte(c.Write.Text), 0o644); err != nil {
				t.Fatal(err)
			}
		} else if err := os.Remove(filepath.Join(dir, filepath.FromSlash(c.Remove))); err != nil {
			t.Fatal(err)
		}
		a := srv.toolCall(t, c.Tool, c.Arguments, dir)
		checkIncomplete(t, c, incomplete(a.StructuredContent), "after another tool changed the workspace")
		checkLanguageAnswer(t, c, a)
	}
	srv.shutdown(t)
	t.Logf("%s with %s: cold %v, warm %d cases %v, fresh %d steps %v", r.Language, r.Server,
		cold.Round(time.Millisecond), len(r.Cases), warm.Round(time.Millisecond), len(r.Fresh), time.Since(start).Round(time.Millisecond))
}

func checkLanguageAnswer(t *testing.T, c languageCase, a toolCallAnswer) {
	t.Helper()
	if len(a.Content) != 1 || a.Content[0].Type != "text" || a.Content[0].Text == "" {
		t.Errorf("%s: content %+v, want one text", c.ID, a.Content)
	}
	if wantErr := c.Expect["error"] != nil; a.IsError != wantErr {
		t.Errorf("%s: isError %v, want %v: %s", c.ID, a.IsError, wantErr, a.StructuredContent)
	}
	for _, d := range checkCatalog(c.catalogCase, a.StructuredContent) {
		t.Errorf("%s (%s %s): %s", c.ID, c.Tool, c.Arguments, d)
	}
}

// languageServe starts `lspseam serve` on the presets (plus args).
func languageServe(t testing.TB, args []string) *serveClient {
	t.Helper()
	cmd := exec.Command(shimPath, append([]string{"serve"}, args...)...)
	cmd.Env = presetEnv()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = &lockedWriter{w: os.Stderr}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &serveClient{cmd: cmd, stdin: stdin, wait: map[int]chan serveResponse{}, done: make(chan struct{})}
	go c.read(stdout)
	t.Cleanup(c.kill)
	return c
}

// lockedWriter serializes the logs of servers running at once.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
