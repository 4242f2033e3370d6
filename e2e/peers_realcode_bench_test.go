package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Side-by-side benchmarks on real code: `lspseam mcp` against the peers
// isaacphi/mcp-language-server (mls) and blackwell-systems/agent-lsp on a
// checkout of spf13/cobra, all on the same gopls. Nothing here fetches or
// builds a peer: build them yourself and name what you built:
//
//	LSPSEAM_PEER_MCP=/path/to/mcp-language-server      (optional)
//	LSPSEAM_PEER_AGENTLSP=/path/to/agent-lsp           (optional; one peer at least)
//	LSPSEAM_PEER_COBRA=/path/to/a/checkout/of/spf13/cobra
//	go test -run '^$' -bench 'BenchmarkPeersOnCobra' -benchtime 20x ./e2e/
//	go test -run '^$' -bench 'BenchmarkPeersFirstRun' -benchtime 1x ./e2e/
//
// The questions are about cobra's 2,072-line command.go and 144-line
// args.go (commit adbc881; any recent one has them): hover on
// HasSubCommands in each, references to Command.IsAvailableCommand, and its
// definition with its body. Each peer is asked its own way of asking the
// same question (mls and lspseam by name where they can; agent-lsp at the
// position, since its references and its source of a symbol take one),
// and every answer is checked.

// peerSpec is one MCP server under comparison and how to start it.
type peerSpec struct {
	name string
	bin  string
	args func(ws, gopls string) []string
}

