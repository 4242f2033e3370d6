package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkImpactRealCode measures what the cross-file part of an edit's
// diagnostics delta costs on real projects (issue 26): an `edit` through
// `lspseam serve` (presets) on the declaration line of a widely used
// exported function, whose dependents (the other files referencing it)
// are found and checked before and after, against an edit of the same
// size in the same file that touches no declaration, whose delta has no
// dependents. Nothing here fetches a project: name checkouts of them,
//
//	LSPSEAM_PEER_COBRA=/path/to/a/checkout/of/spf13/cobra
//	LSPSEAM_PEER_ZOD=/path/to/a/checkout/of/colinhacks/zod
//	LSPSEAM_E2E=1 go test -run '^$' -bench BenchmarkImpactRealCode -benchtime 10x ./e2e/
//
// (it fails, naming them, when either is unset). Each project is copied
// to a temporary directory first; the checkouts are not touched.
//
//   - cobra on gopls: `func (c *Command) Name() string {` in command.go,
//     with a trailing comment appended and then removed (the impact
//     edit), against a comment line inserted after Name's closing brace
//     and removed (the local edit).
//   - zod on typescript-language-server: zod's v4 sources
//     (packages/zod/src/v4 without its tests, which import vitest) with
//     the repository's compiler options (.configs/tsconfig.base.json), a
//     file set that type-checks without installing anything;
//     `joinValues` in core/util.ts, used by the error messages of every
//     locale, edited the same two ways.
//
// The two edits alternate (which goes first rotates), each answer is
// checked (the delta fresh, nothing stale, no new problems; the impact
// edit's other files checked, the local edit's none), and it reports the
// p50 of each, their ratio and how many other files the impact edit
// checked and left unchecked (maxDependents). It asserts no time.
func BenchmarkImpactRealCode(b *testing.B) {
	cobra, zod := os.Getenv("LSPSEAM_PEER_COBRA"), os.Getenv("LSPSEAM_PEER_ZOD")
	if cobra == "" || zod == "" {
		b.Fatalf("LSPSEAM_PEER_COBRA=%q, LSPSEAM_PEER_ZOD=%q: set both, to checkouts of spf13/cobra and colinhacks/zod", cobra, zod)
	}
	for _, c := range []struct {
		name, server string
		prepare      func(b *testing.B) string // the workspace copy
		file         string
		impact       verifyEdit // on a widely used declaration's line
		local        verifyEdit // between declarations
	}{
		{name: "cobra-gopls", server: "gopls",
			prepare: func(b *testing.B) string {
				if _, err := os.Stat(filepath.Join(cobra, "command.go")); err != nil {
					b.Fatalf("LSPSEAM_PEER_COBRA: %v", err)
				}
				return cobraCopy(b, cobra)
			},
			file:   "command.go",
			impact: verifyEdit{"func (c *Command) Name() string {", "func (c *Command) Name() string { // bench"},
			local: verifyEdit{"}\n\n// HasAlias determines if a given string is an alias of the command.",
				"}\n// bench\n\n// HasAlias determines if a given string is an alias of the command."}},
		{name: "zod-typescript", server: "typescript-language-server",
			prepare: func(b *testing.B) string { return zodV4Copy(b, zod) },
			file:    "src/v4/core/util.ts",
			impact: verifyEdit{`export function joinValues<T extends Primitive[]>(array: T, separator = "|"): string {`,
				`export function joinValues<T extends Primitive[]>(array: T, separator = "|"): string { // bench`},
			local: verifyEdit{"}\n\nexport function jsonStringifyReplacer(",
				"}\n// bench\n\nexport function jsonStringifyReplacer("}},
	} {
		if _, err := os.Stat(filepath.Join(toolsBin, c.server)); err != nil {
			b.Fatalf("%s missing: run make servers (%v)", c.server, err)
		}
		ws := c.prepare(b)
		text, err := os.ReadFile(filepath.Join(ws, c.file))
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range []verifyEdit{c.impact, c.local} {
			if strings.Count(string(text), e.OldString) != 1 {
				b.Fatalf("%s: %q is not in %s once: another version of the project?", c.name, e.OldString, c.file)
			}
		}
		srv := benchServe(b)
		if a := benchToolCall(b, srv, "read", jsonArgs(map[string]any{"file_path": c.file}), ws); a.IsError {
			b.Fatalf("read: %s", a.StructuredContent)
		}

		// tb is the benchmark the edits run in (the sub-benchmark's,
		// once timing): a failure must stop its goroutine.
		tb := b
		var checked, notChecked int // the impact edit's latest
		logged := map[bool]bool{}
		// While warming, a server still loading the project may leave
		// the references unasked (out of the impact's time): said, not
		// failed. Every timed answer must pass.
		warming := true
		fail := func(what string, a toolCallAnswer) {
			if warming {
				tb.Logf("%s, while warming: %s\n%s", c.name, what, a.Content[0].Text)
				return
			}
			tb.Fatalf("%s: %s: %s", c.name, what, a.StructuredContent)
		}
		// side edits the file one way (applied says whether the edit is
		// in the file now; each call flips it) and checks the answer.
		side := func(impact bool, e verifyEdit) func() {
			applied := false
			return func() {
				a := benchToolCall(tb, srv, "edit", editArgs(c.file, e, applied), ws)
				applied = !applied
				var r struct {
					editResult
					Diagnostics *struct {
						Files  []deltaFile `json:"files"`
						Counts struct {
							Introduced int `json:"introduced"`
						} `json:"counts"`
						Stale  []string      `json:"stale"`
						Others *impactOthers `json:"others"`
					} `json:"diagnostics"`
				}
				if err := json.Unmarshal(a.StructuredContent, &r); err != nil || a.IsError || r.Diagnostics == nil || r.Diagnostics.Others == nil {
					tb.Fatalf("%s, impact %v: no delta of other files (%v): %s", c.name, impact, err, a.StructuredContent)
				}
				if !logged[impact] {
					logged[impact] = true
					tb.Logf("%s, impact %v:\n%s", c.name, impact, a.Content[0].Text)
				}
				d, o := r.Diagnostics, r.Diagnostics.Others
				fresh := len(d.Files) > 0
				for _, f := range append(append([]deltaFile(nil), d.Files...), o.Files...) {
					fresh = fresh && f.Fresh
				}
				if !fresh || len(d.Stale) != 0 || len(o.Stale) != 0 || d.Counts.Introduced != 0 || o.Counts.Introduced != 0 {
					fail(fmt.Sprintf("impact %v: not fresh, stale or new problems", impact), a)
				}
				if impact {
					if o.Checked == 0 || o.Checked != len(o.Files) {
						fail("the impact edit checked no other file", a)
					}
					checked, notChecked = o.Checked, len(o.NotChecked)
				} else if o.Checked != 0 || len(o.Files) != 0 || len(o.NotChecked) != 0 || o.Unasked != 0 || o.InsideBodies != 0 {
					fail("the local edit has dependents", a)
				}
			}
		}
		sides := []func(){side(true, c.impact), side(false, c.local)}
		for i := 0; i < 4; i++ { // warm (an even count: back to the project's text)
			for _, f := range sides {
				f()
			}
		}
		warming = false

		b.Run(c.name, func(b *testing.B) {
			tb = b
			times := timeAlternated(b, sides, 1, 100*time.Millisecond)
			imp, loc := percentile(times[0], 0.5), percentile(times[1], 0.5)
			b.ReportMetric(float64(imp)/float64(loc), "impact/local-p50")
			b.ReportMetric(float64(imp.Microseconds())/1000, "impact-p50-ms")
			b.ReportMetric(float64(loc.Microseconds())/1000, "local-p50-ms")
			b.ReportMetric(float64(percentile(times[0], 0.9).Microseconds())/1000, "impact-p90-ms")
			b.ReportMetric(float64(percentile(times[1], 0.9).Microseconds())/1000, "local-p90-ms")
			b.ReportMetric(float64(checked), "others-checked")
			b.ReportMetric(float64(notChecked), "others-not-checked")
		})
		srv.shutdown(b)
	}
}

