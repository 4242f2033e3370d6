package core

import (
	"encoding/json"
	"strings"
	"testing"
)

// The host path rules per OS: each host selects them by runtime.GOOS, and
// these tests run every OS's route here.
func TestPathRules(t *testing.T) {
	tests := []struct {
		goos, path, uri, key, uriKey string
	}{
		{"linux", "/src/A b.go", "file:///src/A%20b.go", "/src/A b.go", "file:///src/A%20b.go"},
		{"linux", "/C:/x", "file:///C%3A/x", "/C:/x", "file:///C%3A/x"},
		{"darwin", "/Users/Me/A.go", "file:///Users/Me/A.go", "/users/me/a.go", "file:///users/me/a.go"},
		{"windows", `C:\Work\A b.go`, "file:///C:/Work/A%20b.go", "c:/work/a b.go", "file:///C:/work/a%20b.go"},
		{"windows", `c:\work\a.go`, "file:///C:/work/a.go", "c:/work/a.go", "file:///C:/work/a.go"},
		{"windows", `C:/work/./sub/../A.go`, "file:///C:/work/A.go", "c:/work/a.go", "file:///C:/work/a.go"},
		{"windows", `\\Server\Share\x.go`, "file://server/Share/x.go", "//server/share/x.go", "file://server/share/x.go"},
		{"windows", `\\?\C:\long\x.go`, "file:///C:/long/x.go", "c:/long/x.go", "file:///C:/long/x.go"},
	}
	for _, tt := range tests {
		r := PathRulesFor(tt.goos)
		if got := r.FileURI(tt.path); got != tt.uri {
			t.Errorf("%s FileURI(%q) = %q, want %q", tt.goos, tt.path, got, tt.uri)
		}
		back, ok := r.URIPath(tt.uri)
		if !ok {
			t.Errorf("%s URIPath(%q) refused", tt.goos, tt.uri)
		} else if r.FileURI(back) != tt.uri {
			t.Errorf("%s URIPath(%q) = %q, whose URI is %q", tt.goos, tt.uri, back, r.FileURI(back))
		}
		if got := r.Key(tt.path); got != tt.key {
			t.Errorf("%s Key(%q) = %q, want %q", tt.goos, tt.path, got, tt.key)
		}
		if got := r.URIKey(tt.uri); got != tt.uriKey {
			t.Errorf("%s URIKey(%q) = %q, want %q", tt.goos, tt.uri, got, tt.uriKey)
		}
	}
}

// One file, one key: the spellings a server or client may use for a file
// share a URIKey under the OS whose volumes make them one file, and only
// there.
func TestPathRulesURIKeySpellings(t *testing.T) {
	tests := []struct {
		goos string
		a, b string
		same bool
	}{
		{"windows", "file:///C:/work/a.go", "file:///c%3A/work/a.go", true},
		{"windows", "file:///C:/work/a.go", "file:///c:/Work/A.go", true},
		{"windows", "file:///C:/work/a.go", "file://localhost/C:/work/a.go", true},
		{"windows", "file://srv/share/a.go", "file://SRV/Share/A.go", true},
		{"windows", "file:///C:/work/a.go", "file:///D:/work/a.go", false},
		{"darwin", "file:///Users/me/a.go", "file:///users/ME/A.go", true},
		{"darwin", "file:///Users/me/a.go", "file:///Users/me/a%2Ego", true},
		{"linux", "file:///home/me/a.go", "file:///home/me/%61.go", true},
		{"linux", "file:///home/me/a.go", "file:///home/me/A.go", false},
		{"linux", "file:///C:/work/a.go", "file:///c:/work/a.go", false},
	}
	for _, tt := range tests {
		r := PathRulesFor(tt.goos)
		if got := r.URIKey(tt.a) == r.URIKey(tt.b); got != tt.same {
			t.Errorf("%s: URIKey(%q) == URIKey(%q) is %v, want %v (%q, %q)", tt.goos, tt.a, tt.b, got, tt.same, r.URIKey(tt.a), r.URIKey(tt.b))
		}
	}
}