// cobraPeers returns the sides the environment names, lspseam first, and
// the cobra checkout; it skips the benchmark when no peer or no checkout
// is named.
func cobraPeers(b *testing.B) (sides []peerSpec, cobra string) {
	b.Helper()
	cobra = os.Getenv("LSPSEAM_PEER_COBRA")
	if cobra == "" {
		b.Skip("LSPSEAM_PEER_COBRA is unset: set it to a checkout of spf13/cobra (and LSPSEAM_PEER_MCP and/or LSPSEAM_PEER_AGENTLSP to built peers)")
	}
	if _, err := os.Stat(filepath.Join(cobra, "command.go")); err != nil {
		b.Fatalf("LSPSEAM_PEER_COBRA: %v", err)
	}
	sides = append(sides, peerSpec{"lspseam", shimPath, func(ws, gopls string) []string {
		cfg := filepath.Join(b.TempDir(), "lspseam.yaml")
		if err := os.WriteFile(cfg, []byte("servers:\n  gopls:\n    command: "+gopls+"\n    extensionToLanguage: {.go: go}\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		return []string{"mcp", "--workspace", ws, "--config", cfg}
	}})
	if bin := os.Getenv("LSPSEAM_PEER_MCP"); bin != "" {
		sides = append(sides, peerSpec{"mls", bin, func(ws, gopls string) []string { return []string{"--workspace", ws, "--lsp", gopls} }})
	}
	if bin := os.Getenv("LSPSEAM_PEER_AGENTLSP"); bin != "" {
		sides = append(sides, peerSpec{"agent-lsp", bin, func(ws, gopls string) []string { return []string{"go:" + gopls} }})
	}
	if len(sides) == 1 {
		b.Skip("neither LSPSEAM_PEER_MCP nor LSPSEAM_PEER_AGENTLSP is set: nothing to compare with")
	}
	for _, s := range sides[1:] {
		if _, err := os.Stat(s.bin); err != nil {
			b.Fatalf("%s: %v", s.name, err)
		}
	}
	return sides, cobra
}

// cobraCopy copies the checkout (without .git) to a private directory with
// its symlinks resolved, so that every process names files the same way.
func cobraCopy(b *testing.B, cobra string) string {
	b.Helper()
	dir, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	ws := filepath.Join(dir, "cobra")
	err = filepath.WalkDir(cobra, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(cobra, p)
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(ws, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(ws, rel), data, 0o644)
	})
	if err != nil {
		b.Fatal(err)
	}
	return ws
}

// cobraQuestion is one question, asked of each side its own way.
type cobraQuestion struct {
	name string
	ask  map[string]cobraAsk // by side name
}

type cobraAsk struct {
	tool string
	args map[string]any
	want []string // what the answer must mention
	// count, when set, must find the same number of matches in every
	// side's answer (the references each found).
	count *regexp.Regexp
	// declarationLeftOut: the side's references leave the declaration
	// out, so its count is one less.
	declarationLeftOut bool
}

func cobraQuestions(ws string) []cobraQuestion {
	cmdGo, argsGo := filepath.Join(ws, "command.go"), filepath.Join(ws, "args.go")
	hoverWant := []string{"func (c *Command) HasSubCommands() bool"}
	hover := func(name, rel, abs string, line, col int) cobraQuestion {
		return cobraQuestion{name: name, ask: map[string]cobraAsk{
			"lspseam":   {tool: "lsp", args: map[string]any{"operation": "hover", "file_path": rel, "line": line, "character": col}, want: hoverWant},
			"mls":       {tool: "hover", args: map[string]any{"filePath": abs, "line": line, "column": col}, want: hoverWant},
			"agent-lsp": {tool: "inspect_symbol", args: map[string]any{"file_path": abs, "line": line, "column": col}, want: hoverWant},
		}}
	}
	return []cobraQuestion{
		// `	if !cmd.HasSubCommands() {`, args.go:30, and `	if !c.HasSubCommands() {`, command.go:1264.
		hover("hover-144-lines", "args.go", argsGo, 30, 10),
		hover("hover-2000-lines", "command.go", cmdGo, 1264, 8),
		{name: "references-by-name", ask: map[string]cobraAsk{
			"lspseam": {tool: "code_navigate", args: map[string]any{"target": map[string]any{"path": "command.go", "symbol": "Command.IsAvailableCommand"}, "kind": "references", "limit": 200},
				want: []string{"command.go"}, count: regexp.MustCompile(`(?m)^  \d+:\d+ `)},
			"mls": {tool: "references", args: map[string]any{"symbolName": "Command.IsAvailableCommand"},
				want: []string{cmdGo}, count: regexp.MustCompile(`L\d+:C\d+`), declarationLeftOut: true},
			// func (c *Command) IsAvailableCommand() bool, command.go:1607:19.
			"agent-lsp": {tool: "find_references", args: map[string]any{"file_path": cmdGo, "line": 1607, "column": 19, "include_declaration": true},
				// Its default output is its GCF format: one "@N" line per reference.
				want: []string{"tool=find_references"}, count: regexp.MustCompile(`(?m)^@\d+ `)},
		}},
		{name: "definition-with-body", ask: map[string]cobraAsk{
			"lspseam": {tool: "code_navigate", args: map[string]any{"target": map[string]any{"path": "command.go", "line": 866, "matchText": "IsAvailableCommand"}, "kind": "definition", "includeBody": true},
				want: []string{"func (c *Command) IsAvailableCommand() bool", "if c.HasParent() && c.Parent().helpCommand == c {"}},
			"mls": {tool: "definition", args: map[string]any{"symbolName": "Command.IsAvailableCommand"},
				want: []string{"func (c *Command) IsAvailableCommand() bool", "if c.HasParent() && c.Parent().helpCommand == c {"}},
			// agent-lsp's go_to_symbol answers a location without the
			// file's name or the body; get_symbol_source gives the body,
			// at the declaration's position.
			"agent-lsp": {tool: "get_symbol_source", args: map[string]any{"file_path": cmdGo, "line": 1607, "column": 19},
				want: []string{"func (c *Command) IsAvailableCommand() bool", "if c.HasParent() && c.Parent().helpCommand == c {"}},
		}},
	}
}

// BenchmarkPeersOnCobra: warm calls, alternated between the sides, and
// the first call after an idle pause (lspseam's core released after 3 s).
// Reports each side's p50 and lspseam's ratio to the fastest peer.
func BenchmarkPeersOnCobra(b *testing.B) {
	specs, cobra := cobraPeers(b)
	ws := cobraCopy(b, cobra)
	gopls := filepath.Join(toolsBin, "gopls")
	b.Setenv("LSPSEAM_CORE_RELEASE_AFTER", "3s")
	var sides []*mcpSide
	for _, s := range specs {
		sides = append(sides, startMCPSide(b, s.name, ws, s.bin, s.args(ws, gopls)...))
	}
	questions := cobraQuestions(ws)
	// Warm every side: repeat until two answers in a row agree and check
	// them; references must count the same on every side.
	for _, q := range questions {
		counts := map[string]int{}
		for _, s := range sides {
			a := q.ask[s.name]
			var last string
			for i := 0; ; i++ {
				text, err := s.call(a.tool, a.args)
				if err == nil && i >= 2 && text == last {
					break
				}
				if i == 60 {
					if err == nil {
						err = fmt.Errorf("answer still changing: %q", text)
					}
					s.fail(b, q.name, err)
				}
				last = text
				time.Sleep(250 * time.Millisecond)
			}
			if err := mentionsAll(last, a.want); err != nil {
				s.fail(b, q.name, err)
			}
			if a.count != nil {
				counts[s.name] = len(a.count.FindAllString(last, -1))
				if a.declarationLeftOut {
					counts[s.name]++
				}
			}
		}
		if len(counts) > 0 {
			for name, n := range counts {
				if n != counts["lspseam"] {
					b.Fatalf("%s: %s found %d references, lspseam %d (%v)", q.name, name, n, counts["lspseam"], counts)
				}
			}
		}
	}
	timed := func(s *mcpSide, q cobraQuestion) time.Duration {
		a := q.ask[s.name]
		t0 := time.Now()
		text, err := s.call(a.tool, a.args)
		d := time.Since(t0)
		if err == nil {
			err = mentionsAll(text, a.want)
		}
		if err != nil {
			s.fail(b, q.name, err)
		}
		return d
	}
	report := func(b *testing.B, times map[string][]time.Duration) {
		fastest := time.Duration(0)
		for _, s := range sides {
			p := percentile(times[s.name], 0.5)
			b.ReportMetric(float64(p)/1e6, s.name+"-p50-ms")
			if s.name != "lspseam" && (fastest == 0 || p < fastest) {
				fastest = p
			}
		}
		b.ReportMetric(float64(percentile(times["lspseam"], 0.5))/float64(fastest), "ratio-to-fastest-peer")
	}
	for _, q := range questions {
		b.Run(q.name, func(b *testing.B) {
			times := map[string][]time.Duration{}
			for i := 0; i < b.N; i++ {
				// Rotate who goes first; let background work settle.
				for j := range sides {
					s := sides[(i+j)%len(sides)]
					time.Sleep(30 * time.Millisecond)
					times[s.name] = append(times[s.name], timed(s, q))
				}
			}
			report(b, times)
		})
	}
	// The first call after a pause longer than lspseam's release delay.
	hover := questions[1]
	b.Run("hover-after-idle", func(b *testing.B) {
		times := map[string][]time.Duration{}
		for i := 0; i < b.N; i++ {
			time.Sleep(4 * time.Second)
			for j := range sides {
				s := sides[(i+j)%len(sides)]
				times[s.name] = append(times[s.name], timed(s, hover))
			}
		}
		report(b, times)
	})
}

// BenchmarkPeersFirstRun: from spawning each side, with empty caches (its
// own empty XDG_CACHE_HOME, so gopls's and the Go build cache, and for
// lspseam its compiled core), to the first correct answer to the
// references question. One side at a time. Run with -benchtime 1x.
func BenchmarkPeersFirstRun(b *testing.B) {
	specs, cobra := cobraPeers(b)
	gopls := filepath.Join(toolsBin, "gopls")
	times := map[string][]time.Duration{}
	for i := 0; i < b.N; i++ {
		for _, spec := range specs {
			ws := cobraCopy(b, cobra)
			q := cobraQuestions(ws)[2]
			a := q.ask[spec.name]
			cache := b.TempDir()
			b.Setenv("XDG_CACHE_HOME", cache)
			b.Setenv("LSPSEAM_CACHE_DIR", filepath.Join(cache, "lspseam"))
			t0 := time.Now()
			s := startMCPSide(b, spec.name, ws, spec.bin, spec.args(ws, gopls)...)
			for {
				text, err := s.call(a.tool, a.args)
				if err == nil && mentionsAll(text, a.want) == nil && !strings.Contains(text, "incomplete") {
					break
				}
				if time.Since(t0) > 5*time.Minute {
					s.fail(b, "first run", fmt.Errorf("no complete answer after 5 minutes: %v %q", err, text))
				}
				time.Sleep(100 * time.Millisecond)
			}
			times[spec.name] = append(times[spec.name], time.Since(t0))
			s.cs.Close()
		}
	}
	fastest := time.Duration(0)
	for _, spec := range specs {
		p := percentile(times[spec.name], 0.5)
		b.ReportMetric(float64(p)/1e6, spec.name+"-first-answer-ms")
		if spec.name != "lspseam" && (fastest == 0 || p < fastest) {
			fastest = p
		}
	}
	b.ReportMetric(float64(percentile(times["lspseam"], 0.5))/float64(fastest), "ratio-to-fastest-peer")
}
