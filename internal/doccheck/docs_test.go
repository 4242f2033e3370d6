package doccheck

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/lspseam/lspseam/core"
)

// skipDirs are never the repository's own documents or code.
var skipDirs = map[string]bool{".git": true, "node_modules": true, ".tools": true, "bin": true, "dist": true, ".cache": true, ".build": true}

// repoFiles walks the checkout and returns the files (slash-separated,
// relative) whose name passes keep.
func repoFiles(t *testing.T, keep func(rel string) bool) []string {
	t.Helper()
	root := repoRoot(t)
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && skipDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.Type().IsRegular() && keep(rel) {
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRepositoryPointsOnlyToItself: the documents and code comments name
// no file the repository does not contain — the specification that lived
// outside it is docs/design.md now.
func TestRepositoryPointsOnlyToItself(t *testing.T) {
	// Spelled in pieces so that this file does not match itself.
	outside := []string{"DESIGN" + ".md", "../" + "shared", "shared" + " folder", "/work/" + "shared"}
	text := regexp.MustCompile(`(\.(md|go|ts|mjs|js|json|ya?ml|sh|mk|html)|Makefile|/run)$`)
	for _, rel := range repoFiles(t, func(rel string) bool { return text.MatchString(rel) && !strings.HasSuffix(rel, "package-lock.json") }) {
		data := readRepoFile(t, rel)
		for _, s := range outside {
			if i := strings.Index(data, s); i >= 0 {
				line := strings.Count(data[:i], "\n") + 1
				t.Errorf("%s:%d points outside the repository (%q); point to docs/design.md instead", rel, line, s)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(repoRoot(t), "docs", "design.md")); err != nil {
		t.Errorf("the design the code follows must be in the repository: %v", err)
	}
}

// TestMarkdownLinksResolve: every relative link in the repository's
// markdown files names a file or directory that exists, and a link's
// #anchor into a markdown file (or into its own file) names one of that
// file's headings, as GitHub spells their anchors.
func TestMarkdownLinksResolve(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	anchors := map[string]map[string]bool{} // by relative path
	anchorsOf := func(rel string) map[string]bool {
		if a, ok := anchors[rel]; ok {
			return a
		}
		a := headingAnchors(readRepoFile(t, rel))
		anchors[rel] = a
		return a
	}
	for _, rel := range repoFiles(t, func(rel string) bool { return strings.HasSuffix(rel, ".md") }) {
		data := readRepoFile(t, rel)
		for _, m := range link.FindAllStringSubmatchIndex(data, -1) {
			target := data[m[2]:m[3]]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			where := fmt.Sprintf("%s:%d", rel, strings.Count(data[:m[0]], "\n")+1)
			file, anchor, _ := strings.Cut(target, "#")
			targetRel := rel
			if file != "" {
				p := filepath.Join(repoRoot(t), filepath.Dir(rel), filepath.FromSlash(file))
				if _, err := os.Stat(p); err != nil {
					t.Errorf("%s links to %s, which the repository does not have", where, target)
					continue
				}
				r, err := filepath.Rel(repoRoot(t), p)
				if err != nil {
					t.Fatal(err)
				}
				targetRel = filepath.ToSlash(r)
			}
			if anchor != "" && strings.HasSuffix(targetRel, ".md") && !anchorsOf(targetRel)[anchor] {
				t.Errorf("%s links to %s, but %s has no heading with the anchor #%s", where, target, targetRel, anchor)
			}
		}
	}
}

// headingAnchors returns the anchors GitHub gives a markdown file's
// headings (outside code blocks): the heading's text without its inline
// markup, lowercased, with every character but letters, digits, spaces,
// hyphens and underscores dropped and spaces made hyphens; a repeated
// anchor gets -1, -2, ….
func headingAnchors(md string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	linkText := regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	fence := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") {
			fence = !fence
			continue
		}
		if fence || !strings.HasPrefix(line, "#") {
			continue
		}
		text := strings.TrimLeft(line, "#")
		if len(text) == len(line) || len(line)-len(text) > 6 || (text != "" && text[0] != ' ') {
			continue
		}
		text = linkText.ReplaceAllString(strings.TrimSpace(text), "$1")
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
				b.WriteRune(r)
			}
		}
		slug := b.String()
		if n := seen[slug]; n > 0 {
			out[fmt.Sprintf("%s-%d", slug, n)] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	}
	return out
}

// apache2 is the SHA-256 of the Apache License 2.0 as published (the text
// at apache.org/licenses/LICENSE-2.0.txt, Debian's
// /usr/share/common-licenses/Apache-2.0), with the appendix's
// "Copyright [yyyy] [name of copyright owner]" placeholder.
const apache2 = "cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30"

const copyrightLine = "   Copyright 2026 The lspseam authors\n"

// TestLicense: LICENSE is the standard Apache-2.0 text with the project's
// copyright line, the README points to it, and the npm package declares it.
func TestLicense(t *testing.T) {
	license := readRepoFile(t, "LICENSE")
	if !strings.Contains(license, copyrightLine) {
		t.Errorf("LICENSE lacks the copyright line %q", copyrightLine)
	}
	standard := strings.Replace(license, copyrightLine, "   Copyright [yyyy] [name of copyright owner]\n", 1)
	if sum := sha256.Sum256([]byte(standard)); hex.EncodeToString(sum[:]) != apache2 {
		t.Errorf("LICENSE is not the standard Apache License 2.0 text (SHA-256 %x, want %s with the copyright placeholder)", sum, apache2)
	}
	if !strings.Contains(readRepoFile(t, "README.md"), "](LICENSE)") {
		t.Error("README.md does not link to LICENSE")
	}
	var pkg struct {
		License string `json:"license"`
	}
	if err := json.Unmarshal([]byte(readRepoFile(t, "bindings/js/package.json")), &pkg); err != nil {
		t.Fatal(err)
	}
	if pkg.License != "Apache-2.0" {
		t.Errorf("bindings/js/package.json license = %q, want Apache-2.0", pkg.License)
	}
}

// TestREADMEOpensWithQuickStart: a newcomer meets a user's path before
// any internals — a first answer (make demo), the install, and a ready MCP
// configuration for each common client that names the project
// (--workspace) and the toolsets (--tools) — and the contributor's test
// run in its own section.
func TestREADMEOpensWithQuickStart(t *testing.T) {
	readme := readRepoFile(t, "README.md")
	h2 := regexp.MustCompile(`(?m)^## (.+)$`).FindAllStringSubmatchIndex(readme, -1)
	if len(h2) < 2 || readme[h2[0][2]:h2[0][3]] != "Quick start" {
		t.Fatalf("README.md's first section must be \"## Quick start\"")
	}
	quick := readme[h2[0][1]:h2[1][0]]
	shell := fencedBlocks(quick, "sh")
	if len(shell) < 2 {
		t.Fatalf("the Quick start has %d sh blocks, want the set-up and Claude Code's command", len(shell))
	}
	if cmds := commandLines(shell[0].text); len(cmds) < 3 || cmds[0] != "make demo" || !slices.Contains(cmds, "make install") || !slices.Contains(cmds, "make servers") {
		t.Errorf("the Quick start's first commands are %q, want make demo, then make install and make servers", cmds)
	}
	for _, b := range shell {
		for _, cmd := range commandLines(b.text) {
			if strings.HasPrefix(cmd, "make ") && strings.HasSuffix(cmd, " test") {
				t.Errorf("the Quick start runs the tests (%q); that is the contributor's section", cmd)
			}
		}
	}

	// Each client's configuration runs `lspseam mcp` with --workspace DIR
	// and --tools LIST, and needs no --config.
	checkArgs := func(where string, args []string) {
		t.Helper()
		flags := map[string]string{}
		for i := 1; i+1 < len(args); i += 2 {
			flags[args[i]] = args[i+1]
		}
		if len(args) == 0 || args[0] != "mcp" || flags["--workspace"] == "" || flags["--tools"] == "" || flags["--config"] != "" {
			t.Errorf("%s: lspseam's arguments %q, want mcp --workspace DIR --tools LIST (no --config)", where, args)
		}
		for _, ts := range strings.Split(flags["--tools"], ",") {
			if !slices.Contains(core.Toolsets, ts) {
				t.Errorf("%s: --tools names %q, not a toolset", where, ts)
			}
		}
	}
	claude := ""
	for _, b := range shell {
		for _, cmd := range commandLines(b.text) {
			if strings.HasPrefix(cmd, "claude mcp add ") {
				claude = cmd
			}
		}
	}
	if _, server, ok := strings.Cut(claude, " -- "); !ok {
		t.Errorf("the Quick start has no `claude mcp add … -- lspseam mcp …` command for Claude Code")
	} else if words := strings.Fields(server); !strings.HasSuffix(words[0], "/lspseam") {
		t.Errorf("Claude Code's command runs %q, not lspseam", words[0])
	} else {
		checkArgs("Claude Code", words[1:])
	}
	configs := fencedBlocks(quick, "json")
	offset := strings.Count(readme[:h2[0][1]], "\n") // block lines are the Quick start's
	for i := range configs {
		configs[i].line += offset
	}
	if len(configs) < 3 {
		t.Errorf("the Quick start has %d JSON configurations, want Claude Desktop's, Cursor's and the generic mcpServers one", len(configs))
	}
	for _, b := range configs {
		var cfg struct {
			MCPServers map[string]struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
			} `json:"mcpServers"`
		}
		if err := json.Unmarshal([]byte(b.text), &cfg); err != nil {
			t.Errorf("README.md line %d: not JSON: %v", b.line, err)
			continue
		}
		server, ok := cfg.MCPServers["lspseam"]
		if !ok || !filepath.IsAbs(server.Command) || filepath.Base(server.Command) != "lspseam" {
			t.Errorf("README.md line %d: want mcpServers.lspseam with the absolute path of lspseam as command: %+v", b.line, cfg)
			continue
		}
		checkArgs(fmt.Sprintf("README.md line %d", b.line), server.Args)
	}
	for _, file := range []string{"claude_desktop_config.json", ".cursor/mcp.json", "mcpServers"} {
		if !strings.Contains(quick, "`"+file+"`") {
			t.Errorf("the Quick start does not name `%s`", file)
		}
	}

	// The contributor's test run, with what it costs.
	i := strings.Index(readme, "\n## Contributing: running the tests\n")
	if i < 0 {
		t.Fatal("README.md has no \"## Contributing: running the tests\" section")
	}
	contributing := readme[i+1:]
	if j := strings.Index(contributing[3:], "\n## "); j >= 0 {
		contributing = contributing[:j+3]
	}
	found := false
	for _, b := range fencedBlocks(contributing, "sh") {
		for _, cmd := range commandLines(b.text) {
			found = found || (strings.HasPrefix(cmd, "make ") && strings.HasSuffix(cmd, " test"))
		}
	}
	if !found || !strings.Contains(contributing, "minutes") {
		t.Errorf("the Contributing section lacks the test command (make … test) or how long it takes")
	}

}