// A workspace URI a Windows host builds (the drive's colon literal, or a
// UNC server) makes the core's paths Windows paths; every URI a POSIX host
// builds (colons encoded) stays POSIX.
func TestWorkspacePath(t *testing.T) {
	tests := []struct {
		uri, path string
		ok        bool
	}{
		{"file:///home/me/p", "/home/me/p", true},
		{"file:///C%3A/work", "/C:/work", true}, // a POSIX host's URI of the directory /C:/work
		{"file:///c%3a/x", "/c:/x", true},
		{"file:///C:/work", "C:/work", true},
		{"file:///c:/Work/p", "C:/Work/p", true},
		{"file:///C:", "C:/", true},
		{"file:///C:/", "C:/", true},
		{"file:/C:/work", "C:/work", true},
		{"file://localhost/C:/work", "C:/work", true},
		{"file://Server/share/p", "//server/share/p", true},
		{"file://server/", "", false},
		{"file:///C:x", "/C:x", true}, // no drive: a POSIX name with a colon
		{"file:///1:/x", "/1:/x", true},
		{"file://server%20x/share", "", false},
		{"http://x/y", "", false},
	}
	for _, tt := range tests {
		got, ok := WorkspacePath(tt.uri)
		if ok != tt.ok || (ok && got != tt.path) {
			t.Errorf("WorkspacePath(%q) = %q, %v; want %q, %v", tt.uri, got, ok, tt.path, tt.ok)
		}
	}
}

// Under a Windows workspace, locations render as the model passes them
// back to a Windows host: relative inside the workspace whatever the
// drive letter's case, the colon's escaping or the names' case; absolute
// (drive or UNC, / separators) outside it.
func TestDisplayPathWindows(t *testing.T) {
	tests := []struct {
		ws, uri, want string
	}{
		{"file:///C:/work/p", "file:///C:/work/p/a.go", "a.go"},
		{"file:///C:/work/p", "file:///c%3A/work/p/sub/a%20b.go", "sub/a b.go"},
		{"file:///C:/work/p", "file:///c:/Work/P/Sub/A.go", "Sub/A.go"},
		{"file:///C:/work/p", "file:///C:/work/p", "."},
		{"file:///C:/work/p", "file:///c:/WORK/P/", "."},
		{"file:///C:/work/p", "file:///C:/work/pp/a.go", "C:/work/pp/a.go"},
		{"file:///C:/work/p", "file:///D:/work/p/a.go", "D:/work/p/a.go"},
		{"file:///C:/work/p", "file://srv/share/a.go", "//srv/share/a.go"},
		{"file:///C:/work/p", "untitled:Untitled-1", "untitled:Untitled-1"},
		{"file:///C:/work/p", "file:///usr/lib/x.go", "file:///usr/lib/x.go"}, // names no Windows file
		{"file:///C:/", "file:///c%3A/x/a.go", "x/a.go"},
		{"file://srv/share/p", "file://SRV/share/p/a.go", "a.go"},
		{"file://srv/share/p", "file:///C:/share/p/a.go", "C:/share/p/a.go"},
		// POSIX workspaces are as before: a colon-named directory is no drive.
		{"file:///C%3A/work", "file:///C%3A/work/a.go", "a.go"},
		{"file:///C%3A/work", "file:///c%3A/work/a.go", "/c:/work/a.go"},
		{"file:///home/p", "file:///home/p/A.go", "A.go"},
		{"file:///home/p", "file:///Home/p/a.go", "/Home/p/a.go"},
	}
	for _, tt := range tests {
		ws, ok := WorkspacePath(tt.ws)
		if !ok {
			t.Fatalf("WorkspacePath(%q) refused", tt.ws)
		}
		if got := DisplayPath(tt.uri, ws); got != tt.want {
			t.Errorf("DisplayPath(%q, %q) = %q, want %q", tt.uri, ws, got, tt.want)
		}
		_, inside := insideWorkspace(tt.uri, ws)
		if want := tt.want != "." && tt.want != tt.uri && !isAbsDisplay(tt.want); inside != want {
			t.Errorf("insideWorkspace(%q, %q) = %v, want %v", tt.uri, ws, inside, want)
		}
	}
}

