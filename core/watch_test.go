package core

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestFileURI(t *testing.T) {
	tests := map[string]string{
		"/w/a.go":          "file:///w/a.go",
		"/":                "file:///",
		"/a b/c#d?e%f":     "file:///a%20b/c%23d%3Fe%25f",
		"/é/:@!$&'()*+,;=": "file:///%C3%A9/%3A%40%21%24%26%27%28%29%2A%2B%2C%3B%3D",
		"/x~y_z-1.2":       "file:///x~y_z-1.2",
		"/bad\xff":         "file:///bad%FF",
	}
	for in, want := range tests {
		got := FileURI(in)
		if got != want {
			t.Errorf("FileURI(%q) = %q, want %q", in, got, want)
		}
		if back, ok := FileURIPath(got); ok != (in != "/bad\xff") || ok && back != in {
			t.Errorf("FileURIPath(FileURI(%q)) = %q, %v", in, back, ok)
		}
	}
}

func TestRelativeStart(t *testing.T) {
	tests := []struct {
		dir, path string
		want      int
	}{
		{"/w", "/w/a", 2}, {"/w", "/w/a/b", 2}, {"/w/p", "/w/p/a", 3}, {"/", "/a", 1},
		{"/w", "/w", -1}, {"/w", "/wx/a", -1}, {"/", "/", -1}, {"/w/p", "/w", -1},
	}
	for _, tt := range tests {
		if got := relativeStart(tt.dir, tt.path); got != tt.want {
			t.Errorf("relativeStart(%q, %q) = %d, want %d", tt.dir, tt.path, got, tt.want)
		}
	}
}

// TestFileChangesInputJSON checks that a Go host's input encodes as the ABI
// reads it: nil Registrations is null (match by extension), empty is [].
func TestFileChangesInputJSON(t *testing.T) {
	in := FileChangesInput{Changes: []PathChange{{Path: "/w/a.go", First: "changed", Last: "changed"}}, Extensions: []string{".go"}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"changes":[{"path":"/w/a.go","first":"changed","last":"changed"}],"registrations":null,"extensions":[".go"],"root":"","openDocuments":[]}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	in.Registrations, in.MaxBatch = []WatchRegistration{}, 2
	b, _ = json.Marshal(in)
	if want := `"registrations":[],`; !json.Valid(b) || !strings.Contains(string(b), want) || !strings.Contains(string(b), `"maxBatch":2}`) {
		t.Errorf("got %s", b)
	}
	if env := string(Call("fileChanges", b)); env != `{"ok":{"batches":[],"reverify":[],"matched":0,"ignored":1,"uncovered":["/w/a.go"]}}` {
		t.Errorf("registered nothing: %s", env)
	}
	in.Registrations = nil
	b, _ = json.Marshal(in)
	if env := string(Call("fileChanges", b)); !strings.Contains(env, `"matched":1`) {
		t.Errorf("fallback by extension: %s", env)
	}
}
