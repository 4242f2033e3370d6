package localstdio

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
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
// two servers each run a helper of their own in the server's process group
// (`sleep 300 &` before exec, as wrapper scripts do), and checks that both
// whole groups go, and that one supervisor served both. Without the
// supervisor only the servers themselves die (their parent-death signal)
// and the helpers are left under PID 1: the "unsupervised" case shows the
// test can fail.
func TestServerGroupDiesWithKilledShim(t *testing.T) {
	for _, supervised := range []bool{true, false} {
		name := map[bool]string{true: "supervised", false: "unsupervised"}[supervised]
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			helperPidFile := filepath.Join(dir, "helper.pid")
			f := newFake(t, map[string]any{}, nil) // builds the fake and its script
			wrapper := filepath.Join(dir, "server.sh")
			os.WriteFile(wrapper, []byte("#!/bin/sh\nsleep 300 &\necho $! >> "+helperPidFile+"\nexec \"$@\"\n"), 0o755)
			server := map[string]any{
				"command": wrapper, "args": []string{buildFake(t), "--script", f.script, "--log", f.log},
				"extensionToLanguage": map[string]string{".go": "go"}, "settleMs": 0,
			}
			server2 := maps.Clone(server)
			server2["extensionToLanguage"] = map[string]string{".go2": "go"}
			setup, _ := json.Marshal(map[string]any{"servers": map[string]any{"fake": server, "fake2": server2}})
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
			rd := bufio.NewReader(out)
			line, err := rd.ReadString('\n')
			if !strings.HasPrefix(line, "answered") {
				shim.Process.Kill()
				shim.Wait()
				rest, _ := io.ReadAll(rd)
				t.Fatalf("helper shim did not answer a query: %q %v\n%s", line, err, rest)
			}
			servers := f.pids()
			data, err := os.ReadFile(helperPidFile)
			var helpers []int
			for _, field := range strings.Fields(string(data)) {
				pid, _ := strconv.Atoi(field)
				helpers = append(helpers, pid)
			}
			if err != nil || len(helpers) != 2 || len(servers) != 2 {
				t.Fatalf("server pids %v, helper pid file %q (%v)", servers, data, err)
			}
			t.Cleanup(func() {
				for _, helper := range helpers {
					syscall.Kill(helper, syscall.SIGKILL)
				}
			})
			for i := range servers {
				if !running(servers[i]) || !running(helpers[i]) {
					t.Fatalf("server %d running %v, helper %d running %v", servers[i], running(servers[i]), helpers[i], running(helpers[i]))
				}
			}
			if supervised {
				if a, b := parentPid(servers[0]), parentPid(servers[1]); a != b || a == shim.Process.Pid {
					t.Errorf("the servers' parents are %d and %d (shim %d); want one supervisor for both", a, b, shim.Process.Pid)
				}
			}

			shim.Process.Signal(syscall.SIGKILL)
			shim.Wait()
			for _, server := range servers {
				if !waitFor(10*time.Second, func() bool { return !running(server) }) {
					t.Fatalf("server %d still running after its shim was killed", server)
				}
			}
			for _, helper := range helpers {
				if supervised {
					// The supervisor signals each group as one; each member
					// becomes a zombie when it handles the signal.
					if !waitFor(10*time.Second, func() bool { return !running(helper) }) {
						t.Errorf("a server's helper %d survived the shim's SIGKILL", helper)
					}
				} else if !running(helper) {
					// Nothing but a supervisor kills the helper: it must be
					// running still, or this test cannot tell the cases apart.
					t.Errorf("without a supervisor the helper %d was expected to survive the server", helper)
				}
			}
		})
	}
}

// parentPid is pid's parent, from /proc.
func parentPid(pid int) int {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	if len(fields) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}

// TestHelperShim is the shim process of TestServerGroupDiesWithKilledShim:
// it answers one query through a provider per server, says so, and waits
// to be killed.
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
	for _, server := range servers {
		p := NewProvider(sharedCore(t), server)
		_, err = p.Query(context.Background(), lspseam.ProviderQuery{
			QueryRequest: lspseam.QueryRequest{Operation: lspseam.OpDefinition, FilePath: "a.go", Position: lspseam.Position{Line: 2, Character: 5}, WorkspaceRoot: string(ws)},
			LanguageID:   "go",
		})
		if err != nil {
			t.Fatal(err)
		}
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
// executed fails the start synchronously with the system's reason, and
// that the supervisor, left with no server, ends.
func TestSupervisorReportsStartFailure(t *testing.T) {
	dir := t.TempDir()
	notExecutable := filepath.Join(dir, "server")
	os.WriteFile(notExecutable, []byte("#!/bin/sh\n"), 0o644)
	_, err := startProcess(processSpec{path: notExecutable, dir: dir, maxStderrBytes: 1024})
	if err == nil || !strings.Contains(err.Error(), "permission denied") {
		t.Fatalf("got %v, want the exec error (permission denied)", err)
	}
	supervisors.mu.Lock()
	link := supervisors.link
	supervisors.mu.Unlock()
	if link != nil {
		t.Fatal("a supervisor is kept with no server to supervise")
	}
}

// BenchmarkStartProcess measures what the supervisor adds to starting a
// server (here /bin/cat, stopped at once): "supervised" starts the
// supervisor too (a shim's first server), "supervised-shared" asks the
// supervisor another server keeps running.
func BenchmarkStartProcess(b *testing.B) {
	start := func(b *testing.B) *process {
		p, err := startProcess(processSpec{path: "/bin/cat", env: []string{"PATH=/usr/bin:/bin"}, dir: b.TempDir(), maxStderrBytes: 1024})
		if err != nil {
			b.Fatal(err)
		}
		return p
	}
	for _, mode := range []string{"supervised", "supervised-shared", "unsupervised"} {
		b.Run(mode, func(b *testing.B) {
			switch mode {
			case "unsupervised":
				saved := supervisorPath
				supervisorPath = func() string { return "" }
				b.Cleanup(func() { supervisorPath = saved })
			case "supervised-shared":
				keep := start(b)
				b.Cleanup(func() { keep.terminate(time.Second) })
			}
			for b.Loop() {
				start(b).terminate(time.Second)
			}
		})
	}
}
