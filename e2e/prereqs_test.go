package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// `make test` on a machine without the servers, Node.js or Chromium stops
// before the long run with ONE line naming each missing thing and the
// command that installs it; with everything there it goes on silently.
// (The machine is faked: PATH holds stand-ins for go, node and npm, and
// TOOLS_BIN and CHROMIUM point at directories the test fills.)
func TestMakeTestChecksPrerequisites(t *testing.T) {
	fakeBin := t.TempDir()
	tools := t.TempDir()
	chromium := filepath.Join(t.TempDir(), "chromium")
	script := func(dir, name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script(fakeBin, "go", "exit 0")
	script(fakeBin, "node", "echo v18.19.0")
	script(tools, "gopls", "exit 0")
	script(tools, "clangd", "exit 0")
	// Every other pinned server is there (check-test-prereqs.sh lists
	// them), so the line names only the two left out.
	for _, s := range []string{"bash-language-server", "yaml-language-server", "vscode-json-language-server", "vscode-html-language-server",
		"vscode-css-language-server", "intelephense", "docker-langserver", "vue-language-server", "svelteserver", "fortls",
		"cmake-language-server", "basedpyright-langserver", "ruff", "tombi", "terraform-ls", "buf", "prisma-language-server"} {
		script(tools, s, "exit 0")
	}
	clangd22 := filepath.Join(filepath.Dir(tools), "clangd-22", "bin")
	if err := os.MkdirAll(clangd22, 0o755); err != nil {
		t.Fatal(err)
	}
	script(clangd22, "clangd", "exit 0")
	// make itself and the shell's utilities stay on PATH; go, node and npm
	// are the fakes or nothing.
	utils := t.TempDir()
	for _, tool := range []string{"make", "bash", "sh", "sed", "dirname"} {
		path, err := exec.LookPath(tool)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(path, filepath.Join(utils, tool)); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"PATH=" + fakeBin + ":" + utils, "TOOLS_BIN=" + tools, "CHROMIUM=" + chromium}

	code, out := runMake(t, env, "test")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	problem := lines[0]
	if code == 0 || !strings.HasPrefix(problem, "make test: missing: ") {
		t.Fatalf("make test with things missing: exit %d\n%s", code, out)
	}
	for _, want := range []string{
		"Node.js >= 20 with npm (", // node 18, no npm
		"language servers typescript-language-server pyright-langserver in " + tools + " (make servers REQUIRE_ALL=1)",
		chromium + " for the browser test (apt-get install chromium)",
	} {
		if !strings.Contains(problem, want) {
			t.Errorf("the line does not name %q:\n%s", want, problem)
		}
	}
	if strings.Contains(problem, "gopls") || strings.Contains(problem, "clangd") || strings.Contains(problem, "go (Go") {
		t.Errorf("the line names something that is installed:\n%s", problem)
	}
	// Nothing else ran: the only other line is make's own error.
	if len(lines) != 2 || !strings.Contains(lines[1], "check-test-prereqs") {
		t.Errorf("make test went on after the check:\n%s", out)
	}

	// Everything there: the check passes silently (checked alone, not
	// followed by the real run).
	script(fakeBin, "node", "echo v22.3.0")
	script(fakeBin, "npm", "exit 0")
	script(tools, "typescript-language-server", "exit 0")
	script(tools, "pyright-langserver", "exit 0")
	script(filepath.Dir(chromium), "chromium", "exit 0")
	if code, out := runMake(t, env, "check-test-prereqs"); code != 0 || out != "" {
		t.Errorf("everything installed: exit %d\n%s", code, out)
	}
}
