package toolbox

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// TestObserveShownRecordsTheShownText: what an answer showed is this
// session's observation of its file at the version of the text shown,
// not of the file as it is when the answer is made: a change between the
// answer's read and the record is one the model has not seen (an edit is
// FS_STALE), while the text shown being the file's lets an edit through
// without a read. The workspace is given through a symbolic link, and
// the shown path is canonical, as a session reads it: the observation is
// the one read's key finds.
func TestObserveShownRecordsTheShownText(t *testing.T) {
	tb, dir := newFSToolbox(t)
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(t.TempDir(), "ws")
	if err := os.Symlink(real, ws); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	file := filepath.Join(real, "a.go")
	shownText1, now := "package a\n\nfunc F() {}\n", "package a\n\nfunc F() { changed() }\n"
	writeFile(t, file, now)

	tb.observeShown(ws, []shownText{{Path: file, Version: workspacefs.ContentVersion(shownText1)}})
	edit := map[string]any{"file_path": "a.go", "old_string": "func F()", "new_string": "func G()"}
	if res, s := fsCall(t, tb, ws, "edit", edit); fsCode(s) != "FS_STALE" || readFile(t, file) != now {
		t.Fatalf("edit after an answer showed an older text: %s", res.Text)
	}

	tb.observeShown(ws, []shownText{{Path: file, Version: workspacefs.ContentVersion(now)}})
	if res, s := fsCall(t, tb, ws, "edit", edit); fsCode(s) != "" || readFile(t, file) != "package a\n\nfunc G() { changed() }\n" {
		t.Fatalf("edit after an answer showed the file as it is: %s", res.Text)
	}
}

// TestShownTexts: the files an answer shows lines of are those of its
// locations with a source line, context or body inside the workspace,
// each with the version of the text read for it; a file read for a
// location the answer does not show (cut at its budget) or showed
// without text is not.
func TestShownTexts(t *testing.T) {
	ws := t.TempDir()
	uri := workspacefs.HostPaths.FileURI
	at := func(rel string) string { return filepath.Join(ws, filepath.FromSlash(rel)) }
	texts := map[string]lspseam.SourceFile{}
	for _, rel := range []string{"a.go", "dir/b.go", "c.go", "d.go"} {
		texts[uri(at(rel))] = lspseam.SourceFile{Path: at(rel), URI: uri(at(rel)), Text: "text of " + rel}
	}
	outside := filepath.Join(t.TempDir(), "e.go")
	for _, c := range []struct {
		name string
		locs []lspseam.CodeLocation
		want []string
	}{
		{"none", nil, nil},
		{"a source line", []lspseam.CodeLocation{{Path: "a.go", Snippet: "func A() {"}}, []string{"a.go"}},
		{"a body or context", []lspseam.CodeLocation{{Path: "dir/b.go", SnippetLine: 3}}, []string{"dir/b.go"}},
		{"no text", []lspseam.CodeLocation{{Path: "c.go"}}, nil},
		{"outside", []lspseam.CodeLocation{{Path: outside, Snippet: "x", OutsideWorkspace: true}}, nil},
		{"several", []lspseam.CodeLocation{{Path: "a.go", Snippet: "x"}, {Path: "a.go", Snippet: "y"}, {Path: "d.go", SnippetLine: 1}, {Path: "c.go"}},
			[]string{"a.go", "d.go"}},
	} {
		var got []string
		for _, s := range shownTexts(c.locs, texts, contentVersions(texts)(), uri(ws)) {
			if s.Version != workspacefs.ContentVersion(texts[uri(s.Path)].Text) {
				t.Errorf("%s: %s with the version of another text", c.name, s.Path)
			}
			rel, _ := filepath.Rel(ws, s.Path)
			got = append(got, filepath.ToSlash(rel))
		}
		sort.Strings(got)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: shown %v, want %v", c.name, got, c.want)
		}
	}
}