// zodV4Copy copies zod's v4 sources (packages/zod/src/v4 without its tests
// directories) and the repository's compiler options to a private
// directory, with a tsconfig.json that includes them: a project that
// type-checks without node_modules (its sources import only each other).
func zodV4Copy(b *testing.B, zod string) string {
	b.Helper()
	src := filepath.Join(zod, "packages", "zod", "src", "v4")
	base := filepath.Join(zod, ".configs", "tsconfig.base.json")
	for _, p := range []string{filepath.Join(src, "core", "util.ts"), base} {
		if _, err := os.Stat(p); err != nil {
			b.Fatalf("LSPSEAM_PEER_ZOD: %v", err)
		}
	}
	dir, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	ws := filepath.Join(dir, "zod")
	write := func(rel string, data []byte) {
		p := filepath.Join(ws, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	err = filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "tests" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".ts") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err == nil {
			rel, _ := filepath.Rel(src, p)
			write(filepath.Join("src", "v4", rel), data)
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(base)
	if err != nil {
		b.Fatal(err)
	}
	write(".configs/tsconfig.base.json", data)
	write("tsconfig.json", []byte(`{
  "extends": "./.configs/tsconfig.base.json",
  "compilerOptions": { "noEmit": true },
  "include": ["src/**/*.ts"]
}
`))
	return ws
}
