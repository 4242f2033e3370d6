package main

import (
	"strings"
	"testing"
	"time"

	"github.com/lspseam/lspseam/bindings/go/localstdio"
	"github.com/lspseam/lspseam/core"
)

// `lspseam mcp --workspace DIR` starts the server of the workspace's main
// language before any call (the fake server is initialized with no tool
// called), and the first call then finds it started: one server, one
// initialize, and the call answered by it.
func TestMCPStartsTheMainServerAhead(t *testing.T) {
	f := newMCPFixture(t)
	cs, _, stderr := f.connectMCPIn(t, t.TempDir(), nil, "--config", f.config, "--workspace", f.workspace, "--log-level", "info")
	defer cs.Close()
	initialized := func() int {
		n := 0
		for _, e := range f.fakeEvents(t) {
			if e.Method == "initialize" && e.Kind == "request" {
				n++
			}
		}
		return n
	}
	for deadline := testDeadline(t); initialized() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no language server was started before the first call:\n%s", stderr.String())
		}
	}
	if !stderr.waitFor(t, "started the main language's server ahead of the first call", "language=Go", "file=a.go") {
		t.Errorf("no log line of the start:\n%s", stderr.String())
	}
	res, err := callLSP(t, testContext(t), cs, map[string]any{"operation": "goToDefinition", "file_path": "a.go", "line": 5, "character": 15}, nil)
	if err != nil || res.IsError || !strings.Contains(resultText(res), "a.go:5:15") {
		t.Fatalf("the first call: %v %s", err, resultText(res))
	}
	if n := initialized(); n != 1 {
		t.Errorf("%d initialize requests; want the one server started ahead, reused by the call", n)
	}
}

func TestMainLanguage(t *testing.T) {
	served := func(name, example string) localstdio.LanguageServing {
		return localstdio.LanguageServing{LanguageFiles: localstdio.LanguageFiles{Name: name, Example: example}, State: localstdio.ServingFound}
	}
	missing := served("Python", "a.py")
	missing.State = localstdio.ServingMissing
	tests := []struct {
		name      string
		languages []localstdio.LanguageServing
		want      string // "" for none
	}{
		{"the language with the most files", []localstdio.LanguageServing{served("Go", "a.go"), served("YAML", "a.yaml")}, "Go"},
		{"its server is not installed: none, not the next", []localstdio.LanguageServing{missing, served("Go", "a.go")}, ""},
		{"no file to route by", []localstdio.LanguageServing{served("Go", "")}, ""},
		{"no language", nil, ""},
	}
	for _, tt := range tests {
		got, ok := mainLanguage(tt.languages)
		if (tt.want == "") == ok || (ok && got.Name != tt.want) {
			t.Errorf("%s: mainLanguage = %q, %v; want %q", tt.name, got.Name, ok, tt.want)
		}
	}
	for _, tt := range []struct {
		toolsets []string
		want     bool
	}{
		{[]string{core.ToolsetFS}, false},
		{[]string{core.ToolsetFS, core.ToolsetLSP}, true},
		{[]string{core.ToolsetCode}, true},
	} {
		if got := offersLanguageTools(tt.toolsets); got != tt.want {
			t.Errorf("offersLanguageTools(%v) = %v", tt.toolsets, got)
		}
	}
}