// readmeMaxLines bounds the README: what lspseam is, the Quick start,
// choosing a surface, the table of contents, the tests' command and the
// license; everything else is in docs/.
const readmeMaxLines = 400

// TestREADMEIsATableOfContents: the README stays short and links every
// document under docs/, and every surface's paragraph links its document.
func TestREADMEIsATableOfContents(t *testing.T) {
	readme := readRepoFile(t, "README.md")
	if n := strings.Count(readme, "\n"); n > readmeMaxLines {
		t.Errorf("README.md has %d lines, want at most %d: move the detail into docs/ and link it", n, readmeMaxLines)
	}
	for _, rel := range docFiles(t) {
		if !strings.Contains(readme, "]("+rel+")") {
			t.Errorf("README.md's table of contents does not link %s", rel)
		}
	}
	for _, h := range []string{"## Quick start", "## Choosing a surface", "## Documentation", "## Contributing: running the tests", "## License"} {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(h) + `$`).MatchString(readme) {
			t.Errorf("README.md has no %q section", h)
		}
	}
	// Implementer material is in docs/, not in the README.
	for _, later := range []string{"## The core module's ABI", "## Performance", "## Layout"} {
		if strings.Contains(readme, "\n"+later+"\n") {
			t.Errorf("README.md has %q; it belongs in docs/", later)
		}
	}
}

