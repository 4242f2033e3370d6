package localstdio

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// A bare command is looked up on the server's PATH first, then in the
// search directories in order; relative entries are never used.
func TestResolveCommandSearchOrder(t *testing.T) {
	onPath, first, second := t.TempDir(), t.TempDir(), t.TempDir()
	for _, dir := range []string{onPath, first, second} {
		os.WriteFile(filepath.Join(dir, "srv"), []byte("#!/bin/sh\n"), 0o755)
	}
	env := []string{"PATH=" + onPath}
	if p, _ := resolveCommand("srv", env, []string{first, second}); p != filepath.Join(onPath, "srv") {
		t.Errorf("PATH does not come first: %s", p)
	}
	if p, _ := resolveCommand("srv", nil, []string{"relative", "", first, second}); p != filepath.Join(first, "srv") {
		t.Errorf("search dirs not in order: %s", p)
	}
	_, notFound := resolveCommand("other", env, []string{first, second, first})
	if want := "other was not found on the server's PATH or in " + first + ", " + second; notFound != want {
		t.Errorf("got %q, want %q", notFound, want)
	}
}

func TestDefaultSearchDirs(t *testing.T) {
	if got := DefaultSearchDirs([]string{"HOME=/home/u", "XDG_DATA_HOME=/data"}); len(got) != 1 || got[0] != "/data/lspseam/bin" {
		t.Errorf("XDG_DATA_HOME: %q", got)
	}
	if got := DefaultSearchDirs([]string{"HOME=/home/u", "XDG_DATA_HOME=relative"}); len(got) != 1 || got[0] != "/home/u/.local/share/lspseam/bin" {
		t.Errorf("HOME: %q", got)
	}
	if got := DefaultSearchDirs([]string{}); len(got) != 0 {
		t.Errorf("no HOME: %q", got)
	}
}

