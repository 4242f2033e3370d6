package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkMCPPeer compares `lspseam mcp` with a peer MCP server that wraps
// one language server, isaacphi/mcp-language-server, on the same gopls and
// the same copy of the Go fixture. The peer is not part of this repository:
// build it yourself and name the binary in LSPSEAM_PEER_MCP, e.g.
//
//	LSPSEAM_PEER_MCP=/path/to/mcp-language-server \
//	  go test -run '^$' -bench BenchmarkMCPPeer -benchtime 100x ./e2e/
//
// Each sub-benchmark asks both servers the same question about the fixture
// (hover, definition, references of `Describe`), alternating which goes
// first, and reports the p50 of each side and lspseam/peer. The last one,
// RSS, reports the resident memory of both MCP processes and of their
// gopls, then lspseam's again after its core's idle release. Every answer
// is checked, so the benchmark cannot pass on errors.
//
// The two do not do the same LSP work for the same question: lspseam asks
// at a position (didOpen, request, didClose per call), the peer keeps every
// file open and, for definition and references, takes a symbol name
// (workspace/symbol first, then the request, and it returns source text
// around the answer). The figures compare what an agent waits for.
func BenchmarkMCPPeer(b *testing.B) {
	peerBin := os.Getenv("LSPSEAM_PEER_MCP")
	if peerBin == "" {
		b.Skip("LSPSEAM_PEER_MCP is unset: set it to a built isaacphi/mcp-language-server binary to compare `lspseam mcp` with it")
	}
	if _, err := os.Stat(peerBin); err != nil {
		b.Fatalf("LSPSEAM_PEER_MCP: %v", err)
	}
	ws, cfg, gopls := goplsFixtureCopy(b)

	// The core is released after 3 s idle (30 s by default), so the RSS
	// step can report lspseam both loaded and released without a long
	// wait; the timed calls come 30 ms apart and never see a release.
	b.Setenv("LSPSEAM_CORE_RELEASE_AFTER", "3s")
	seam := startMCPSide(b, "lspseam", ws, shimPath, "mcp", "--workspace", ws, "--config", cfg)
	peer := startMCPSide(b, "peer", ws, peerBin, "--workspace", ws, "--lsp", gopls)

	mainGo := filepath.Join(ws, "cmd", "shapes", "main.go")
	ops := []peerOp{
		{
			name: "hover",
			// `Describe` in sh.Describe(c), cmd/shapes/main.go:23:17.
			seamArgs: map[string]any{"operation": "hover", "file_path": "cmd/shapes/main.go", "line": 23, "character": 17},
			seamWant: []string{"func sh.Describe(s sh.Shape) string", "Describe returns a one-line, human-readable summary of s."},
			peerTool: "hover",
			peerArgs: map[string]any{"filePath": mainGo, "line": 23, "column": 17},
			peerWant: []string{"func sh.Describe(s sh.Shape) string", "Describe returns a one-line, human-readable summary of s."},
		},
		{
			name: "definition",
			// The same use of `Describe`; its declaration is shape.go:15:6.
			seamArgs: map[string]any{"operation": "goToDefinition", "file_path": "cmd/shapes/main.go", "line": 23, "character": 17},
			seamWant: []string{"shape.go:15:6"},
			peerTool: "definition",
			peerArgs: map[string]any{"symbolName": "Describe"},
			peerWant: []string{filepath.Join(ws, "shape.go"), "L15:C1", "func Describe(s Shape) string"},
		},
		{
			name: "references",
			// The declaration of `Describe`, shape.go:15:6; used at
			// cmd/shapes/main.go:23:17 and report.go:12:17.
			seamArgs: map[string]any{"operation": "findReferences", "file_path": "shape.go", "line": 15, "character": 6},
			seamWant: []string{"cmd/shapes/main.go:23:17", "report.go:12:17"},
			peerTool: "references",
			peerArgs: map[string]any{"symbolName": "Describe"},
			peerWant: []string{mainGo + "\n", "L23:C17", filepath.Join(ws, "report.go") + "\n", "L12:C17"},
		},
	}

	// Warm both: the first calls load the workspace (lspseam also starts
	// gopls on its first call). Repeat until two answers in a row agree.
	for _, op := range ops {
		for _, side := range []struct {
			s    *mcpSide
			tool string
			args map[string]any
			want []string
		}{{seam, "lsp", op.seamArgs, op.seamWant}, {peer, op.peerTool, op.peerArgs, op.peerWant}} {
			var last string
			for i := 0; ; i++ {
				text, err := side.s.call(side.tool, side.args)
				if err == nil && i >= 2 && text == last {
					break
				}
				if i == 30 {
					if err == nil {
						err = fmt.Errorf("answer still changing: %q", text)
					}
					side.s.fail(b, op.name, err)
				}
				last = text
				time.Sleep(100 * time.Millisecond)
			}
			if err := mentionsAll(last, side.want); err != nil {
				side.s.fail(b, op.name, err)
			}
		}
	}

	for _, op := range ops {
		b.Run(op.name, func(b *testing.B) {
			// Both servers do background work after a call (diagnostics),
			// and they share the machine's cores: alternate which goes
			// first and let both go idle before each call.
			timed := func(s *mcpSide, tool string, args map[string]any, want []string) time.Duration {
				time.Sleep(30 * time.Millisecond)
				t0 := time.Now()
				text, err := s.call(tool, args)
				d := time.Since(t0)
				if err == nil {
					err = mentionsAll(text, want)
				}
				if err != nil {
					s.fail(b, op.name, err)
				}
				return d
			}
			seamCall := func() time.Duration { return timed(seam, "lsp", op.seamArgs, op.seamWant) }
			peerCall := func() time.Duration { return timed(peer, op.peerTool, op.peerArgs, op.peerWant) }
			var s, p []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if i%2 == 0 {
					s = append(s, seamCall())
					p = append(p, peerCall())
				} else {
					p = append(p, peerCall())
					s = append(s, seamCall())
				}
			}
			b.StopTimer()
			sp, pp := percentile(s, 0.5), percentile(p, 0.5)
			b.ReportMetric(float64(sp)/1e6, "lspseam-p50-ms")
			b.ReportMetric(float64(pp)/1e6, "peer-p50-ms")
			b.ReportMetric(float64(sp)/float64(pp), "ratio")
		})
	}

	// Resident memory after the runs above: each MCP process alone, and
	// the gopls each started.
	// Measured once, before b.Run (which runs its function more than once:
	// a second run would find the core already released).
	seamKB, peerKB := vmRSS(b, seam.pid()), vmRSS(b, peer.pid())
	goplsKB := map[string]int64{}
	for _, side := range []*mcpSide{seam, peer} {
		// gopls may have started its telemetry child: count it too.
		kb, n := childRSS(b, side.pid(), "gopls")
		if n == 0 {
			b.Fatalf("%s has no gopls child process", side.name)
		}
		goplsKB[side.name] = kb
	}
	// After the core's idle release (the state an agent's pause leaves
	// lspseam in).
	time.Sleep(5 * time.Second)
	releasedKB := vmRSS(b, seam.pid())
	b.Run("RSS", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
		}
		b.ReportMetric(float64(seamKB)/1024, "lspseam-RSS-MB")
		b.ReportMetric(float64(peerKB)/1024, "peer-RSS-MB")
		b.ReportMetric(float64(seamKB)/float64(peerKB), "ratio")
		for name, kb := range goplsKB {
			b.ReportMetric(float64(kb)/1024, name+"-gopls-RSS-MB")
		}
		b.ReportMetric(float64(releasedKB)/1024, "lspseam-released-RSS-MB")
		b.ReportMetric(float64(releasedKB)/float64(peerKB), "released-ratio")
	})
}