// TestDesignNamesWhatTheCodeHas: docs/design.md names every error code
// (core and JavaScript-only), every ABI method, every configuration field
// and every entry of the servers' environment allowlist, and marks what
// is planned.
func TestDesignNamesWhatTheCodeHas(t *testing.T) {
	design := readRepoFile(t, "docs/design.md")
	named := func(what, name string) {
		if !strings.Contains(design, "`"+name+"`") {
			t.Errorf("docs/design.md does not name %s `%s`", what, name)
		}
	}
	quoted := regexp.MustCompile(`"([^"]+)"`)

	codes := regexp.MustCompile(`Code = "(LSP_[A-Z_]+)"`).FindAllStringSubmatch(readRepoFile(t, "core/errors.go"), -1)
	jsCodes := regexp.MustCompile(`(?m)^  (LSP_[A-Z_]+): true,$`).FindAllStringSubmatch(readRepoFile(t, "bindings/js/src/errors.ts"), -1)
	if len(codes) < 18 || len(jsCodes) < len(codes) {
		t.Fatalf("found %d core codes and %d JS codes: the patterns no longer match core/errors.go and bindings/js/src/errors.ts", len(codes), len(jsCodes))
	}
	for _, m := range append(codes, jsCodes...) {
		named("error code", m[1])
	}
	for _, m := range core.Methods {
		named("ABI method", m)
	}
	for _, typ := range []reflect.Type{reflect.TypeOf(core.Config{}), reflect.TypeOf(core.ServerConfig{})} {
		for i := 0; i < typ.NumField(); i++ {
			if tag, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ","); tag != "" && tag != "-" {
				named("configuration field", tag)
			}
		}
	}

	env := readRepoFile(t, "bindings/go/localstdio/env.go")
	section := func(start string) string {
		i := strings.Index(env, start)
		if i < 0 {
			t.Fatalf("bindings/go/localstdio/env.go has no %q", start)
		}
		rest := env[i:]
		if line, _, _ := strings.Cut(rest, "\n"); strings.HasSuffix(line, "}") {
			return line // a one-line declaration
		}
		j := strings.Index(rest, "\n}")
		return rest[:j]
	}
	lists := regexp.MustCompile(`(?m)^var [a-z]+Names = \[\]string\{`).FindAllString(env, -1)
	if len(lists) < 6 {
		t.Fatalf("found %d allowlists (var xNames = []string{) in bindings/go/localstdio/env.go: the pattern no longer matches", len(lists))
	}
	for _, list := range lists {
		for _, m := range quoted.FindAllStringSubmatch(section(list), -1) {
			named("allowed environment variable", m[1])
		}
	}
	for _, m := range regexp.MustCompile(`(?m)^\t"([^"]+)":`).FindAllStringSubmatch(section("var toolchainsOf"), -1) {
		named("command with its own toolchain variables", m[1])
	}
	for _, m := range quoted.FindAllStringSubmatch(section("var credentialWords"), -1) {
		named("credential word", m[1])
	}

	if !strings.Contains(design, "## Planned (not built)") {
		t.Error("docs/design.md must mark the sections that are planned, not built, with \"## Planned (not built)\"")
	}
}
