package localstdio

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lspseam/lspseam/bindings/go/toolbox"
)

// Resource operations (create, rename, delete files) in a server's
// WorkspaceEdit, replayed in the edit's order by the applier, and
// code_rename_file over workspace/willRenameFiles.

func TestToolboxAppliesResourceOperations(t *testing.T) {
	f := newFake(t, nil, nil)
	f.cleanPull = true // not about the change's diagnostics
	caps := map[string]any{"textDocumentSync": 1, "documentSymbolProvider": true, "renameProvider": true}
	rng := func(l0, c0, l1, c1 int) map[string]any {
		return map[string]any{"start": map[string]any{"line": l0, "character": c0}, "end": map[string]any{"line": l1, "character": c1}}
	}
	textEdit := func(file string, r map[string]any, text string) map[string]any {
		return map[string]any{"textDocument": map[string]any{"uri": f.uri(file), "version": nil}, "edits": []any{map[string]any{"range": r, "newText": text}}}
	}
	script := func(changes ...any) map[string]any {
		return map[string]any{"capabilities": caps, "methods": map[string]any{
			"textDocument/documentSymbol": map[string]any{"result": symbolsOfA},
			"textDocument/rename":         map[string]any{"result": map[string]any{"documentChanges": changes}},
		}}
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(f.ws, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(name string) (string, bool) {
		b, err := os.ReadFile(filepath.Join(f.ws, name))
		return string(b), err == nil
	}
	restart := func(s map[string]any) {
		f.setScript(s)
		restartFake(t, f)
	}
	args := `{"target":{"path":"a.go","symbol":"A"},"newName":"Z"}`
	write("d.go", "package a\n\n// doomed\n")
	os.Remove(filepath.Join(f.ws, "b.go"))

	// Edit a.go, create b.go and fill it, move a.go to sub/c.go, delete
	// d.go: one change, previewed first.
	f.setScript(script(
		textEdit("a.go", rng(2, 5, 2, 6), "Z"),
		map[string]any{"kind": "create", "uri": f.uri("b.go")},
		textEdit("b.go", rng(0, 0, 0, 0), "package a\n"),
		map[string]any{"kind": "rename", "oldUri": f.uri("a.go"), "newUri": f.uri("sub/c.go")},
		map[string]any{"kind": "delete", "uri": f.uri("d.go")},
	))
	tb := f.toolbox()
	res, s := f.call(tb, "code_rename", args)
	id, _ := s["previewId"].(string)
	for _, want := range []string{"rename a.go → sub/c.go", "create b.go", "delete d.go", "+func Z() {}", "+package a"} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("preview lacks %q:\n%s", want, res.Text)
		}
	}
	if _, ok := read("b.go"); ok || id == "" {
		t.Fatalf("the preview created b.go, or has no previewId: %s", res.Text)
	}
	res, s = f.call(tb, "code_rename", strings.TrimSuffix(args, "}")+`,"previewId":"`+id+`"}`)
	if res.IsError || s["applied"] != true {
		t.Fatalf("apply: %s", res.Text)
	}
	if got, ok := read("sub/c.go"); !ok || got != "package a\n\nfunc Z() {}\n" {
		t.Errorf("sub/c.go = %q (exists %v)", got, ok)
	}
	if got, ok := read("b.go"); !ok || got != "package a\n" {
		t.Errorf("b.go = %q (exists %v)", got, ok)
	}
	for _, gone := range []string{"a.go", "d.go"} {
		if _, ok := read(gone); ok {
			t.Errorf("%s still exists", gone)
		}
	}
	if files, _ := s["files"].([]any); len(files) != 4 || !strings.Contains(string(res.Structured), `"renamedFrom":"a.go"`) {
		t.Errorf("receipt: %s", res.Structured)
	}

	// Steps the files do not allow are refused, and nothing changes.
	write("a.go", "package a\n\nfunc A() {}\n")
	for _, c := range []struct {
		name    string
		changes []any
		want    string
	}{
		{"create over a file", []any{textEdit("a.go", rng(2, 5, 2, 6), "Z"), map[string]any{"kind": "create", "uri": f.uri("b.go")}}, "already exists"},
		{"rename onto a file", []any{textEdit("a.go", rng(2, 5, 2, 6), "Z"), map[string]any{"kind": "rename", "oldUri": f.uri("a.go"), "newUri": f.uri("b.go")}}, "already exists"},
		{"delete a missing file", []any{textEdit("a.go", rng(2, 5, 2, 6), "Z"), map[string]any{"kind": "delete", "uri": f.uri("nope.go")}}, "does not exist"},
		{"edit a deleted file", []any{map[string]any{"kind": "delete", "uri": f.uri("b.go")}, textEdit("b.go", rng(0, 0, 0, 0), "x")}, "does not exist"},
		{"delete outside", []any{map[string]any{"kind": "delete", "uri": "file:///etc/hosts"}}, "outside the workspace"},
		{"an edit for another version", []any{map[string]any{"textDocument": map[string]any{"uri": f.uri("a.go"), "version": 99}, "edits": []any{map[string]any{"range": rng(2, 5, 2, 6), "newText": "Z"}}}}, "for version 99, but it was sent version"},
	} {
		restart(script(c.changes...))
		tb = f.toolbox()
		tb.SetApproval("auto")
		res, _ = f.call(tb, "code_rename", args)
		if !res.IsError || !strings.Contains(res.Text, c.want) {
			t.Errorf("%s: want an error saying %q, got %s", c.name, c.want, res.Text)
		}
		if got, _ := read("a.go"); got != "package a\n\nfunc A() {}\n" {
			t.Fatalf("%s: a.go = %q", c.name, got)
		}
		if got, _ := read("b.go"); got != "package a\n" {
			t.Fatalf("%s: b.go = %q", c.name, got)
		}
	}

	// ignoreIfExists skips the create; overwrite empties the file.
	restart(script(map[string]any{"kind": "create", "uri": f.uri("b.go"), "options": map[string]any{"ignoreIfExists": true}}, textEdit("a.go", rng(2, 5, 2, 6), "Z")))
	tb = f.toolbox()
	tb.SetApproval("auto")
	if res, _ = f.call(tb, "code_rename", args); res.IsError {
		t.Fatal(res.Text)
	}
	if got, _ := read("b.go"); got != "package a\n" {
		t.Errorf("ignoreIfExists: b.go = %q", got)
	}

	// A file the preview creates appears before the apply: LSP_CONFLICT.
	restart(script(textEdit("a.go", rng(2, 5, 2, 6), "A"), map[string]any{"kind": "create", "uri": f.uri("e.go")}))
	tb = f.toolbox()
	res, s = f.call(tb, "code_rename", args)
	id, _ = s["previewId"].(string)
	write("e.go", "package a\n// someone else's\n")
	res, s = f.call(tb, "code_rename", strings.TrimSuffix(args, "}")+`,"previewId":"`+id+`"}`)
	if errorCode(s) != "LSP_CONFLICT" {
		t.Fatalf("a created file that appeared: %s", res.Text)
	}
	if got, _ := read("e.go"); got != "package a\n// someone else's\n" {
		t.Errorf("e.go = %q", got)
	}
}

