package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lspseam/lspseam/internal/testenv"
)

// Finding servers without PATH, and saying which one is missing: the shim
// built by `make build` looks in the .tools/bin of its checkout; a missing
// server's files answer LSP_UNAVAILABLE naming it and how to install it;
// an optional server that is missing is skipped with one warning.

// isolatedEnv is an environment in which no language server is on PATH
// (only the Go toolchain gopls needs) and the user's data directory is
// empty, so a server is found only where a test puts it.
func isolatedEnv(t *testing.T) []string {
	t.Helper()
	home := t.TempDir()
	return []string{
		"PATH=" + filepath.Join(goroot, "bin"),
		"HOME=" + home,
		"XDG_DATA_HOME=" + filepath.Join(home, "share"),
		"LSPSEAM_CACHE_DIR=" + os.Getenv("LSPSEAM_CACHE_DIR"),
		"LSPSEAM_DAEMON=off", // the process's own stderr is what these tests read
	}
}

// runShim runs the shim in env and returns its exit status and output.
func runShim(t *testing.T, bin string, env []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	return exitCode(t, cmd.Run()), out.String(), errb.String()
}

// jsonError is the error of a `query --format json` answer.
func jsonError(t *testing.T, stdout string) (code, message string) {
	t.Helper()
	var answer struct {
		Error *struct{ Code, Message string } `json:"error"`
	}
	if err := json.Unmarshal([]byte(stdout), &answer); err != nil || answer.Error == nil {
		t.Fatalf("not a JSON error answer: %q (%v)", stdout, err)
	}
	return answer.Error.Code, answer.Error.Message
}

// After `make servers`, a shim built from the checkout finds gopls in its
// .tools/bin with nothing on PATH.
func TestServersFoundInCheckoutTools(t *testing.T) {
	requireServers(t, "gopls")
	bin := testenv.ShimWithToolsDir(t, toolsBin)
	code, stdout, stderr := runShim(t, bin, isolatedEnv(t), "query", "--workspace", workspaceDir("go"), "findReferences", "shape.go:15:6")
	if code != 0 || !strings.Contains(stdout, "shape.go:15:6") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
}

// A server that is nowhere to be found: the query on its file says which
// server is missing and how to install it, at the default log level.
func TestMissingServerIsNamed(t *testing.T) {
	env := isolatedEnv(t)
	code, stdout, _ := runShim(t, shimPath, env, "query", "--workspace", workspaceDir("go"), "--format", "json", "hover", "shape.go:15:6")
	errCode, msg := jsonError(t, stdout)
	if code != 1 || errCode != "LSP_UNAVAILABLE" {
		t.Fatalf("exit %d, %s: %s", code, errCode, msg)
	}
	for _, want := range []string{"(gopls) is not installed", "gopls was not found on the server's PATH or in ", filepath.Join(lookup(env, "XDG_DATA_HOME"), "lspseam", "bin"), "go install golang.org/x/tools/gopls@v0.23.0", "use a text search (grep) and read"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q: %s", want, msg)
		}
	}

	// Built from a checkout whose servers are not installed yet: the
	// message says to run `make servers` there.
	checkout := t.TempDir()
	os.MkdirAll(filepath.Join(checkout, "tools", "servers"), 0o755)
	os.WriteFile(filepath.Join(checkout, "tools", "servers", "install.sh"), []byte("#!/bin/sh\n"), 0o755)
	bin := testenv.ShimWithToolsDir(t, filepath.Join(checkout, ".tools", "bin"))
	_, stdout, _ = runShim(t, bin, env, "query", "--workspace", workspaceDir("go"), "--format", "json", "hover", "shape.go:15:6")
	if _, msg := jsonError(t, stdout); !strings.Contains(msg, "run `make servers` in "+checkout+", or go install") {
		t.Errorf("message does not point to make servers in the checkout: %s", msg)
	}
}

// `lspseam presets > lspseam.yaml` then `--config lspseam.yaml` on a
// machine without the servers: the config loads (every preset is
// optional), one warning names the missing servers, and a query on a Go
// file says gopls is missing.
func TestPresetsFileWithoutServers(t *testing.T) {
	env := isolatedEnv(t)
	_, presets, _ := runShim(t, shimPath, env, "presets")
	cfg := filepath.Join(t.TempDir(), "lspseam.yaml")
	os.WriteFile(cfg, []byte(presets), 0o644)
	code, stdout, stderr := runShim(t, shimPath, env, "query", "--config", cfg, "--workspace", workspaceDir("go"), "--format", "json", "hover", "shape.go:15:6")
	errCode, msg := jsonError(t, stdout)
	if code != 1 || errCode != "LSP_UNAVAILABLE" || !strings.Contains(msg, "(gopls) is not installed") {
		t.Fatalf("exit %d, %s: %s\nstderr: %s", code, errCode, msg, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], "level=WARN") || !strings.Contains(lines[0], "optional language servers not installed, skipped: bashls (bash-language-server), buf, clangd, ") || !strings.Contains(lines[0], "`lspseam doctor` lists the languages") {
		t.Errorf("want one warning naming the skipped servers, got:\n%s", stderr)
	}
	if strings.Contains(stderr, lookup(env, "PATH")) {
		t.Errorf("the warning prints PATH:\n%s", stderr)
	}
}

