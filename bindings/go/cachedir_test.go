package lspseam

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// cacheChildEnv makes TestNewCoreCachesInDefaultCacheDir, re-run as a
// child process, create one Core (with WithCompilationCacheDir("") when
// its value is "memory") and return: the default cache is chosen once per
// process, so each case needs a process of its own.
const cacheChildEnv = "LSPSEAM_TEST_CACHE_CHILD"

// A Core without options keeps the compiled module in DefaultCacheDir
// ($LSPSEAM_CACHE_DIR), so a program's next run loads it;
// WithCompilationCacheDir("") keeps it in memory only.
func TestNewCoreCachesInDefaultCacheDir(t *testing.T) {
	if mode := os.Getenv(cacheChildEnv); mode != "" {
		var opts []Option
		if mode == "memory" {
			opts = append(opts, WithCompilationCacheDir(""))
		}
		newTestCore(t, opts...)
		return
	}
	skipCompileUnderRace(t)
	entries := func(mode string) []string {
		t.Helper()
		dir := filepath.Join(t.TempDir(), "cache")
		cmd := exec.Command(os.Args[0], "-test.run=^TestNewCoreCachesInDefaultCacheDir$", "-test.count=1")
		cmd.Env = append(os.Environ(), cacheChildEnv+"="+mode, "LSPSEAM_CACHE_DIR="+dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("child %s: %v\n%s", mode, err, out)
		}
		found, _ := filepath.Glob(filepath.Join(dir, "*", "*"))
		return found
	}
	if got := entries("default"); len(got) == 0 {
		t.Error("a Core without options left nothing in LSPSEAM_CACHE_DIR")
	}
	if got := entries("memory"); len(got) != 0 {
		t.Errorf("WithCompilationCacheDir(\"\") wrote to LSPSEAM_CACHE_DIR: %q", got)
	}
}

// DefaultCacheDir is $LSPSEAM_CACHE_DIR, else the user's cache directory
// + /lspseam (the CLI's), created.
func TestDefaultCacheDir(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", xdg)
	t.Setenv("LSPSEAM_CACHE_DIR", "")
	if dir, err := DefaultCacheDir(); err != nil || dir != filepath.Join(xdg, "lspseam") {
		t.Errorf("without LSPSEAM_CACHE_DIR: %q %v", dir, err)
	}
	own := filepath.Join(t.TempDir(), "a", "b")
	t.Setenv("LSPSEAM_CACHE_DIR", own)
	if dir, err := DefaultCacheDir(); err != nil || dir != own {
		t.Errorf("LSPSEAM_CACHE_DIR: %q %v", dir, err)
	}
	if info, err := os.Stat(own); err != nil || !info.IsDir() {
		t.Errorf("not created: %v", err)
	}
}
