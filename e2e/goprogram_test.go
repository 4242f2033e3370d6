package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lspseam/lspseam/internal/testenv"
)

// TestGoProgramFindsQuickStartServers builds docs/go.md's Go program that
// runs real language servers ("Real language servers") in a fresh module
// that depends on this clone as docs/go.md says, and runs it on a machine where
// gopls is only in the clone's .tools/bin (as `make demo` leaves it): not
// on PATH, no HOME installation. It answers the hover the CLI answers, and
// its first run leaves the compiled core in the cache directory for the
// next run.
func TestGoProgramFindsQuickStartServers(t *testing.T) {
	requireServers(t, "gopls")
	readme, err := os.ReadFile(filepath.Join(repoRoot, "docs", "go.md"))
	if err != nil {
		t.Fatal(err)
	}
	program := ""
	for _, block := range strings.Split(string(readme), "```go\n")[1:] {
		block = block[:strings.Index(block, "```")]
		if strings.Contains(block, "localstdio.DefaultSearchDirs(nil)") && strings.Contains(block, "svc.Query(") {
			program = block
		}
	}
	if program == "" {
		t.Fatal("docs/go.md has no Go program that loads the presets with localstdio.DefaultSearchDirs and queries")
	}

	dir := t.TempDir()
	home := t.TempDir()
	cache := filepath.Join(testenv.ColdCacheDir(t), "cache") // a first run: the program must write it
	goEnv := func(name string) string {
		out, err := exec.Command(filepath.Join(goroot, "bin", "go"), "env", name).Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	// The Go toolchain's own caches stay where they are (a fresh HOME
	// would rebuild the standard library); nothing else of this machine
	// is visible to the program.
	env := []string{
		"PATH=" + filepath.Join(goroot, "bin"),
		"HOME=" + home,
		"GOCACHE=" + goEnv("GOCACHE"),
		"GOMODCACHE=" + goEnv("GOMODCACHE"),
		"GOPATH=" + goEnv("GOPATH"),
		"GOFLAGS=-mod=mod",
		"GOWORK=off",
		"GOTOOLCHAIN=local",
		"LSPSEAM_CACHE_DIR=" + cache,
	}
	run := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	goBin := filepath.Join(goroot, "bin", "go")
	run(goBin, "mod", "init", "example.com/readme")
	sum, err := os.ReadFile(filepath.Join(repoRoot, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(program), 0o644); err != nil {
		t.Fatal(err)
	}
	run(goBin, "mod", "edit", "-require=github.com/lspseam/lspseam@v0.0.0", "-replace=github.com/lspseam/lspseam="+repoRoot)
	run(goBin, "mod", "tidy")
	run(goBin, "build", "-o", "readme", ".")

	args := []string{workspaceDir("go"), `{"operation":"hover","file_path":"cmd/shapes/main.go","line":23,"character":17}`}
	if out := run(filepath.Join(dir, "readme"), args...); !strings.Contains(out, "Describe returns a one-line, human-readable summary of s.") {
		t.Fatalf("docs/go.md's program did not answer the hover:\n%s", out)
	}
	entries, _ := filepath.Glob(filepath.Join(cache, "*", "*"))
	if len(entries) == 0 {
		t.Errorf("the program left no compiled core in LSPSEAM_CACHE_DIR %s", cache)
	}
}
