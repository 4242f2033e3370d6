package handshake

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lspseam/lspseam/core"
)

// committedFile is the generated file the Go binding embeds.
var committedFile = filepath.Join("..", "..", "bindings", "go", "handshake.json")

// TestCommittedFileIsFresh regenerates the file from the current core and
// compares it with the committed one, as cmd/wasm's freshness test does for
// core.wasm: a Core answers these inputs from the file without its module,
// so the file must be exactly what the core answers today.
func TestCommittedFileIsFresh(t *testing.T) {
	committed, err := os.ReadFile(committedFile)
	if err != nil {
		t.Fatalf("%v: run `make wasm` (or go generate ./bindings/go) and commit bindings/go/handshake.json", err)
	}
	if err := Check(committed, core.Toolsets, core.Call); err != nil {
		t.Fatal(err)
	}
}

// TestCheckFailsWhenTheCoreChanges: a core whose tool definitions differ
// from the committed file's (one description changed) is reported stale,
// naming the regeneration; so is one with a new toolset.
func TestCheckFailsWhenTheCoreChanges(t *testing.T) {
	committed, err := os.ReadFile(committedFile)
	if err != nil {
		t.Fatal(err)
	}
	changedDescription := func(method string, input []byte) []byte {
		env := core.Call(method, input)
		if method == "toolDefinitions" {
			env = bytes.Replace(env, []byte(`"description":"`), []byte(`"description":"Changed. `), 1)
		}
		return env
	}
	err = Check(committed, core.Toolsets, changedDescription)
	if err == nil || !strings.Contains(err.Error(), "stale") || !strings.Contains(err.Error(), "make wasm") {
		t.Fatalf("a changed description: Check = %v, want a stale error naming make wasm", err)
	}
	moreToolsets := append(slices.Clone(core.Toolsets), "new")
	newToolset := func(method string, input []byte) []byte {
		if method == "toolDefinitions" && bytes.Contains(input, []byte(`"new"`)) {
			return []byte(`{"ok":[]}`)
		}
		return core.Call(method, input)
	}
	if err := Check(committed, moreToolsets, newToolset); err == nil {
		t.Fatal("a new toolset: Check passed a file without it")
	}
	if err := Check(committed, core.Toolsets, core.Call); err != nil {
		t.Fatalf("the unchanged core: %v", err)
	}
}

// TestGenerateRefusesErrors: an input the core refuses is a generator
// failure, not an error envelope written into the file.
func TestGenerateRefusesErrors(t *testing.T) {
	_, err := Generate(core.Toolsets, func(string, []byte) []byte { return []byte(`{"error":{"code":"LSP_INTERNAL_ERROR","message":"x"}}`) })
	if err == nil {
		t.Fatal("Generate accepted an error envelope")
	}
}

// TestToolDefinitionsDependOnTheSetOnly checks what lets a host answer any
// list of known toolsets from the file: the core's answer depends only on
// the set named (not on order or repetition), and no list, [] or null
// means every toolset. The Go binding canonicalizes its input on this
// (bindings/go handshake.go); a core that broke it fails here.
func TestToolDefinitionsDependOnTheSetOnly(t *testing.T) {
	sets := core.Toolsets
	all := core.Call("toolDefinitions", ToolsetsInput(sets))
	for _, in := range []string{`{}`, `{"toolsets":null}`, `{"toolsets":[]}`} {
		if got := core.Call("toolDefinitions", []byte(in)); !bytes.Equal(got, all) {
			t.Errorf("%s answers differently from every toolset", in)
		}
	}
	var perm func(prefix, rest []string)
	perm = func(prefix, rest []string) {
		if len(prefix) > 0 {
			canon := canonical(prefix, sets)
			want := core.Call("toolDefinitions", ToolsetsInput(canon))
			for _, list := range [][]string{prefix, append(slices.Clone(prefix), prefix[0])} {
				if got := core.Call("toolDefinitions", ToolsetsInput(list)); !bytes.Equal(got, want) {
					t.Errorf("toolsets %v answer differently from %v", list, canon)
				}
			}
		}
		for i := range rest {
			next := append(slices.Clone(rest[:i]), rest[i+1:]...)
			perm(append(slices.Clone(prefix), rest[i]), next)
		}
	}
	perm(nil, sets)
}

// canonical lists the toolsets of list in the core's order, once each.
func canonical(list, order []string) []string {
	var out []string
	for _, s := range order {
		if slices.Contains(list, s) {
			out = append(out, s)
		}
	}
	return out
}

// TestFileIsJSON: the file parses, and each envelope is the core's bytes.
func TestFileIsJSON(t *testing.T) {
	data, err := Generate(core.Toolsets, core.Call)
	if err != nil {
		t.Fatal(err)
	}
	toolsets, answers, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(toolsets, core.Toolsets) || len(answers) != len(Inputs(core.Toolsets)) {
		t.Fatalf("toolsets %v, %d answers", toolsets, len(answers))
	}
	for _, a := range answers {
		if want := core.Call(a.Method, a.Input); !bytes.Equal(a.Envelope, want) {
			t.Errorf("%s %s: the envelope read back is not the core's bytes", a.Method, a.Input)
		}
	}
}
