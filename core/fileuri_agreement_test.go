package core

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Every host names files by the same URIs: the core's FileURI (and
// WindowsFileURI) is the rule, and testdata/uri/fileuri.json is its
// answer for hostile paths — spaces, ( ) : ! and the other sub-delims, %,
// #, ?, non-ASCII in both Unicode normal forms (NFC and NFD spell two
// different files on Linux and must stay two), Windows drive and UNC
// paths. The npm package's fileUri is checked against the same file
// (bindings/js/test/uri.test.mjs); the shim reads URIs back with the
// core's FileURIPath. -update rewrites the file from the code.

// fileURICase is one row of testdata/uri/fileuri.json.
type fileURICase struct {
	Path    string `json:"path"`
	Windows bool   `json:"windows,omitempty"`
	URI     string `json:"uri"`
	// Back is the path the URI reads back as (Windows: separators and
	// dots normalized); the path itself when absent.
	Back string `json:"back,omitempty"`
}

var fileURIPaths = []struct {
	path    string
	windows bool
}{
	{"/src/a b(1):x/é!.go", false},
	{"/my w/a#b", false},
	{"/a/100%/x?y", false},
	{"/a/caf\u00e9.go", false},  // NFC
	{"/a/cafe\u0301.go", false}, // NFD: another file
	{"/a/日本/x.ts", false},
	{"/a/[x]{y}|z^`\\\"<>", false},
	{"/a/+,;=&$@'*~-._", false},
	{"/", false},
	{`C:\work\p`, true},
	{`c:\src\a b(1)\é.go`, true},
	{`C:/mixed\seps\.\x\..\y`, true},
	{`\\Server\share\x y#1`, true},
}

func TestFileURIAgreement(t *testing.T) {
	file := filepath.Join("..", "testdata", "uri", "fileuri.json")
	var got []fileURICase
	for _, p := range fileURIPaths {
		c := fileURICase{Path: p.path, Windows: p.windows}
		if p.windows {
			uri, ok := WindowsFileURI(p.path)
			if !ok {
				t.Fatalf("WindowsFileURI(%q) refused", p.path)
			}
			c.URI = uri
			back, ok := WindowsURIPath(uri)
			if !ok {
				t.Fatalf("WindowsURIPath(%q) refused", uri)
			}
			if back != p.path {
				c.Back = back
			}
		} else {
			c.URI = FileURI(p.path)
			back, ok := FileURIPath(c.URI)
			if !ok || back != p.path {
				t.Errorf("FileURIPath(%q) = %q, %v; want %q", c.URI, back, ok, p.path)
			}
		}
		got = append(got, c)
	}
	data, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, '\n')
	if *update {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (go test ./core -run TestFileURIAgreement -update writes it)", err)
	}
	if string(want) != string(data) {
		t.Errorf("%s is not what the core encodes (review, then -update):\n%s", file, data)
	}
	// The URIs of NFC and NFD spellings differ: two files stay two.
	if FileURI("/a/caf\u00e9.go") == FileURI("/a/cafe\u0301.go") {
		t.Error("NFC and NFD paths share a URI")
	}
}