// A program that depends on lspseam also searches the .tools/bin of the
// checkout its lspseam was compiled from and PREFIX/share/lspseam/bin
// beside the lspseam on PATH, in that order, before the data directory;
// without source paths (-trimpath), or outside a clone, only the latter.
func TestSearchDirsForDependentPrograms(t *testing.T) {
	checkout := t.TempDir()
	for _, f := range []string{".git/HEAD", "tools/servers/install.sh", "bindings/go/localstdio/searchdirs.go"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(checkout, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(checkout, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	source := filepath.Join(checkout, "bindings/go/localstdio/searchdirs.go")
	prefix := t.TempDir()
	if err := os.MkdirAll(filepath.Join(prefix, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(prefix, "bin", "lspseam"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=relative:/nonexistent:" + filepath.Join(prefix, "bin"), "HOME=/home/u"}
	want := []string{filepath.Join(checkout, ".tools", "bin"), filepath.Join(prefix, "share", "lspseam", "bin"), "/home/u/.local/share/lspseam/bin"}
	if got := searchDirs(env, source); !slices.Equal(got, want) {
		t.Errorf("a program built from a checkout:\n got %q\nwant %q", got, want)
	}
	if got := searchDirs(env, "github.com/lspseam/lspseam/bindings/go/localstdio/searchdirs.go"); !slices.Equal(got, want[1:]) {
		t.Errorf("-trimpath: %q", got)
	}
	if err := os.RemoveAll(filepath.Join(checkout, ".git")); err != nil {
		t.Fatal(err)
	}
	if got := searchDirs(env, source); !slices.Equal(got, want[1:]) {
		t.Errorf("sources outside a clone (a module cache): %q", got)
	}
	if got := searchDirs([]string{"HOME=/home/u"}, ""); !slices.Equal(got, want[2:]) {
		t.Errorf("a program of lspseam itself: %q", got)
	}
}

// Load keeps its contract: a missing server fails the table unless it is
// optional, and then it is left out.
func TestLoadOptionalServers(t *testing.T) {
	ctx := context.Background()
	c, err := lspseam.NewCore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	cfg := func(optional string) []byte {
		return []byte(`{"servers":{"sh":{"command":"/bin/sh","extensionToLanguage":{".sh":"sh"}},` +
			`"ghost":{"command":"no-such-server","extensionToLanguage":{".ghost":"ghost"}` + optional + `}}}`)
	}
	servers, _, err := Load(ctx, c, cfg(`,"optional":true`), []string{"PATH=/nonexistent"})
	if err != nil || len(servers) != 1 || servers[0].ID != "sh" {
		t.Errorf("optional: %v %v", servers, err)
	}
	_, _, err = Load(ctx, c, cfg(""), []string{"PATH=/nonexistent"})
	var lerr *lspseam.Error
	if !errors.As(err, &lerr) || lerr.Code != lspseam.CodeConfigInvalid || !strings.Contains(lerr.Message, "servers.ghost.command: no-such-server was not found on the server's PATH; give an absolute command path, or mark the server optional: true") {
		t.Errorf("not optional: %v", err)
	}
}

// One warning line names the missing optional servers (at most
// maxMissingNamed of them) and how to install them; a missing server's
// own message names its pinned package, and the caller's advice only for
// servers that advice installs.
func TestMissingSummary(t *testing.T) {
	ctx := context.Background()
	c, err := lspseam.NewCore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	opts := LoadOptions{HostEnv: []string{"PATH=/nonexistent"}, InstallAdvice: "run `make servers` in /src/lspseam"}
	table, err := LoadPresets(ctx, c, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(table.Servers) != 0 || len(table.Missing) < 20 {
		t.Fatalf("servers %d, missing %d", len(table.Servers), len(table.Missing))
	}
	got := table.MissingSummary()
	if !strings.HasPrefix(got, "optional language servers not installed, skipped: bashls (bash-language-server), buf, clangd, cmake (cmake-language-server), ") ||
		!strings.Contains(got, fmt.Sprintf(", and %d more; queries on their files answer LSP_UNAVAILABLE saying how to install each; to install the tested ones: run `make servers` in /src/lspseam; `lspseam doctor`", len(table.Missing)-maxMissingNamed)) {
		t.Errorf("several: %s", got)
	}
	byID := map[string]MissingServer{}
	for _, m := range table.Missing {
		byID[m.ID] = m
	}
	if got := byID["gopls"].Unavailable(); !strings.Contains(got, "To install it: run `make servers` in /src/lspseam, or go install golang.org/x/tools/gopls@v0.23.0; then start lspseam again.") {
		t.Errorf("gopls: %s", got)
	}
	// `make servers` cannot install rust-analyzer: its own advice only.
	if got := byID["rust-analyzer"].Unavailable(); !strings.Contains(got, "To install it: rustup component add rust-analyzer") || strings.Contains(got, "make servers") {
		t.Errorf("rust-analyzer: %s", got)
	}
	table.Missing = []MissingServer{byID["gopls"]}
	want := "optional language server not installed, skipped: gopls; queries on its files answer LSP_UNAVAILABLE; " +
		"to install it: run `make servers` in /src/lspseam, or go install golang.org/x/tools/gopls@v0.23.0"
	if got := table.MissingSummary(); got != want {
		t.Errorf("one:\n got %s\nwant %s", got, want)
	}
	table.Missing = nil
	if got := table.MissingSummary(); got != "" {
		t.Errorf("none: %q", got)
	}
}

// A search directory that another user could write to (here: under a
// directory writable by all, without the sticky bit) is not used.
func TestSearchDirWritableByOthersIsNotUsed(t *testing.T) {
	shared := filepath.Join(t.TempDir(), "shared")
	dir := filepath.Join(shared, "bin")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "srv"), []byte("#!/bin/sh\n"), 0o755)
	if p, notFound := resolveCommand("srv", nil, []string{dir}); p != filepath.Join(dir, "srv") {
		t.Fatalf("a safe directory is not used: %q", notFound)
	}
	if err := os.Chmod(shared, 0o777); err != nil {
		t.Fatal(err)
	}
	p, notFound := resolveCommand("srv", nil, []string{dir})
	if want := "srv was not found on the server's PATH or in " + dir + " (not used: " + shared + " is writable by other users)"; p != "" || notFound != want {
		t.Errorf("got %q %q, want %q", p, notFound, want)
	}
	if err := os.Chmod(shared, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	if p, notFound := resolveCommand("srv", nil, []string{dir}); p == "" {
		t.Errorf("a sticky directory (like /tmp) is refused: %q", notFound)
	}
}

func TestResolveExecutable(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "srv")
	os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(filepath.Join(dir, "noexec"), []byte("x"), 0o644)
	env := []string{"PATH=relative:" + dir}
	if p, problem := ResolveExecutable("srv", env); p != exe || problem != "" {
		t.Errorf("srv: %q %q", p, problem)
	}
	if p, problem := ResolveExecutable(exe, nil); p != exe || problem != "" {
		t.Errorf("absolute: %q %q", p, problem)
	}
	for _, cmd := range []string{"noexec", "missing", filepath.Join(dir, "noexec"), dir} {
		if _, problem := ResolveExecutable(cmd, env); problem == "" {
			t.Errorf("%s resolved", cmd)
		}
	}
}