func isAbsDisplay(p string) bool {
	return p[0] == '/' || len(p) > 1 && p[1] == ':'
}

// A Windows host's locations render through Render as through the other
// entry points: the workspace URI decides.
func TestRenderWindowsWorkspace(t *testing.T) {
	r := Result{Kind: KindLocations, Locations: []Location{
		{URI: "file:///c%3A/Work/P/a.go", Range: Range{Start: Position{Line: 2, Character: 4}}},
		{URI: "file:///D:/lib/b.go", Range: Range{Start: Position{Line: 0, Character: 0}}},
	}}
	out, err := Render(r, "file:///C:/work/p", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"a.go:3:5", "D:/lib/b.go:1:1"} {
		if !strings.Contains(out.Text, want) {
			t.Errorf("Render text lacks %q:\n%s", want, out.Text)
		}
	}
}

// tsserver writes drive paths on Windows; their URIs are the Windows
// host's spelling, and POSIX paths keep FileURI's.
func TestTsserverFileURI(t *testing.T) {
	tests := []struct{ path, uri string }{
		{"/home/p/a.ts", "file:///home/p/a.ts"},
		{"/C:/x.ts", "file:///C%3A/x.ts"},
		{"C:/work/a.ts", "file:///C:/work/a.ts"},
		{`c:\work\a b.ts`, "file:///C:/work/a%20b.ts"},
		{"rel/a.ts", "file://rel/a.ts"},
	}
	for _, tt := range tests {
		if got := tsserverFileURI(tt.path); got != tt.uri {
			t.Errorf("tsserverFileURI(%q) = %q, want %q", tt.path, got, tt.uri)
		}
	}
}

