package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRenameBuildExcludedUse: gopls renames in the files of this machine's
// build, so a file its build excludes (describe_windows.go) keeps the old
// name, and the other build breaks. A tester's rename of cobra's Command
// answered "none besides the 34 changed files refer to what changed"
// while command_win.go still named it. The answer, preview and applied,
// says which excluded files it did not change.
func TestRenameBuildExcludedUse(t *testing.T) {
	requireServers(t, "gopls")
	for _, approval := range []string{"preview", "auto"} {
		t.Run(approval, func(t *testing.T) {
			t.Parallel()
			dir := copyFixture(t, "go")
			excluded := "//go:build windows\n\npackage shapes\n\n// OnWindows is built on Windows alone.\nfunc OnWindows(s Shape) string { return Describe(s) }\n"
			if err := os.WriteFile(filepath.Join(dir, "describe_windows.go"), []byte(excluded), 0o644); err != nil {
				t.Fatal(err)
			}
			srv := catalogServe(t, "--approval", approval)
			defer srv.shutdown(t)
			a := srv.toolCall(t, "code_rename", json.RawMessage(`{"target":{"path":"shape.go","symbol":"Describe"},"newName":"Summary"}`), dir)
			var s map[string]any
			json.Unmarshal(a.StructuredContent, &s)
			inc, _ := s["incomplete"].(string)
			if a.IsError || !strings.Contains(inc, "describe_windows.go") || !strings.Contains(a.Content[0].Text, "the rename did not change describe_windows.go") {
				t.Fatalf("a rename that leaves a build-excluded use: %s", a.Content[0].Text)
			}
			if got := string(readFile(t, filepath.Join(dir, "describe_windows.go"))); got != excluded {
				t.Fatalf("describe_windows.go changed: %s", got)
			}
		})
	}
}

