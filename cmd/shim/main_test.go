package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"frobnicate"},
		{"query"},
		{"query", "hover"},
		{"query", "hover", "a.go"},
		{"query", "hover", "a.go:1"},
		{"query", "hover", "a.go:x:1"},
		{"query", "--format", "yaml", "hover", "a.go:1:1"},
		{"query", "--log-level", "loud", "hover", "a.go:1:1"},
		{"serve", "extra"},
		{"presets", "extra"},
	} {
		if code, _, stderr := runCLI(t, args...); code != exitUsage || stderr == "" {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr)
		}
	}
}

func TestVersionAndHelp(t *testing.T) {
	if code, out, _ := runCLI(t, "version"); code != 0 || !strings.HasPrefix(out, "lspseam ") {
		t.Errorf("version: %d %q", code, out)
	}
	if code, out, _ := runCLI(t, "help"); code != 0 || !strings.Contains(out, "FILE:LINE:CHARACTER") {
		t.Errorf("help: %d %q", code, out)
	}
}

func TestToolArgsFromCLI(t *testing.T) {
	got, err := toolArgsFromCLI("hover", "dir:with:colons/a.go:12:6")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(got, &m)
	if m["file_path"] != "dir:with:colons/a.go" || m["line"] != 12.0 || m["character"] != 6.0 || m["operation"] != "hover" {
		t.Errorf("%s", got)
	}
}

func TestQueryErrorsAreStructured(t *testing.T) {
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "a.unknownext"), []byte("x"), 0o644)
	cfg := filepath.Join(t.TempDir(), "cfg.yaml")
	os.WriteFile(cfg, []byte("servers:\n  sh:\n    command: /bin/sh\n    extensionToLanguage: {.sh: shellscript}\n"), 0o644)

	code, out, _ := runCLI(t, "query", "--config", cfg, "--workspace", ws, "--format", "json", "hover", "a.unknownext:1:1")
	if code != exitError || !strings.Contains(out, `"code":"LSP_UNAVAILABLE"`) {
		t.Errorf("unmapped extension: %d %s", code, out)
	}
	code, out, _ = runCLI(t, "query", "--config", cfg, "--workspace", ws, "--format", "json", "hover", "a.sh:0:1")
	if code != exitError || !strings.Contains(out, `"code":"LSP_INVALID_ARGUMENT"`) || !strings.Contains(out, "one-based") {
		t.Errorf("line 0: %d %s", code, out)
	}
	code, _, stderr := runCLI(t, "query", "--config", cfg, "--workspace", filepath.Join(ws, "a.unknownext"), "hover", "a.sh:1:1")
	if code != exitError || !strings.Contains(stderr, "LSP_WORKSPACE_INVALID") {
		t.Errorf("workspace is a file: %d %s", code, stderr)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("servers:\n  x:\n    comand: x\n"), 0o644)
	code, out, _ = runCLI(t, "query", "--config", bad, "--workspace", ws, "--format", "json", "hover", "a.sh:1:1")
	if code != exitError || !strings.Contains(out, `"code":"LSP_CONFIG_INVALID"`) || !strings.Contains(out, `did you mean \"command\"`) {
		t.Errorf("bad config: %d %s", code, out)
	}
	os.WriteFile(bad, []byte("servers: [unclosed"), 0o644)
	if code, out, _ = runCLI(t, "query", "--config", bad, "--workspace", ws, "--format", "json", "hover", "a.sh:1:1"); code != exitError || !strings.Contains(out, "not valid YAML") {
		t.Errorf("invalid yaml: %d %s", code, out)
	}
}

// TestServeBrokenFraming: a client whose framing breaks ends the session
// with a non-zero exit and the reason on stderr (a malformed body with
// intact framing is answered instead; see e2e).
func TestServeBrokenFraming(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "lspseam.json")
	if err := os.WriteFile(cfg, []byte(`{"servers":{"x":{"command":"/bin/true","extensionToLanguage":{".x":"x"}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, input := range []string{"GARBAGE\r\n\r\n", "Content-Length: 2\n\n{}", strings.Repeat("x", 100_000)} {
		var out, errb bytes.Buffer
		code := run([]string{"serve", "--config", cfg}, strings.NewReader(input), &out, &errb)
		if code != exitError || !strings.Contains(errb.String(), "broke the message framing") {
			t.Errorf("input %.20q: exit %d, stderr %q", input, code, errb.String())
		}
	}
	// A clean end of input is a normal exit.
	var out, errb bytes.Buffer
	if code := run([]string{"serve", "--config", cfg}, strings.NewReader(""), &out, &errb); code != exitOK {
		t.Errorf("clean EOF: exit %d, stderr %q", code, errb.String())
	}
}

// TestMCPMalformedLine: the MCP SDK ends a session on a line that is not
// JSON-RPC; lspseam mcp then exits non-zero with the reason at error level.
func TestMCPMalformedLine(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "lspseam.json")
	if err := os.WriteFile(cfg, []byte(`{"servers":{"x":{"command":"/bin/true","extensionToLanguage":{".x":"x"}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"mcp", "--config", cfg}, strings.NewReader("garbage\n"), &out, &errb); code != exitError || !strings.Contains(errb.String(), "level=ERROR") || !strings.Contains(errb.String(), "not JSON-RPC") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"mcp", "--config", cfg}, strings.NewReader(""), &out, &errb); code != exitOK {
		t.Errorf("clean EOF: exit %d, stderr %q", code, errb.String())
	}
}

