package toolbox

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

var includeNameCases = []struct {
	line, want string
	ok         bool
}{
	{`#include "lib.h"`, "lib.h", true},
	{`#include <stdio.h>`, "stdio.h", true},
	{`#include "../cJSON.c"`, "../cJSON.c", true},
	{`#include <sys/types.h>`, "sys/types.h", true},
	{`  #  include   "lib.h"`, "lib.h", true},
	{"\t#include\t<lib.h>\r", "lib.h", true},
	{`#include"lib.h"`, "lib.h", true},
	{`#include_next <limits.h>`, "limits.h", true},
	{`#import "common.h"`, "common.h", true},
	{`#include "lib.h" // the library`, "lib.h", true},
	{`#include "lib.h>`, "lib.h", true}, // mismatched delimiters: still the name
	{`#include SRC`, "", false},         // computed: namesIncluded finds its #define
	{`#define SRC "cJSON.c"`, "", false},
	{`// #include "lib.h"`, "", false},
	{`/* x */ #include "lib.h"`, "", false},
	{`#includes "lib.h"`, "", false},
	{`#include ""`, "", false},
	{`include "lib.h"`, "", false},
	{``, "", false},
}

func TestIncludeName(t *testing.T) {
	for _, c := range includeNameCases {
		got, ok := includeName(c.line)
		if got != c.want || ok != c.ok {
			t.Errorf("includeName(%q) = %q, %v, want %q, %v", c.line, got, ok, c.want, c.ok)
		}
		if ok && !namesIncluded(c.line, path.Base(got)) {
			t.Errorf("includeName(%q) = %q, but namesIncluded does not find %q", c.line, got, path.Base(got))
		}
	}
}

// FuzzIncludeName: whatever file includeName reads from a line,
// namesIncluded (cincluders.go's backward reading) finds it there by its
// base name, so a file the forward reading includes is never missed by
// the backward one.
func FuzzIncludeName(f *testing.F) {
	for _, c := range includeNameCases {
		f.Add(c.line)
	}
	f.Fuzz(func(t *testing.T, line string) {
		name, ok := includeName(line)
		if !ok || strings.HasSuffix(name, "/") {
			return // a directory's name
		}
		if name == "" || !namesIncluded(line, path.Base(name)) {
			t.Errorf("includeName(%q) = %q, but namesIncluded does not find %q", line, name, path.Base(name))
		}
	})
}

func TestIncludedFiles(t *testing.T) {
	byName := map[string][]string{"lib.h": {"include/lib.h", "vendor/lib.h"}, "cJSON.c": {"cJSON.c"}}
	for _, c := range []struct {
		includer, name string
		want           []string
	}{
		{"src/main.c", "lib.h", []string{"include/lib.h", "vendor/lib.h", "src/lib.h"}},
		{"src/main.c", "sub/lib.h", []string{"include/lib.h", "vendor/lib.h", "src/sub/lib.h"}},
		{"tests/common.h", "../cJSON.c", []string{"cJSON.c", "cJSON.c"}},
		{"main.c", "../outside.h", nil},                        // beside, but outside the workspace
		{"src/main.c", "missing.h", []string{"src/missing.h"}}, // the caller finds it missing
		{"src/main.c", "..\\lib.h", []string{"src/..\\lib.h"}}, // a backslash is no separator here
	} {
		if got := includedFiles(byName, c.includer, c.name); !slices.Equal(got, c.want) {
			t.Errorf("includedFiles(%q, %q) = %q, want %q", c.includer, c.name, got, c.want)
		}
	}
}

// TestIncludeClosure: a unit's files are found by base name wherever
// they are (no include path is read), a file no server owns beside its
// includer too; a missing file, a system header and a commented-out
// #include add nothing.
func TestIncludeClosure(t *testing.T) {
	dir := t.TempDir()
	for rel, text := range map[string]string{
		"src/main.c":       "#include \"lib.h\"\n#include <stdio.h>\n#include \"missing.h\"\n// #include \"unused.h\"\n",
		"include/lib.h":    "#pragma once\n#include \"impl.inc\"\n",
		"include/impl.inc": "#include <lib.h>\n",
		"include/unused.h": "",
	} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := workspacefs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s := &includeSearch{r: r, texts: map[string]string{}, until: time.Now().Add(time.Minute),
		byName: map[string][]string{"main.c": {"src/main.c"}, "lib.h": {"include/lib.h"}, "unused.h": {"include/unused.h"}}}
	unit, why := s.closure(context.Background(), "src/main.c")
	if why != "" {
		t.Fatal(why)
	}
	var got []string
	for f := range unit {
		got = append(got, f)
	}
	slices.Sort(got)
	if want := []string{"include/impl.inc", "include/lib.h", "src/main.c"}; !slices.Equal(got, want) {
		t.Errorf("closure = %q, want %q", got, want)
	}
}
