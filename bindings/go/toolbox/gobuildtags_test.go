package toolbox

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// TestExcludedUsersFollowEdits: which build-excluded files name a
// declaration is remembered per version of each file (size and
// modification time), so a file edited to name it (or to stop) answers
// the new way at once, even an edit of the same size in the same clock
// tick (workspacefs.RacyWindow).
func TestExcludedUsersFollowEdits(t *testing.T) {
	ws := t.TempDir()
	other := "windows"
	if runtime.GOOS == "windows" {
		other = "linux"
	}
	excluded := "lib_" + other + ".go"
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(ws, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("lib.go", "package lib\n\nfunc Target() {}\n")
	write(excluded, "package lib\n\nfunc other() {}\n")
	write("also.go", "package lib\n\nfunc also() { Target() }\n") // included: the server finds it
	r, err := workspacefs.Open(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var m goBuildMatches
	for _, step := range []struct {
		text string
		old  bool // modified an hour ago: remembered, not read again
		want []string
	}{
		{"package lib\n\nfunc other() {}\n", true, nil},
		{"package lib\n\nfunc other() { Target() }\n", true, []string{excluded}},
		{"package lib\n\nfunc other() { Target() }\n", true, []string{excluded}},
		// Just written, the same size: a new version all the same.
		{"package lib\n\nfunc other() { target() }\n", false, nil},
		{"package lib\n\nfunc other() { Target() }\n", false, []string{excluded}},
	} {
		write(excluded, step.text)
		if step.old {
			hourAgo := time.Now().Add(-time.Hour)
			if err := os.Chtimes(filepath.Join(ws, excluded), hourAgo, hourAgo); err != nil {
				t.Fatal(err)
			}
		}
		if got := m.excludedUsers(r, "lib.go", []string{"Target"}); !slices.Equal(got, step.want) {
			t.Errorf("with %s = %q: excluded users %q, want %q", excluded, step.text, got, step.want)
		}
	}
}

// TestGoImportPath: a workspace directory's package import path, from the
// nearest go.mod at or above it.
func TestGoImportPath(t *testing.T) {
	ws := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":             "// a comment\nmodule example.com/top\n\ngo 1.22\n",
		"nested/go.mod":      "module \"example.com/nested\"\n",
		"nested/deep/x.go":   "package deep\n",
		"bad/go.mod":         "go 1.22\n",
		"bad/pkg/x.go":       "package pkg\n",
		"modulename/go.mod":  "modulex example.com/no\n",
		"modulename/a/x.go":  "package a\n",
		"plain/sub/x.go":     "package sub\n",
		"nested/other/go.go": "package other\n",
	} {
		p := filepath.Join(ws, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := workspacefs.Open(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for dir, want := range map[string]string{
		".":            "example.com/top",
		"plain/sub":    "example.com/top/plain/sub",
		"nested":       "example.com/nested",
		"nested/deep":  "example.com/nested/deep",
		"bad/pkg":      "", // the nearest go.mod has no module line
		"modulename/a": "",
	} {
		if got := goImportPath(r, dir); got != want {
			t.Errorf("goImportPath(%q) = %q, want %q", dir, got, want)
		}
	}
}

// TestExcludedElsewhereFollowEdits: the list of the workspace's excluded
// files is walked at most every excludedListTTL, but a listed file edited
// within it is read in its new version: an excluded file of another
// package rewritten not to name the declaration stops naming it at once
// (with the walk's stamps, what was remembered of its old version said it
// still did, and code_delete refused).
func TestExcludedElsewhereFollowEdits(t *testing.T) {
	ws := t.TempDir()
	other := "windows"
	if runtime.GOOS == "windows" {
		other = "linux"
	}
	excluded := filepath.Join("cmd", "x_"+other+".go")
	write := func(name, text string, age time.Duration) {
		t.Helper()
		p := filepath.Join(ws, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		at := time.Now().Add(-age)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n\ngo 1.22\n", time.Hour)
	write("lib/lib.go", "package lib\n\nfunc Target() {}\n", time.Hour)
	write(excluded, "package main\n\nimport \"example.com/m/lib\"\n\nvar _ = lib.Target\n", time.Hour)
	r, err := workspacefs.Open(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var m goBuildMatches
	want := filepath.ToSlash(excluded)
	if got := m.excludedUsers(r, "lib/lib.go", []string{"Target"}); !slices.Equal(got, []string{want}) {
		t.Fatalf("excludedUsers = %v, want [%s]", got, want)
	}
	write(excluded, "package main\n\nimport \"example.com/m/lib\"\n\nvar _ = lib.Unrelated\n", 30*time.Minute)
	if got := m.excludedUsers(r, "lib/lib.go", []string{"Target"}); got != nil {
		t.Errorf("after the excluded file stopped naming Target (within the list's %v): excludedUsers = %v, want none", excludedListTTL, got)
	}
}
