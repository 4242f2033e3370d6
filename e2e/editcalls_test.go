package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lspseam/lspseam/bindings/go/localstdio"
	"github.com/lspseam/lspseam/bindings/go/toolbox"
	"github.com/lspseam/lspseam/internal/gocorpus"
)

// TestEditAsksTheCoreOnce: an edit plans its change from the file it read
// and writes it under the lock after reading the file again; when the
// file is unchanged, the planned text is written without asking the core
// (editText) a second time.
func TestEditAsksTheCoreOnce(t *testing.T) {
	cb := newCatalogBench(t)
	ws, _ := localstdio.CanonicalWorkspace(cb.large)
	ctx := context.Background()
	tb, err := toolbox.NewToolbox(ctx, cb.core, cb.svc, "fs", "code")
	if err != nil {
		t.Fatal(err)
	}
	cb.tb = tb
	if r := cb.tb.Call(ctx, "read", json.RawMessage(`{"file_path":"`+gocorpus.LargeFile+`"}`), ws.Path); r.IsError {
		t.Fatalf("read: %s", r.Text)
	}
	args := json.RawMessage(`{"file_path":"` + gocorpus.LargeFile + `","old_string":"// Execute runs the command tree on args.","new_string":"// Execute runs the command tree on its args."}`)
	var answer string
	calls := cb.traced(func() {
		r := cb.tb.Call(ctx, "edit", args, ws.Path)
		if r.IsError {
			t.Fatalf("edit: %s", r.Text)
		}
		answer = r.Text
	})
	n := 0
	data, err := os.ReadFile(filepath.Join(ws.Path, gocorpus.LargeFile))
	if err != nil || !strings.Contains(string(data), "// Execute runs the command tree on its args.") {
		t.Fatalf("the file was not edited (%v); the answer: %s", err, answer)
	}
	for _, c := range calls {
		switch c.Method {
		case "editText":
			n++
			// The lines holding the match go to the core, not the file
			// (core/editwindow.go), nor its two texts to the delta
			// (core/deltalines.go).
			fallthrough
		case "diagnosticsDelta":
			if c.InputBytes > len(data)/10 {
				t.Errorf("%s was called with %d input bytes for a one-line edit of a %d-byte file; want the lines it touched", c.Method, c.InputBytes, len(data))
			}
		}
	}
	if n != 1 {
		t.Errorf("an edit of an unchanged file asked editText %d times, want once", n)
	}
	// An old_string with several matches is refused as before, naming the
	// file's lines: the window cannot decide, and the whole text is asked.
	r := cb.tb.Call(ctx, "edit", json.RawMessage(`{"file_path":"`+gocorpus.LargeFile+`","old_string":"func (c *Command)","new_string":"func (cmd *Command)"}`), ws.Path)
	if !r.IsError || !strings.Contains(r.Text, "FS_AMBIGUOUS_MATCH") || !strings.Contains(r.Text, "line") {
		t.Errorf("an ambiguous edit: %s", r.Text)
	}

	// The next edits of the same file report the previous edit's write to
	// the server: the same file event each time, planned by the core once
	// (changesMemo), and still told to the server (the edits after it see
	// the text they expect).
	texts := []string{"its args", "the args", "its args", "the args"}
	var fileChanges []int
	for i := 1; i < len(texts); i++ {
		args := json.RawMessage(`{"file_path":"` + gocorpus.LargeFile + `","old_string":"the command tree on ` + texts[i-1] + `.","new_string":"the command tree on ` + texts[i] + `."}`)
		n := 0
		for _, c := range cb.traced(func() {
			if r := cb.tb.Call(ctx, "edit", args, ws.Path); r.IsError {
				t.Fatalf("edit %d: %s", i+1, r.Text)
			}
		}) {
			if c.Method == "fileChanges" {
				n++
			}
		}
		fileChanges = append(fileChanges, n)
	}
	if fileChanges[0] != 1 || fileChanges[len(fileChanges)-1] != 0 {
		t.Errorf("fileChanges calls in the 2nd to 4th edits of one file: %v; want the first to ask the core and the last to be remembered", fileChanges)
	}
}

// A rename's edits of a large file go to the core as the lines around
// them, not the file (core/textwindows.go), and so does the delta of its
// lines (core/deltalines.go: the hunks, not one span from the first use
// to the last); the file is renamed everywhere, as a whole text would.
func TestRenameSendsTheLinesAround(t *testing.T) {
	cb := newCatalogBench(t)
	ws, _ := localstdio.CanonicalWorkspace(cb.large)
	ctx := context.Background()
	tb, err := toolbox.NewToolbox(ctx, cb.core, cb.svc, "fs", "code", "refactor")
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.SetApproval(toolbox.ApprovalAuto); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(ws.Path, gocorpus.LargeFile)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	args := json.RawMessage(`{"target":{"path":"` + gocorpus.LargeFile + `","symbol":"` + gocorpus.NameMethod + `"},"newName":"Title"}`)
	var answer string
	calls := cb.traced(func() {
		r := tb.Call(ctx, "code_rename", args, ws.Path)
		if r.IsError {
			t.Fatalf("code_rename: %s", r.Text)
		}
		answer = r.Text
	})
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	uses := strings.Count(string(before), "Name()")
	want := strings.ReplaceAll(strings.Replace(string(before), "// Name returns", "// Title returns", 1), "Name()", "Title()") // gopls renames the doc comment's name too
	if string(after) != want || uses < 10 {
		t.Fatalf("%s after renaming %d uses is not the file with each renamed; the answer: %s", gocorpus.LargeFile, uses, answer)
	}
	asked := map[string]int{}
	for _, c := range calls {
		switch c.Method {
		case "applyTextEdits", "diagnosticsDelta":
			asked[c.Method]++
			if c.InputBytes > len(before)/4 {
				t.Errorf("%s was called with %d input bytes for %d renamed lines of a %d-byte file; want the lines around them", c.Method, c.InputBytes, uses, len(before))
			}
		}
	}
	if asked["applyTextEdits"] == 0 || asked["diagnosticsDelta"] == 0 {
		t.Errorf("the rename asked the core %v: want applyTextEdits and diagnosticsDelta", asked)
	}
}