// peerOp is one question asked of both servers, with what each answer must
// contain.
type peerOp struct {
	name               string
	seamArgs, peerArgs map[string]any
	peerTool           string
	seamWant, peerWant []string
}

// goplsFixtureCopy makes a private copy of the Go fixture and a config
// naming gopls from .tools/bin for it: MCP servers watch their workspace
// and servers may write caches next to it. The copy's path has its
// symlinks resolved, so that every process names files the same way (the
// peer does not resolve symlinks).
func goplsFixtureCopy(b *testing.B) (ws, cfg, gopls string) {
	b.Helper()
	gopls = filepath.Join(toolsBin, "gopls")
	if _, err := os.Stat(gopls); err != nil {
		b.Fatalf("gopls missing: run make servers (%v)", err)
	}
	dir, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	ws = filepath.Join(dir, "go")
	if err := os.CopyFS(ws, os.DirFS(workspaceDir("go"))); err != nil {
		b.Fatal(err)
	}
	cfg = filepath.Join(b.TempDir(), "lspseam.yaml")
	if err := os.WriteFile(cfg, []byte("servers:\n  gopls:\n    command: "+gopls+"\n    extensionToLanguage: {.go: go}\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	return ws, cfg, gopls
}

// mcpSide is one MCP server process behind the SDK's client.
type mcpSide struct {
	name   string
	cmd    *exec.Cmd
	cs     *mcp.ClientSession
	stderr string // the file its stderr goes to
}

func startMCPSide(b *testing.B, name, dir, command string, args ...string) *mcpSide {
	b.Helper()
	s := &mcpSide{name: name, stderr: filepath.Join(b.TempDir(), name+".stderr")}
	errf, err := os.Create(s.stderr)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { errf.Close() })
	s.cmd = exec.Command(command, args...)
	s.cmd.Dir = dir
	s.cmd.Stderr = errf
	// The same environment for both; gopls needs the go command.
	s.cmd.Env = append(os.Environ(), "PATH="+filepath.Join(goroot, "bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
	client := mcp.NewClient(&mcp.Implementation{Name: "lspseam-peer-bench", Version: "0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s.cs, err = client.Connect(ctx, &mcp.CommandTransport{Command: s.cmd}, nil)
	if err != nil {
		s.fail(b, "connect", err)
	}
	b.Cleanup(func() { s.cs.Close() })
	return s
}

func (s *mcpSide) pid() int { return s.cmd.Process.Pid }

// call calls tool and returns its text; a tool error is an error.
func (s *mcpSide) call(tool string, args map[string]any) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return "", err
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if res.IsError {
		return "", fmt.Errorf("tool error: %s", text.String())
	}
	return text.String(), nil
}

func (s *mcpSide) fail(b *testing.B, what string, err error) {
	b.Helper()
	log, _ := os.ReadFile(s.stderr)
	if len(log) > 4000 {
		log = log[len(log)-4000:]
	}
	b.Fatalf("%s: %s: %v\n%s stderr (tail):\n%s", s.name, what, err, s.name, log)
}

// mentionsAll checks that text contains every string of want.
func mentionsAll(text string, want []string) error {
	for _, w := range want {
		if !strings.Contains(text, w) {
			return fmt.Errorf("answer does not mention %q:\n%s", w, text)
		}
	}
	return nil
}

// childRSS is the VmRSS in kB of pid's descendant processes named name
// (servers run under lspseam's supervisor, the peer's directly), summed,
// and how many there are.
func childRSS(b *testing.B, pid int, name string) (kb int64, n int) {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		comm, err := os.ReadFile(filepath.Join(d, "comm"))
		if err != nil || strings.TrimSpace(string(comm)) != name {
			continue
		}
		child, _ := strconv.Atoi(filepath.Base(d))
		if !isDescendant(pid, child) {
			continue
		}
		kb += vmRSS(b, child)
		n++
	}
	return kb, n
}
