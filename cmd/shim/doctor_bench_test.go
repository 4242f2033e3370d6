package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkDoctor10k: `lspseam doctor` in-process on a 10,000-file
// workspace (eight kinds of file in 300 directories, and a node_modules it
// skips) with the presets: the core loaded from the compilation cache, the
// census, a (fake) gopls asked its version, the report. Set
// LSPSEAM_CACHE_DIR to a warm cache to measure what a user's second run
// costs.
func BenchmarkDoctor10k(b *testing.B) {
	tmp := b.TempDir()
	ws := filepath.Join(tmp, "ws")
	exts := []string{".go", ".ts", ".py", ".md", ".txt", ".json", ".sh", ".c"}
	for i := 0; i < 10_000; i++ {
		p := filepath.Join(ws, fmt.Sprintf("pkg%02d/sub%d/f%d%s", i%100, i%3, i, exts[i%len(exts)]))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	nm := filepath.Join(ws, "node_modules", "dep")
	os.MkdirAll(nm, 0o755)
	for i := 0; i < 1000; i++ {
		os.WriteFile(filepath.Join(nm, fmt.Sprintf("m%d.js", i)), nil, 0o644)
	}
	path := filepath.Join(tmp, "path")
	os.MkdirAll(path, 0o755)
	os.WriteFile(filepath.Join(path, "gopls"), []byte("#!/bin/sh\necho golang.org/x/tools/gopls v0.23.0\n"), 0o755)
	b.Setenv("HOME", filepath.Join(tmp, "home"))
	b.Setenv("XDG_DATA_HOME", "")
	b.Setenv("LSPSEAM_STATE_DIR", filepath.Join(tmp, "state"))
	b.Setenv("PATH", path)
	if os.Getenv("LSPSEAM_CACHE_DIR") == "" {
		b.Setenv("LSPSEAM_CACHE_DIR", filepath.Join(tmp, "cache"))
	}
	var out strings.Builder
	run([]string{"doctor", "--workspace", ws}, nil, &out, io.Discard) // warms the compilation cache
	if !strings.Contains(out.String(), "10000 files looked at") || !strings.Contains(out.String(), "(golang.org/x/tools/gopls v0.23.0)") {
		b.Fatalf("doctor:\n%s", out.String())
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if code := run([]string{"doctor", "--workspace", ws}, nil, io.Discard, io.Discard); code != exitError {
			b.Fatalf("doctor exited %d; languages are missing", code)
		}
	}
}
