package localstdio

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestWindowsCommandLookup runs the Windows rules (commandlookup.go) on
// this machine's files: npm's three files for one server, PATHEXT's order,
// ';' PATH lists and case-insensitive variable names.
func TestWindowsCommandLookup(t *testing.T) {
	dir := t.TempDir()
	other := t.TempDir()
	for _, name := range []string{
		"typescript-language-server", // npm's script for Unix shells: Windows cannot start it
		"typescript-language-server.cmd",
		"typescript-language-server.ps1",
		"gopls.exe",
		"tool.bat", "tool.cmd",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(other, "tool.exe"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	win := commandRules{windows: true}
	cases := []struct {
		command string
		env     []string
		want    string // "" when not found
	}{
		{"typescript-language-server", []string{"Path=" + dir, "PATHEXT=.COM;.EXE;.BAT;.CMD"}, filepath.Join(dir, "typescript-language-server.cmd")},
		{"typescript-language-server", []string{"PATH=" + dir}, filepath.Join(dir, "typescript-language-server.cmd")}, // default PATHEXT
		{"gopls", []string{"path=" + dir, "pathext=.com;.exe"}, filepath.Join(dir, "gopls.exe")},
		{"gopls.exe", []string{"Path=" + dir}, filepath.Join(dir, "gopls.exe")},
		// PATHEXT's order decides within a directory; PATH's order across.
		{"tool", []string{"Path=" + dir, "PATHEXT=.CMD;.BAT"}, filepath.Join(dir, "tool.cmd")},
		{"tool", []string{"Path=" + dir, "PATHEXT=.BAT;.CMD"}, filepath.Join(dir, "tool.bat")},
		{"tool", []string{"Path=" + other + ";" + dir, "PATHEXT=.EXE;.BAT"}, filepath.Join(other, "tool.exe")},
		// No executable extension: not a command on Windows.
		{"typescript-language-server", []string{"Path=" + dir, "PATHEXT=.EXE"}, ""},
		// ':' does not split a Windows PATH.
		{"gopls", []string{"Path=" + other + ":" + dir}, ""},
	}
	for _, c := range cases {
		got, notFound := win.resolve(c.command, c.env, nil)
		if got != c.want || (got == "") != (notFound != "") {
			t.Errorf("%s with %q: got %q (%s), want %q", c.command, c.env, got, notFound, c.want)
		}
	}
	// Unix rules on the same files: the script is the command, when it is
	// executable.
	unix := commandRules{}
	if got, _ := unix.resolve("typescript-language-server", []string{"PATH=" + dir}, nil); got != filepath.Join(dir, "typescript-language-server") {
		t.Errorf("unix rules: got %q", got)
	}
	if got, _ := unix.resolve("tool", []string{"PATH=" + other}, nil); got != "" {
		t.Errorf("unix rules found a file without an execute bit: %q", got)
	}
}

func TestCommandIsPath(t *testing.T) {
	win, unix := commandRules{windows: true}, commandRules{}
	for _, c := range []struct {
		command     string
		win, onUnix bool
	}{
		{"gopls", false, false},
		{`C:\tools\gopls.exe`, true, false},
		{`tools\gopls.exe`, true, false},
		{"c:gopls.exe", true, false},
		{"./gopls", true, true},
		{"/usr/bin/gopls", true, true},
	} {
		if got := win.isPath(c.command); got != c.win {
			t.Errorf("windows isPath(%q) = %v", c.command, got)
		}
		if got := unix.isPath(c.command); got != c.onUnix {
			t.Errorf("unix isPath(%q) = %v", c.command, got)
		}
	}
}

// TestServerEnvWindows: on Windows the profile and system variables pass,
// names match without regard to case and keep their spelling, and the
// credential rules still apply; on Unix the Windows names do not pass.
func TestServerEnvWindows(t *testing.T) {
	host := []string{
		`Path=C:\Go\bin;C:\Windows`, `USERPROFILE=C:\Users\a`, `SystemRoot=C:\Windows`, `ComSpec=C:\Windows\system32\cmd.exe`,
		`PathExt=.COM;.EXE;.CMD`, `gopath=C:\Users\a\go`, `APPDATA=C:\Users\a\AppData\Roaming`,
		`HTTPS_PROXY=http://user:pw@proxy:8080`, `LSPSEAM_CACHE_DIR=C:\x`, `GH_TOKEN=ghp_x`,
	}
	got := serverEnv(true, host, `C:\Go\bin\gopls.exe`, []string{"gh_token"}, nil)
	want := []string{`Path=C:\Go\bin;C:\Windows`, `USERPROFILE=C:\Users\a`, `SystemRoot=C:\Windows`, `ComSpec=C:\Windows\system32\cmd.exe`,
		`PathExt=.COM;.EXE;.CMD`, `gopath=C:\Users\a\go`, `APPDATA=C:\Users\a\AppData\Roaming`, `GH_TOKEN=ghp_x`}
	if !slices.Equal(got, want) {
		t.Errorf("windows:\n got %q\nwant %q", got, want)
	}
	got = serverEnv(false, host, "/usr/bin/gopls", nil, nil)
	if len(got) != 0 {
		t.Errorf("unix rules passed Windows-spelled names: %q", got)
	}
	if b := windowsCommandBase(`C:\tools\typescript-language-server.cmd`); b != "typescript-language-server" {
		t.Errorf("windowsCommandBase = %q", b)
	}
	if b := windowsCommandBase(`main.c`); b != "main.c" {
		t.Errorf("windowsCommandBase(main.c) = %q", b)
	}
}
