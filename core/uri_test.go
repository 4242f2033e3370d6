package core

import (
	"path"
	"testing"
)

// FuzzIsClean checks FileURIPath's shortcut: a path isClean accepts is one
// path.Clean leaves as it is.
func FuzzIsClean(f *testing.F) {
	for _, p := range []string{"/", "//", "/a", "/a/", "/a//b", "/a/./b", "/a/../b", "/.git/x", "/a/b.go", "/a/.", "/a/.."} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if len(p) == 0 || p[0] != '/' {
			return
		}
		if isClean(p) && path.Clean(p) != p {
			t.Fatalf("isClean(%q) but path.Clean gives %q", p, path.Clean(p))
		}
	})
}
