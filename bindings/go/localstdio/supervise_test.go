package localstdio

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// helperShimEnv makes this test binary act as a shim (TestHelperShim):
// its value is the directory holding the setup.
const helperShimEnv = "LSPSEAM_TEST_HELPER_SHIM"

// TestServerGroupDiesWithKilledShim kills a shim with SIGKILL while its
// server runs a helper of its own in the server's process group (`sleep
// 300 &` before exec, as wrapper scripts do), and checks that the whole
// group goes. Without the supervisor only the server itself dies (its
// parent-death signal) and the helper is left under PID 1: the
// "unsupervised" case shows the test can fail.
func TestServerGroupDiesWithKilledShim(t *testing.T) {
	for _, supervised := range []bool{true, false} {
		name := map[bool]string{true: "supervised", false: "unsupervised"}[supervised]
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			helperPidFile := filepath.Join(dir, "helper.pid")
			f := newFake(t, map[string]any{}, nil) // builds the fake and its script
			wrapper := filepath.Join(dir, "server.sh")
			os.WriteFile(wrapper, []byte("#!/bin/sh\nsleep 300 &\necho $! > "+helperPidFile+"\nexec \"$@\"\n"), 0o755)
			setup, _ := json.Marshal(map[string]any{
				"servers": map[string]any{"fake": map[string]any{
					"command": wrapper, "args": []string{buildFake(t), "--script", f.script, "--log", f.log},
					"extensionToLanguage": map[string]string{".go": "go"}, "settleMs": 0,
				}},
			})
			os.WriteFile(filepath.Join(dir, "config.json"), setup, 0o644)
			os.WriteFile(filepath.Join(dir, "workspace"), []byte(f.ws), 0o644)
			if !supervised {
				os.WriteFile(filepath.Join(dir, "unsupervised"), nil, 0o644)
			}

			shim := exec.Command(os.Args[0], "-test.run=^TestHelperShim$", "-test.count=1")
			shim.Env = append(os.Environ(), helperShimEnv+"="+dir)
			shim.Stderr = os.Stderr
			out, _ := shim.StdoutPipe()
			if err := shim.Start(); err != nil {
				t.Fatal(err)
			}
			line, err := bufio.NewReader(out).ReadString('\n')
			if !strings.HasPrefix(line, "answered") {
				shim.Process.Kill()
				shim.Wait()
				t.Fatalf("helper shim did not answer a query: %q %v", line, err)
			}
			server := f.pids()
			data, err := os.ReadFile(helperPidFile)
			helper, _ := strconv.Atoi(strings.TrimSpace(string(data)))
			if err != nil || helper == 0 || len(server) != 1 {
				t.Fatalf("server pids %v, helper pid file %q (%v)", server, data, err)
			}
			t.Cleanup(func() { syscall.Kill(helper, syscall.SIGKILL) })
			if !running(server[0]) || !running(helper) {
				t.Fatalf("server %d running %v, its helper %d running %v", server[0], running(server[0]), helper, running(helper))
			}

			shim.Process.Signal(syscall.SIGKILL)
			shim.Wait()
			if !waitFor(10*time.Second, func() bool { return !running(server[0]) }) {
				t.Fatalf("server %d still running after its shim was killed", server[0])
			}
			if supervised {
				// The supervisor signals the group as one; each member
				// becomes a zombie when it handles the signal.
				if !waitFor(10*time.Second, func() bool { return !running(helper) }) {
					t.Errorf("the server's helper %d survived the shim's SIGKILL", helper)
				}
			} else if !running(helper) {
				// Nothing but a supervisor kills the helper: it must be
				// running still, or this test cannot tell the cases apart.
				t.Errorf("without a supervisor the helper %d was expected to survive the server", helper)
			}
		})
	}
}

