package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestMain(m *testing.M) { Main(m) }

// helperVar makes this test binary, re-run as a child, run the gated test
// the parent checks.
const helperVar = "LSPSEAM_TESTENV_HELPER"

func TestHelperGated(t *testing.T) {
	if os.Getenv(helperVar) == "" {
		t.Skip("run by TestGate")
	}
	RequireServers(t, "no-such-language-server")
	t.Log("ran")
}

// Without LSPSEAM_E2E=1 a real-server test skips and says how to run it;
// with it, a missing server fails the test instead of skipping it.
func TestGate(t *testing.T) {
	run := func(gate string) (string, error) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperGated$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), helperVar+"=1", E2EVar+"="+gate)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run("")
	if err != nil || !strings.Contains(out, "--- SKIP: TestHelperGated") || !strings.Contains(out, "LSPSEAM_E2E=1") {
		t.Errorf("without the gate: %v\n%s", err, out)
	}
	out, err = run("1")
	if err == nil || !strings.Contains(out, "--- FAIL: TestHelperGated") || !strings.Contains(out, "no-such-language-server is not installed") {
		t.Errorf("with the gate, a missing server: %v\n%s", err, out)
	}
}

// The binaries are built once per process; the cache is this process's
// (or the parent test process's) and is LSPSEAM_CACHE_DIR.
func TestOncePerProcess(t *testing.T) {
	a, b := FakeLSP(t), FakeLSP(t)
	if a != b {
		t.Errorf("two builds: %s, %s", a, b)
	}
	if _, err := os.Stat(a); err != nil {
		t.Error(err)
	}
	if got := os.Getenv("LSPSEAM_CACHE_DIR"); got != CacheDir() || got == "" {
		t.Errorf("LSPSEAM_CACHE_DIR %q, CacheDir %q", got, CacheDir())
	}
}

func TestHelperChildCache(t *testing.T) {
	if os.Getenv(helperVar) == "" {
		t.Skip("run by TestChildKeepsItsCacheDir")
	}
	fmt.Printf("cache=%s shared=%s\n", os.Getenv("LSPSEAM_CACHE_DIR"), CacheDir())
}

// A test binary re-run by a test shares the parent's cache, and keeps the
// LSPSEAM_CACHE_DIR the parent set for it.
func TestChildKeepsItsCacheDir(t *testing.T) {
	own := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperChildCache$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), helperVar+"=1", "LSPSEAM_CACHE_DIR="+own)
	out, err := cmd.CombinedOutput()
	if want := "cache=" + own + " shared=" + CacheDir() + "\n"; err != nil || !strings.Contains(string(out), want) {
		t.Errorf("child: %v, want %q in\n%s", err, want, out)
	}
}

// StepBudget is a share of what is left of the test's deadline.
func TestStepBudget(t *testing.T) {
	dl, ok := t.Deadline()
	if !ok {
		t.Skip("no deadline (-timeout 0)")
	}
	if b := StepBudget(t); b <= 0 || b > time.Until(dl) {
		t.Errorf("StepBudget %v with %v left", b, time.Until(dl))
	}
}
