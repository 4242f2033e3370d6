package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestClangdIndexIgnoredByGit: clangd writes its background index into
// the project (.cache/clangd/index); lspseam marks that directory ignored
// with a .gitignore of its own (localstdio/servercache.go), so an agent's
// `git add -A` does not commit the index. On a copy of the C fixture made
// a git repository, after a search that has clangd index the project and
// the session's end, `git status` names no .cache file.
func TestClangdIndexIgnoredByGit(t *testing.T) {
	requireServers(t, "clangd")
	git, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("git is needed for this test: %v", err)
	}
	dir := copyFixture(t, "c")
	if out, err := exec.Command("sh", filepath.Join(dir, "gen-compile-commands.sh")).CombinedOutput(); err != nil {
		t.Fatalf("gen-compile-commands: %v\n%s", err, out)
	}
	run := func(args ...string) string {
		cmd := exec.Command(git, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	// The fixture ignores its own index (its .gitignore): a project that
	// does not is the case here.
	os.Remove(filepath.Join(dir, ".gitignore"))
	os.RemoveAll(filepath.Join(dir, ".cache"))
	run("init", "-q")
	run("add", "-A")
	run("commit", "-qm", "fixture")

	srv := catalogServe(t)
	a := srv.toolCall(t, "code_navigate", jsonArgs(map[string]any{"target": map[string]any{"path": "shape.h", "symbol": "total_area"}, "kind": "references"}), dir)
	if a.IsError {
		t.Fatalf("references: %s", a.Content[0].Text)
	}
	srv.shutdown(t)
	if _, err := os.Stat(filepath.Join(dir, ".cache", "clangd")); err != nil {
		t.Fatalf("clangd made no index directory in the project (%v): the test cannot tell", err)
	}
	if got := run("status", "--porcelain", "--untracked-files=all"); got != "" {
		t.Errorf("git status after a clangd session:\n%s", got)
	}
}