// TestHelperShim is the shim process of TestServerGroupDiesWithKilledShim:
// it answers one query through a provider, says so, and waits to be killed.
func TestHelperShim(t *testing.T) {
	dir := os.Getenv(helperShimEnv)
	if dir == "" {
		t.Skip("run by TestServerGroupDiesWithKilledShim")
	}
	if _, err := os.Stat(filepath.Join(dir, "unsupervised")); err == nil {
		supervisorPath = func() string { return "" }
	}
	cfg, _ := os.ReadFile(filepath.Join(dir, "config.json"))
	ws, _ := os.ReadFile(filepath.Join(dir, "workspace"))
	servers, _, err := Load(context.Background(), sharedCore(t), cfg, os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	p := NewProvider(sharedCore(t), servers[0])
	_, err = p.Query(context.Background(), lspseam.ProviderQuery{
		QueryRequest: lspseam.QueryRequest{Operation: lspseam.OpDefinition, FilePath: "a.go", Position: lspseam.Position{Line: 2, Character: 5}, WorkspaceRoot: string(ws)},
		LanguageID:   "go",
	})
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("answered\n")
	select {}
}

// running reports whether pid is a live process (not a zombie).
func running(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

// TestSupervisedExitIsTheServers checks that errors describe how the
// server ended, not its supervisor: an exit code and a signal each come
// through as the server's, with and without a supervisor.
func TestSupervisedExitIsTheServers(t *testing.T) {
	for _, supervised := range []bool{true, false} {
		for _, c := range []struct{ script, want string }{
			{"exit 7", "exited with code 7"},
			{"kill -SEGV $$", "killed by signal segmentation fault"},
			{"exec /nonexistent/server", "exited with code 127"},
		} {
			t.Run(map[bool]string{true: "supervised", false: "unsupervised"}[supervised]+"/"+c.script, func(t *testing.T) {
				if !supervised {
					saved := supervisorPath
					supervisorPath = func() string { return "" }
					t.Cleanup(func() { supervisorPath = saved })
				}
				f := newFake(t, map[string]any{}, map[string]any{"command": "/bin/sh", "args": []string{"-c", c.script}})
				_, err := f.query(context.Background(), lspseam.OpDefinition, "a.go")
				var le *lspseam.Error
				if err == nil || !errors.As(err, &le) || le.Code != lspseam.CodeServerFailed || !strings.Contains(le.Message, c.want) {
					t.Fatalf("supervised=%v: got %v, want LSP_SERVER_FAILED saying %q", supervised, err, c.want)
				}
			})
		}
	}
}

// TestSupervisorReportsStartFailure checks that a server that cannot be
// executed fails the start synchronously with the system's reason.
func TestSupervisorReportsStartFailure(t *testing.T) {
	dir := t.TempDir()
	notExecutable := filepath.Join(dir, "server")
	os.WriteFile(notExecutable, []byte("#!/bin/sh\n"), 0o644)
	cmd := exec.Command(notExecutable)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	_, err := startSupervised(cmd, supervisorPath())
	if err == nil || !strings.Contains(err.Error(), "permission denied") {
		t.Fatalf("got %v, want the exec error (permission denied)", err)
	}
	if cmd.ProcessState == nil {
		t.Fatal("the supervisor was not waited for")
	}
}

// BenchmarkStartProcess measures what the supervisor adds to starting a
// server (here /bin/cat, stopped at once): one re-execution of this binary.
func BenchmarkStartProcess(b *testing.B) {
	for _, supervised := range []bool{true, false} {
		b.Run(map[bool]string{true: "supervised", false: "unsupervised"}[supervised], func(b *testing.B) {
			if !supervised {
				saved := supervisorPath
				supervisorPath = func() string { return "" }
				b.Cleanup(func() { supervisorPath = saved })
			}
			for b.Loop() {
				p, err := startProcess(processSpec{path: "/bin/cat", env: []string{"PATH=/usr/bin:/bin"}, dir: b.TempDir(), maxStderrBytes: 1024})
				if err != nil {
					b.Fatal(err)
				}
				p.terminate(time.Second)
			}
		})
	}
}