// A table with an optional server that is missing and one that runs: the
// one that runs answers; a server not marked optional fails the load with
// a short LSP_CONFIG_INVALID.
func TestOptionalServerSkipped(t *testing.T) {
	env := isolatedEnv(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "script.json")
	os.WriteFile(script, []byte("{}"), 0o644)
	ws := filepath.Join(dir, "ws")
	os.Mkdir(ws, 0o755)
	os.WriteFile(filepath.Join(ws, "a.go"), []byte("package a\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "b.ghost"), []byte("boo\n"), 0o644)
	write := func(optional bool) string {
		cfg, _ := json.Marshal(map[string]any{"servers": map[string]any{
			"fake": map[string]any{"command": fakePath, "args": []string{"--script", script, "--log", filepath.Join(dir, "events.jsonl")},
				"extensionToLanguage": map[string]string{".go": "go"}, "settleMs": 0},
			"ghost": map[string]any{"command": "lspseam-test-no-such-server", "optional": optional,
				"extensionToLanguage": map[string]string{".ghost": "ghost"}},
		}})
		path := filepath.Join(dir, "cfg.json")
		os.WriteFile(path, cfg, 0o644)
		return path
	}

	cfg := write(true)
	code, stdout, stderr := runShim(t, shimPath, env, "query", "--config", cfg, "--workspace", ws, "hover", "a.go:1:1")
	if code != 0 {
		t.Fatalf("the server that is installed does not answer: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	if lines := strings.Split(strings.TrimSpace(stderr), "\n"); len(lines) != 1 || !strings.Contains(lines[0], "level=WARN") || !strings.Contains(lines[0], "skipped: ghost (lspseam-test-no-such-server)") {
		t.Errorf("want one warning naming ghost, got:\n%s", stderr)
	}
	_, stdout, _ = runShim(t, shimPath, env, "query", "--config", cfg, "--workspace", ws, "--format", "json", "hover", "b.ghost:1:1")
	if errCode, msg := jsonError(t, stdout); errCode != "LSP_UNAVAILABLE" || !strings.Contains(msg, "the language server for .ghost files (ghost) is not installed: lspseam-test-no-such-server was not found") {
		t.Errorf("%s: %s", errCode, msg)
	}

	cfg = write(false)
	code, stdout, _ = runShim(t, shimPath, env, "query", "--config", cfg, "--workspace", ws, "--format", "json", "hover", "a.go:1:1")
	errCode, msg := jsonError(t, stdout)
	if code != 1 || errCode != "LSP_CONFIG_INVALID" {
		t.Fatalf("exit %d, %s: %s", code, errCode, msg)
	}
	for _, want := range []string{"servers.ghost.command", "lspseam-test-no-such-server was not found on the server's PATH or in ", "mark the server optional: true"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q: %s", want, msg)
		}
	}
	if strings.Contains(msg, lookup(env, "PATH")) || len(msg) > 500 {
		t.Errorf("message is not short (%d bytes, PATH printed?): %s", len(msg), msg)
	}
}

func lookup(env []string, name string) string {
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v
		}
	}
	return ""
}

// Without --config, a long-lived serve or mcp warns once about the presets
// whose servers are not installed (its stderr is a log read when something
// goes wrong); a one-shot query keeps stderr quiet, since the query on
// such a file says what to install.
func TestMissingPresetsWarnedByLongLivedShims(t *testing.T) {
	env := isolatedEnv(t)
	for _, sub := range []string{"serve", "mcp"} {
		// stdin is empty: the session ends at once, after start-up.
		_, _, stderr := runShim(t, shimPath, env, sub, "--workspace", workspaceDir("go"))
		if sub == "serve" {
			_, _, stderr = runShim(t, shimPath, env, sub)
		}
		if n := strings.Count(stderr, "optional language servers not installed, skipped: bashls (bash-language-server), buf, clangd, "); n != 1 || !strings.Contains(stderr, "level=WARN") {
			t.Errorf("%s: want one warning naming the missing presets, got:\n%s", sub, stderr)
		}
	}
	_, _, stderr := runShim(t, shimPath, env, "query", "--workspace", workspaceDir("go"), "hover", "shape.go:15:6")
	if strings.Contains(stderr, "skipped") {
		t.Errorf("query warns about presets it does not need:\n%s", stderr)
	}
}