// fileChanges' paths: a Windows host writes its drive paths /C:/x and
// reads the answer's paths back; other hosts pass their paths as they are.
func TestWatchPath(t *testing.T) {
	tests := []struct{ goos, host, watch string }{
		{"linux", "/w/a.go", "/w/a.go"},
		{"darwin", "/Users/Me/a.go", "/Users/Me/a.go"},
		{"windows", `C:\w\a b.go`, "/C:/w/a b.go"},
		{"windows", `c:\W`, "/C:/W"},
		{"windows", `D:\`, "/D:"},
	}
	for _, tt := range tests {
		r := PathRulesFor(tt.goos)
		if got := r.WatchPath(tt.host); got != tt.watch {
			t.Errorf("%s WatchPath(%q) = %q, want %q", tt.goos, tt.host, got, tt.watch)
		}
		want := tt.host
		if r.Windows {
			want = strings.ToUpper(want[:1]) + want[1:]
		}
		if got := r.HostPath(tt.watch); got != want {
			t.Errorf("%s HostPath(%q) = %q, want %q", tt.goos, tt.watch, got, want)
		}
	}
}

// A Windows host's changes become events named as it names the files
// (file:///C:/w/a.go), relative watchers match under a baseUri in any
// drive spelling, and the flag crosses the JSON boundary.
func TestFileChangesWindows(t *testing.T) {
	win := PathRulesFor("windows")
	in := FileChangesInput{
		Changes: []PathChange{
			{Path: win.WatchPath(`C:\w\a.go`), First: "changed", Last: "changed"},
			{Path: win.WatchPath(`C:\w\sub\b.go`), First: "created", Last: "created"},
			{Path: win.WatchPath(`C:\w\c.txt`), First: "changed", Last: "changed"},
		},
		Registrations: []WatchRegistration{{ID: "1", Watchers: []FileWatcher{
			{Pattern: "**/*.go", BaseURI: "file:///c%3A/w", Kind: 7},
		}}},
		Root:          win.WatchPath(`C:\w`),
		OpenDocuments: []string{},
		Windows:       true,
	}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"windows":true`) {
		t.Fatalf("the flag is not in the JSON: %s", b)
	}
	env := string(Call("fileChanges", b))
	for _, want := range []string{`"uri":"file:///C:/w/a.go","type":2`, `"uri":"file:///C:/w/sub/b.go","type":1`, `"matched":2`, `"ignored":1`} {
		if !strings.Contains(env, want) {
			t.Errorf("fileChanges lacks %s: %s", want, env)
		}
	}
	// Without the flag the same paths are POSIX paths: the colon encoded,
	// and the Windows baseUri names no directory of theirs.
	in.Windows = false
	b, _ = json.Marshal(in)
	if env := string(Call("fileChanges", b)); !strings.Contains(env, `"matched":0`) || strings.Contains(env, "file:///C:/") {
		t.Errorf("POSIX reading of the same input: %s", env)
	}
}

// posixDisplayPath is displayPath as it was before Windows workspaces: a
// POSIX workspace must render every URI exactly so.
func posixDisplayPath(uri, workspacePath string) string {
	p, ok := FileURIPath(uri)
	if !ok {
		return uri
	}
	switch {
	case p == workspacePath:
		return "."
	case workspacePath == "/":
		return p[1:]
	case strings.HasPrefix(p, workspacePath) && p[len(workspacePath)] == '/':
		return p[len(workspacePath)+1:]
	}
	return p
}

// A workspace URI's form decides its rules, and only a Windows host's
// URIs take the Windows route: every other workspace renders as before,
// byte for byte; under a Windows one, an inside location's display path
// is relative and names it (its URI's path ends with it).
func FuzzWorkspaceDisplay(f *testing.F) {
	for _, s := range [][2]string{
		{"file:///C:/w", "file:///c%3A/W/a.go"},
		{"file:///C%3A/w", "file:///C:/w/a.go"},
		{"file://srv/share/p", "file://SRV/share/p/x/y.go"},
		{"file:///home/p", "file:///home/p/a%20b.go"},
		{"file:///", "file:///x"},
		{"file:///C:", "file:///c:/x"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, ws, uri string) {
		wsPath, ok := WorkspacePath(ws)
		if !ok {
			return
		}
		if windowsURI(ws) != windowsDir(wsPath) {
			t.Fatalf("workspace %q: Windows URI %v, Windows path %q %v", ws, windowsURI(ws), wsPath, windowsDir(wsPath))
		}
		got := DisplayPath(uri, wsPath)
		if !windowsDir(wsPath) {
			if want := posixDisplayPath(uri, wsPath); got != want {
				t.Fatalf("POSIX workspace %q: DisplayPath(%q) = %q, before %q", ws, uri, got, want)
			}
			return
		}
		if p, inside := insideWorkspace(uri, wsPath); inside {
			if got == "" || got[0] == '/' || got == "." || !strings.HasSuffix(p, "/"+got) && !strings.HasSuffix(wsPath, "/") {
				t.Fatalf("Windows workspace %q: inside location %q (%q) displayed %q", ws, uri, p, got)
			}
		}
	})
}

// The initialize request names the workspace folder after the last
// element of its path, in either host's form.
func TestInitializeParamsWorkspaceName(t *testing.T) {
	tests := []struct{ uri, name string }{
		{"file:///home/me/proj", "proj"},
		{"file:///", "/"},
		{"file:///C%3A/x", "x"},
		{"file:///C:/work/p", "p"},
		{"file:///C:/", "C:/"},
		{"file://srv/share/p", "p"},
		{"file://srv/share", "share"},
	}
	for _, tt := range tests {
		v, err := InitializeParams(tt.uri, "")
		if err != nil {
			t.Errorf("InitializeParams(%q): %v", tt.uri, err)
			continue
		}
		if v.WorkspaceName != tt.name {
			t.Errorf("InitializeParams(%q) names the folder %q, want %q", tt.uri, v.WorkspaceName, tt.name)
		}
	}
	if _, err := InitializeParams("file://srv/", ""); err == nil {
		t.Error("InitializeParams accepted a UNC URI with no share")
	}
}