// TestRenameLeavesUsesItsReferencesList: bash-language-server renames
// only in the files it reaches through a `source` line it can resolve,
// while its references find the uses in every script. A tester's rename
// of a logging function changed its own file alone and answered "no new
// problems" (the callers' reports stale) while the callers failed at run
// time. The rename's answer names the uses its references list on lines
// it leaves as they were.
func TestRenameLeavesUsesItsReferencesList(t *testing.T) {
	requireServers(t, "bash-language-server")
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"lib/log.sh":    "#!/usr/bin/env bash\nLOG_LEVEL=${LOG_LEVEL:-info}\n\nlog_info() {\n\techo \"[info] $*\" >&2\n}\n",
		"bin/deploy.sh": "#!/usr/bin/env bash\nsource \"$(dirname \"$0\")/../lib/log.sh\"\nlog_info \"deploying\"\n",
		"bin/plugin.sh": "#!/usr/bin/env bash\n# Sourced by deploy.sh's callers after log.sh: no source line.\nplugin_run() {\n\tlog_info \"plugin running\"\n}\n",
	} {
		p := filepath.Join(base, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := catalogServe(t)
	defer srv.shutdown(t)
	a := srv.toolCall(t, "code_rename", json.RawMessage(`{"target":{"path":"lib/log.sh","symbol":"log_info"},"newName":"log_notice"}`), base)
	var s map[string]any
	json.Unmarshal(a.StructuredContent, &s)
	inc, _ := s["incomplete"].(string)
	changed := false // the server renamed there after all (a later version may)
	files, _ := s["files"].([]any)
	for _, f := range files {
		if m, _ := f.(map[string]any); m["path"] == "bin/plugin.sh" {
			changed = true
		}
	}
	if a.IsError || (!changed && !strings.Contains(inc, "bin/plugin.sh:4")) {
		t.Fatalf("a rename that leaves a use its references list: %s", a.Content[0].Text)
	}
}

// TestReplaceAfterAnotherAgentsEdit: a session that read a function and
// replaced it from that read, after another agent (here a write on disk)
// had changed it, silently undid the other change (a tester's finding:
// "Applied … 0 introduced", the guard gone). code_replace is refused
// (FS_STALE) when the session read the file at another version than the
// one on disk, and goes through once it has read it again.
func TestReplaceAfterAnotherAgentsEdit(t *testing.T) {
	requireServers(t, "gopls")
	dir := copyFixture(t, "go")
	srv := catalogServe(t, "--approval", "auto")
	defer srv.shutdown(t)
	if a := srv.toolCall(t, "read", jsonArgs(map[string]any{"file_path": "shape.go"}), dir); a.IsError {
		t.Fatal(a.Content[0].Text)
	}
	path := filepath.Join(dir, "shape.go")
	guarded := strings.Replace(string(readFile(t, path)), "\ttotal := 0.0\n", "\tif len(all) == 0 {\n\t\treturn 0 // another agent's guard\n\t}\n\ttotal := 0.0\n", 1)
	if err := os.WriteFile(path, []byte(guarded), 0o644); err != nil {
		t.Fatal(err)
	}
	replace := jsonArgs(map[string]any{"target": map[string]any{"path": "shape.go", "symbol": "TotalArea"},
		"text": "func TotalArea(all []Shape) float64 {\n\ttotal := 0.0\n\tfor _, s := range all {\n\t\ttotal += s.Area()\n\t}\n\treturn total\n}"})
	a := srv.toolCall(t, "code_replace", replace, dir)
	var s map[string]any
	json.Unmarshal(a.StructuredContent, &s)
	errObj, _ := s["error"].(map[string]any)
	if !a.IsError || errObj["code"] != "FS_STALE" || string(readFile(t, path)) != guarded {
		t.Fatalf("a replacement written from a read before another agent's edit: %s", a.Content[0].Text)
	}
	if a := srv.toolCall(t, "read", jsonArgs(map[string]any{"file_path": "shape.go"}), dir); a.IsError {
		t.Fatal(a.Content[0].Text)
	}
	if a = srv.toolCall(t, "code_replace", replace, dir); a.IsError || strings.Contains(string(readFile(t, path)), "another agent's guard") {
		t.Fatalf("the replacement once read again: %s", a.Content[0].Text)
	}
}

// TestCodeActionIDFromAnotherSession: an actionId is bound to the file's
// content and lines, and a fresh listing gives the same id again; applied
// in another session (each `lspseam call` is one) it failed with "list
// them again and pass an actionId", in a circle (a tester's finding).
func TestCodeActionIDFromAnotherSession(t *testing.T) {
	requireServers(t, "gopls")
	dir := copyFixture(t, "go")
	imp := "package shapes\n\nimport (\n\t\"strings\"\n\t\"fmt\"\n)\n\nfunc Unused() string { return fmt.Sprint(strings.ToUpper(\"x\")) }\n"
	if err := os.WriteFile(filepath.Join(dir, "imp.go"), []byte(imp), 0o644); err != nil {
		t.Fatal(err)
	}
	lister := catalogServe(t)
	a := lister.toolCall(t, "code_actions", jsonArgs(map[string]any{"path": "imp.go", "line": 1, "only": "source.organizeImports"}), dir)
	lister.shutdown(t)
	var s struct {
		Actions []struct {
			ActionID string `json:"actionId"`
		} `json:"actions"`
	}
	if err := json.Unmarshal(a.StructuredContent, &s); err != nil || a.IsError || len(s.Actions) == 0 {
		t.Fatalf("listing: %s", a.Content[0].Text)
	}
	applier := catalogServe(t, "--approval", "auto")
	defer applier.shutdown(t)
	a = applier.toolCall(t, "code_actions", jsonArgs(map[string]any{"path": "imp.go", "line": 1, "only": "source.organizeImports", "apply": s.Actions[0].ActionID}), dir)
	if a.IsError || !strings.Contains(string(readFile(t, filepath.Join(dir, "imp.go"))), "\"fmt\"\n\t\"strings\"") {
		t.Fatalf("applying a listed id in another session: %s", a.Content[0].Text)
	}
}

// TestCallAsksOnATerminal: on a terminal, `lspseam call` of a previewing
// tool shows the preview and asks; its text told the user to call again
// with the previewId, which ends with the process (a tester's finding).
// It says to answer, and y applies it in the same process.
func TestCallAsksOnATerminal(t *testing.T) {
	requireServers(t, "gopls")
	script, err := exec.LookPath("script") // util-linux: a terminal for the child
	if err != nil {
		t.Fatalf("script (util-linux) is needed to give lspseam call a terminal: %v", err)
	}
	dir := copyFixture(t, "go")
	call := func(reply string) string {
		t.Helper()
		line := shimPath + ` call --workspace ` + dir + ` code_rename '{"target":{"path":"shape.go","symbol":"Describe"},"newName":"Summary"}'`
		cmd := exec.Command(script, "-qec", line, "/dev/null")
		cmd.Env = presetEnv()
		cmd.Stdin = strings.NewReader(reply + "\n")
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	if out := call("n"); !strings.Contains(out, "To apply it, answer y below") || strings.Contains(out, `call code_rename again with the same arguments and "previewId"`) || !strings.Contains(out, "Not applied.") {
		t.Fatalf("declined on a terminal:\n%s", out)
	}
	if out := call("y"); !strings.Contains(string(readFile(t, filepath.Join(dir, "shape.go"))), "func Summary(") {
		t.Fatalf("accepted on a terminal, not applied:\n%s", out)
	}
}
