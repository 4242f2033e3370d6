package main

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lspseam/lspseam/internal/testenv"
)

// Clients share a daemon exactly when it would answer them as their own
// process would: the same config and the same environment as servers and
// lspseam see it.
func TestDaemonKey(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "lspseam.yaml")
	writeConfig := func(s string) {
		if err := os.WriteFile(config, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const cfg = "servers:\n  gopls:\n    command: gopls\n    extensionToLanguage: {.go: go}\n    passEnv: [MY_BUILD_TAGS]\n"
	writeConfig(cfg)
	base := []string{"PATH=/usr/bin:/bin", "HOME=/home/u", "GOFLAGS=-mod=mod", "MY_BUILD_TAGS=a", "LSPSEAM_CACHE_DIR=/c"}
	key := func(environ []string) string {
		t.Helper()
		k, err := daemonKeyOf(environ, config)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	want := key(base)
	for _, tc := range []struct {
		name string
		env  []string
		same bool
	}{
		{"the same environment in another order", []string{"LSPSEAM_CACHE_DIR=/c", "MY_BUILD_TAGS=a", "GOFLAGS=-mod=mod", "HOME=/home/u", "PATH=/usr/bin:/bin"}, true},
		{"a variable no server sees", append(base, "SHLVL=3", "OPENAI_API_KEY=sk-1"), true},
		{"how to reach and keep the daemon", append(base, "LSPSEAM_DAEMON=auto", "LSPSEAM_DAEMON_IDLE=5m", "LSPSEAM_RUNTIME_DIR=/r"), true},
		{"another PATH", []string{"PATH=/opt/bin:/usr/bin:/bin", "HOME=/home/u", "GOFLAGS=-mod=mod", "MY_BUILD_TAGS=a", "LSPSEAM_CACHE_DIR=/c"}, false},
		{"another GOFLAGS", []string{"PATH=/usr/bin:/bin", "HOME=/home/u", "GOFLAGS=-tags=x", "MY_BUILD_TAGS=a", "LSPSEAM_CACHE_DIR=/c"}, false},
		{"a virtualenv", append(base, "VIRTUAL_ENV=/home/u/venv"), false},
		{"another passEnv value", []string{"PATH=/usr/bin:/bin", "HOME=/home/u", "GOFLAGS=-mod=mod", "MY_BUILD_TAGS=b", "LSPSEAM_CACHE_DIR=/c"}, false},
		{"another lspseam setting", []string{"PATH=/usr/bin:/bin", "HOME=/home/u", "GOFLAGS=-mod=mod", "MY_BUILD_TAGS=a", "LSPSEAM_CACHE_DIR=/d"}, false},
	} {
		if got := key(tc.env); (got == want) != tc.same {
			t.Errorf("%s: same daemon = %v, want %v", tc.name, got == want, tc.same)
		}
	}
	writeConfig(cfg + "approval: auto\n")
	if key(base) == want {
		t.Error("an edited config reaches the daemon of the config before")
	}
	if k, _ := daemonKeyOf(base, ""); k == want {
		t.Error("no config and a config share a daemon")
	}
}

// daemon stop waits for the daemon's lock to be free, and says so when it
// is not within its limit rather than reporting a stop that has not
// happened (a daemon started next would take the old one for running and
// exit).
func TestWaitDaemonGone(t *testing.T) {
	if !daemonSupported {
		t.Skip("the daemon runs on Linux and macOS")
	}
	addr := daemonAddressAt(filepath.Join(t.TempDir(), "d.sock"))
	if err := waitDaemonGone(addr, 0); err != nil {
		t.Fatalf("no daemon: %v", err)
	}
	lock, err := tryLockFile(addr.lock)
	if err != nil {
		t.Fatal(err)
	}
	if err := waitDaemonGone(addr, 100*time.Millisecond); !errors.Is(err, errLockHeld) {
		t.Fatalf("a held lock: %v, want errLockHeld", err)
	}
	released := time.AfterFunc(100*time.Millisecond, func() { lock.Close() })
	defer released.Stop()
	if err := waitDaemonGone(addr, testenv.StepBudget(t)); err != nil {
		t.Fatalf("a lock let go of: %v", err)
	}
}

// A stopping daemon does not wait for ever on a session or server that
// does not end (within): `daemon stop` waited 2 minutes on one in CI and
// the next daemon could not start. The bound is below stop's own wait.
func TestDaemonShutdownIsBounded(t *testing.T) {
	if daemonShutdownBound >= daemonStopWait {
		t.Fatalf("the daemon's shutdown bound %v is not below daemon stop's wait %v", daemonShutdownBound, daemonStopWait)
	}
	if !within(testenv.StepBudget(t), func() {}) {
		t.Fatal("a function that returns at once was not within the bound")
	}
	block := make(chan struct{})
	defer close(block)
	if within(10*time.Millisecond, func() { <-block }) {
		t.Fatal("a function that never returns was within the bound")
	}
}
