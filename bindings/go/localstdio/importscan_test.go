package localstdio

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMayImport: which files outside a project may import the searched
// file, from their import specifiers.
func TestMayImport(t *testing.T) {
	ws := t.TempDir()
	target := filepath.Join(ws, "pa", "src", "lib.ts")
	index := filepath.Join(ws, "pa", "src", "util", "index.ts")
	for _, c := range []struct {
		name, text string
		target     string
		want       bool
	}{
		{"relative to the file", `import { greet } from "../../pa/src/lib";`, target, true},
		{"relative with extension", `import { greet } from "../../pa/src/lib.js";`, target, true},
		{"a directory above it (a barrel)", `export * from "../../pa/src";`, target, true},
		{"an index file's directory", `import u from "../../pa/src/util";`, index, true},
		{"require", `const { greet } = require("../../pa/src/lib")`, target, true},
		{"dynamic import", `const m = await import('../../pa/src/lib');`, target, true},
		{"its package", `import { greet } from "pa";`, target, true},
		{"a path in its package", `import { greet } from "pa/src/lib";`, target, true},
		{"an alias ending in its name", `import { greet } from "@/src/lib";`, target, true},
		{"its own sibling of the same name", `import { greet } from "./lib";`, target, false},
		{"another package", `import React from "react";`, target, false},
		{"another package of the same base name", `import lib from "lib";`, target, false},
		{"no imports", `export const x = 1;`, target, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			importer := filepath.Join(ws, "pb", "src", "app.ts")
			if err := os.MkdirAll(filepath.Dir(importer), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(importer, []byte(c.text+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			var s importScans
			if got := s.mayImport(importer, c.target, "pa"); got != c.want {
				t.Errorf("mayImport(%q) = %v, want %v", c.text, got, c.want)
			}
		})
	}
	var s importScans
	if !s.mayImport(filepath.Join(ws, "missing.ts"), target, "pa") {
		t.Error("a file that cannot be read does not count as a possible importer")
	}
}