func TestToolboxRenameFile(t *testing.T) {
	f := newFake(t, nil, nil)
	f.cleanPull = true // not about the change's diagnostics
	if err := os.WriteFile(filepath.Join(f.ws, "b.go"), []byte("package a\n\n// uses a.go\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	caps := map[string]any{"textDocumentSync": 1, "workspace": map[string]any{"fileOperations": map[string]any{"willRename": map[string]any{"filters": []any{}}}}}
	f.setScript(map[string]any{"capabilities": caps, "methods": map[string]any{
		"workspace/willRenameFiles": map[string]any{"result": map[string]any{"changes": map[string]any{f.uri("b.go"): []any{map[string]any{
			"range":   map[string]any{"start": map[string]any{"line": 2, "character": 8}, "end": map[string]any{"line": 2, "character": 12}},
			"newText": "lib/z.go"}}}}},
	}})
	tb := f.toolbox()
	tb.SetApproval("auto")
	res, s := f.call(tb, "code_rename_file", `{"path":"a.go","newPath":"lib/z.go"}`)
	if res.IsError || s["applied"] != true {
		t.Fatalf("code_rename_file: %s", res.Text)
	}
	if got, err := os.ReadFile(filepath.Join(f.ws, "lib/z.go")); err != nil || string(got) != "package a\n\nfunc A() {}\n" {
		t.Errorf("lib/z.go = %q, %v", got, err)
	}
	if got, _ := os.ReadFile(filepath.Join(f.ws, "b.go")); string(got) != "package a\n\n// uses lib/z.go\n" {
		t.Errorf("b.go = %q", got)
	}
	if _, err := os.Stat(filepath.Join(f.ws, "a.go")); err == nil {
		t.Error("a.go still exists")
	}
	// Onto an existing file: refused before the server is asked.
	if res, _ = f.call(tb, "code_rename_file", `{"path":"lib/z.go","newPath":"b.go"}`); !res.IsError || !strings.Contains(res.Text, "already exists") {
		t.Errorf("onto b.go: %s", res.Text)
	}

	// A server without willRenameFiles: the bare rename, and a notice.
	f.setScript(map[string]any{"capabilities": map[string]any{"textDocumentSync": 1}})
	restartFake(t, f)
	tb = f.toolbox()
	tb.SetApproval("auto")
	res, s = f.call(tb, "code_rename_file", `{"path":"lib/z.go","newPath":"a.go"}`)
	if res.IsError || s["applied"] != true || !strings.Contains(res.Text, "does not update references") {
		t.Fatalf("without willRenameFiles: %s", res.Text)
	}
	if _, err := os.Stat(filepath.Join(f.ws, "a.go")); err != nil {
		t.Error(err)
	}
}

// TestToolboxEditsThroughSymlinks: a server's edit addressed to a link
// inside the workspace changes the file it points to, once even when the
// edit names both, and the link stays a link; moving or deleting a link
// is refused.
func TestToolboxEditsThroughSymlinks(t *testing.T) {
	f := newFake(t, nil, nil)
	f.cleanPull = true // not about the change's diagnostics
	caps := map[string]any{"textDocumentSync": 1, "documentSymbolProvider": true, "renameProvider": true}
	rename := func(changes ...any) {
		f.setScript(map[string]any{"capabilities": caps, "methods": map[string]any{
			"textDocument/documentSymbol": map[string]any{"result": symbolsOfA},
			"textDocument/rename":         map[string]any{"result": map[string]any{"documentChanges": changes}},
		}})
		restartFake(t, f)
	}
	edit := func(file, text string) map[string]any {
		r := map[string]any{"start": map[string]any{"line": 2, "character": 5}, "end": map[string]any{"line": 2, "character": 6}}
		return map[string]any{"textDocument": map[string]any{"uri": f.uri(file), "version": nil}, "edits": []any{map[string]any{"range": r, "newText": text}}}
	}
	a, alias := filepath.Join(f.ws, "a.go"), filepath.Join(f.ws, "alias.go")
	reset := func() {
		if err := os.WriteFile(a, []byte("package a\n\nfunc A() {}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a.go", alias); err != nil {
		t.Fatal(err)
	}
	check := func(what, want string) {
		t.Helper()
		if got, _ := os.ReadFile(a); string(got) != want {
			t.Errorf("%s: a.go = %q, want %q", what, got, want)
		}
		if info, err := os.Lstat(alias); err != nil || info.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s: alias.go is no longer a symbolic link (%v, %v)", what, info, err)
		}
	}
	args := `{"target":{"path":"a.go","symbol":"A"},"newName":"Z"}`
	for _, tc := range []struct {
		name    string
		changes []any
		want    string // a.go after; "" : refused
	}{
		{"through the link", []any{edit("alias.go", "Z")}, "package a\n\nfunc Z() {}\n"},
		{"both names, the same edit", []any{edit("alias.go", "Z"), edit("a.go", "Z")}, "package a\n\nfunc Z() {}\n"},
		{"both names, different edits", []any{edit("a.go", "Z"), edit("alias.go", "Y")}, ""},
		{"deleting the link", []any{edit("a.go", "Z"), map[string]any{"kind": "delete", "uri": f.uri("alias.go")}}, ""},
	} {
		reset()
		rename(tc.changes...)
		tb := f.toolbox()
		tb.SetApproval(toolbox.ApprovalAuto)
		res, s := f.call(tb, "code_rename", args)
		if tc.want == "" {
			if !res.IsError || errorCode(s) != "LSP_CONFLICT" {
				t.Errorf("%s: want LSP_CONFLICT, got %s", tc.name, res.Text)
			}
			check(tc.name, "package a\n\nfunc A() {}\n")
			continue
		}
		if res.IsError {
			t.Errorf("%s: %s", tc.name, res.Text)
		}
		check(tc.name, tc.want)
	}
}
