// Command contractgen writes what the documents and the hosts spell of
// the core's contract: from its one ABI table, core.ABIMethods, the method
// table of docs/abi.md and the npm package's AbiMethods map
// (bindings/js/src/types.ts); from the core's tool definitions
// (core.ToolDefinitions), the tool table of docs/tools.md. Each is written
// between its "generated" markers; everything outside them is left as it
// is. `make wasm` runs it, as does `go generate ./core`.
//
//	go run ./cmd/contractgen [-check] [REPO]
//
// REPO is the repository's root (default: found from the working
// directory by its go.mod). With -check it writes nothing and exits 1
// naming each file that differs from what it would write.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	check := flag.Bool("check", false, "write nothing; exit 1 if a file is stale")
	flag.Parse()
	root, err := repoRoot(flag.Arg(0))
	if err == nil {
		err = run(root, *check)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "contractgen:", err)
		os.Exit(1)
	}
}

func run(root string, check bool) error {
	var stale []string
	for _, t := range targets {
		path := filepath.Join(root, t.path)
		old, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		block, err := t.render()
		if err != nil {
			return fmt.Errorf("%s: %w", t.path, err)
		}
		updated, err := replaceBlock(old, t.begin, t.end, block)
		if err != nil {
			return fmt.Errorf("%s: %w", t.path, err)
		}
		if bytes.Equal(old, updated) {
			continue
		}
		if check {
			stale = append(stale, t.path)
			continue
		}
		if err := os.WriteFile(path, updated, 0o644); err != nil {
			return err
		}
	}
	if len(stale) > 0 {
		return fmt.Errorf("stale: %v; run `go generate ./core` (or make wasm) and commit the result", stale)
	}
	return nil
}

// repoRoot is dir, or the nearest directory above the working directory
// that has a go.mod.
func repoRoot(dir string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	d, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", errors.New("no go.mod above the working directory; name the repository's root")
		}
		d = parent
	}
}

// replaceBlock replaces the lines strictly between the line containing
// begin and the next line containing end.
func replaceBlock(data []byte, begin, end string, block []byte) ([]byte, error) {
	i := bytes.Index(data, []byte(begin))
	if i < 0 {
		return nil, fmt.Errorf("no %q marker", begin)
	}
	start := i + bytes.IndexByte(data[i:], '\n') + 1
	j := bytes.Index(data[start:], []byte(end))
	if j < 0 {
		return nil, fmt.Errorf("no %q marker after %q", end, begin)
	}
	stop := start + bytes.LastIndexByte(data[start:start+j], '\n') + 1
	out := append([]byte(nil), data[:start]...)
	out = append(out, block...)
	return append(out, data[stop:]...), nil
}