// Every subcommand prints its usage to stdout and exits 0 on --help, -h
// and `help SUB`, with its arguments, every flag as --double-dash and an
// example.
func TestSubcommandHelp(t *testing.T) {
	flags := map[string][]string{
		"query":   {"--config FILE", "--workspace DIR", "--format text|json", "--timeout MS", "--log-level LEVEL"},
		"serve":   {"--config FILE", "--timeout MS", "--log-level LEVEL"},
		"mcp":     {"--config FILE", "--workspace DIR", "--timeout MS", "--log-level LEVEL"},
		"presets": nil,
		"version": nil,
	}
	for sub, want := range flags {
		for _, args := range [][]string{{sub, "--help"}, {sub, "-h"}, {"help", sub}} {
			code, out, stderr := runCLI(t, args...)
			if code != exitOK || stderr != "" || !strings.HasPrefix(out, "usage: lspseam "+sub) || !strings.Contains(out, "\nexample:\n  lspseam "+sub) {
				t.Errorf("%q: exit %d, stderr %q, stdout:\n%s", args, code, stderr, out)
				continue
			}
			for _, f := range want {
				if !strings.Contains(out, "\n  "+f) {
					t.Errorf("%q: no %q in\n%s", args, f, out)
				}
			}
			if strings.Contains(out, " -config") || strings.Contains(out, " -timeout") {
				t.Errorf("%q: single-dash flag names in\n%s", args, out)
			}
		}
	}
	_, out, _ := runCLI(t, "query", "--help")
	for _, s := range []string{"OPERATION", "goToDefinition", "findReferences", "goToImplementation", "hover", "FILE:LINE:CHARACTER", "one-based", "UTF-16"} {
		if !strings.Contains(out, s) {
			t.Errorf("query --help lacks %q", s)
		}
	}
	// Help for a flag-less position: `query hover --help` is still help.
	if code, out, _ := runCLI(t, "query", "hover", "a.go:1:1", "--help"); code != exitOK || !strings.HasPrefix(out, "usage: lspseam query") {
		t.Errorf("query ARGS --help: %d %q", code, out)
	}
	if code, _, stderr := runCLI(t, "help", "frobnicate"); code != exitUsage || !strings.Contains(stderr, "unknown command") {
		t.Errorf("help frobnicate: %d %q", code, stderr)
	}
}

// TestMissingServerAnswersEveryTool: an optional server that is not
// installed answers the code tools, as it answers the lsp tool, with
// LSP_UNAVAILABLE saying what to install.
func TestMissingServerAnswersEveryTool(t *testing.T) {
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "a.go"), []byte("package a\n"), 0o644)
	cfg := filepath.Join(t.TempDir(), "cfg.yaml")
	os.WriteFile(cfg, []byte("servers:\n  gopls:\n    command: no-such-gopls-here\n    optional: true\n    extensionToLanguage: {.go: go}\n"), 0o644)
	for _, call := range [][]string{
		{"lsp", `{"operation":"hover","file_path":"a.go","line":1,"character":9}`},
		{"code_symbols", `{"path":"a.go"}`},
		{"code_diagnostics", `{"path":"a.go"}`},
	} {
		code, out, stderr := runCLI(t, "call", "--config", cfg, "--workspace", ws, call[0], call[1])
		// The answer is stderr's last line (a warning about the missing
		// server comes first).
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		answer := lines[len(lines)-1]
		if code != exitError || !strings.HasPrefix(answer, "LSP_UNAVAILABLE: ") || !strings.Contains(answer, "no-such-gopls-here was not found") {
			t.Errorf("%s on a missing server: exit %d, stdout %q, stderr %q", call[0], code, out, stderr)
		}
	}
}

// Flags work after the positional arguments, as people type them; an
// unknown flag is named with its --double-dash spelling.
func TestFlagsAfterArguments(t *testing.T) {
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "a.unknownext"), []byte("x"), 0o644)
	cfg := filepath.Join(t.TempDir(), "cfg.yaml")
	os.WriteFile(cfg, []byte("servers:\n  sh:\n    command: /bin/sh\n    extensionToLanguage: {.sh: shellscript}\n"), 0o644)

	code, out, stderr := runCLI(t, "query", "hover", "a.unknownext:1:1", "--config", cfg, "--workspace", ws, "--format", "json")
	if code != exitError || !strings.HasPrefix(out, `{"error":{"code":"LSP_UNAVAILABLE"`) {
		t.Errorf("flags after the arguments: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	code, out, _ = runCLI(t, "query", "--config", cfg, "hover", "--format=json", "a.unknownext:1:1", "--workspace", ws)
	if code != exitError || !strings.HasPrefix(out, `{"error":{"code":"LSP_UNAVAILABLE"`) {
		t.Errorf("flags between the arguments: exit %d, stdout %q", code, out)
	}
	// After --, everything is an argument: "--format" is then a third one.
	if code, _, stderr := runCLI(t, "query", "--config", cfg, "--", "hover", "a.sh:1:1", "--format"); code != exitUsage || !strings.Contains(stderr, "usage: lspseam query") {
		t.Errorf("flag after --: exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := runCLI(t, "query", "hover", "a.sh:1:1", "--bogus"); code != exitUsage || !strings.Contains(stderr, "unknown flag --bogus") || !strings.Contains(stderr, "lspseam query --help") {
		t.Errorf("unknown flag: exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := runCLI(t, "serve", "--config", cfg, "extra"); code != exitUsage || !strings.Contains(stderr, `unexpected argument "extra"`) {
		t.Errorf("serve extra: exit %d, stderr %q", code, stderr)
	}
}
