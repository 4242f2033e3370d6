package core

import (
	"strings"
	"testing"
)

func TestLanguagesOfTheTable(t *testing.T) {
	seen := map[string]bool{}
	for _, l := range Languages() {
		if seen[l.LanguageID] {
			t.Errorf("%s listed twice", l.LanguageID)
		}
		seen[l.LanguageID] = true
		if len(l.Servers) == 0 || len(l.Extensions)+len(l.FileNames) == 0 {
			t.Errorf("%s: %+v", l.LanguageID, l)
		}
		// The first server is the preset when a preset serves it: the one
		// `servers install LANG` installs and the presets run.
		first, _ := ServerByID(l.Servers[0])
		for _, id := range l.Servers[1:] {
			if e, _ := ServerByID(id); e.Preset && !first.Preset {
				t.Errorf("%s: preset %s comes after %s", l.LanguageID, id, first.ID)
			}
		}
	}
	if len(seen) < 40 {
		t.Errorf("%d languages, want the table's 40 or more", len(seen))
	}
}

func TestLanguageOfName(t *testing.T) {
	for _, c := range []struct{ in, want, server string }{
		{"python", "python", "pyright"},
		{"Python", "python", "pyright"},
		{" go ", "go", "gopls"},
		{"C++", "cpp", "clangd"},
		{"cpp", "cpp", "clangd"},
		{".rs", "rust", "rust-analyzer"},
		{"rs", "rust", "rust-analyzer"},
		{"typescriptreact", "typescriptreact", "typescript"},
		{"TSX", "typescriptreact", "typescript"},
		{"dockerfile", "dockerfile", "dockerls"},
		{"", "", ""},
		{"cobol", "", ""},
		{".", "", ""},
	} {
		l, ok := LanguageOfName(c.in)
		if l.LanguageID != c.want || ok != (c.want != "") {
			t.Errorf("LanguageOfName(%q) = %q %v, want %q", c.in, l.LanguageID, ok, c.want)
			continue
		}
		if ok && l.Servers[0] != c.server {
			t.Errorf("LanguageOfName(%q): first server %s, want %s", c.in, l.Servers[0], c.server)
		}
	}
}

func TestDownloadProblem(t *testing.T) {
	good := DownloadInstall{Platform: "linux/amd64", URL: "https://example.org/x-1.0-linux-amd64.tar.gz", SHA256: strings.Repeat("ab", 32), Archive: ArchiveTarGz, Binary: "x-1.0/bin/x"}
	if p := good.Problem(); p != "" {
		t.Fatalf("good: %s", p)
	}
	for _, c := range []struct {
		name   string
		change func(*DownloadInstall)
		want   string // "" when it is fine
	}{
		{"bare binary", func(d *DownloadInstall) { d.Archive, d.Binary = "", "" }, ""},
		{"zip", func(d *DownloadInstall) { d.Archive = ArchiveZip }, ""},
		{"loopback http", func(d *DownloadInstall) { d.URL = "http://127.0.0.1:8080/x.tar.gz" }, ""},
		{"localhost http", func(d *DownloadInstall) { d.URL = "http://localhost/x" }, ""},
		{"ipv6 loopback", func(d *DownloadInstall) { d.URL = "http://[::1]:9/x" }, ""},
		{"remote http", func(d *DownloadInstall) { d.URL = "http://example.org/x" }, "https"},
		{"loopback lookalike", func(d *DownloadInstall) { d.URL = "http://127.0.0.1.example.org/x" }, "https"},
		{"credentials", func(d *DownloadInstall) { d.URL = "https://u:p@example.org/x" }, "credentials"},
		{"ftp", func(d *DownloadInstall) { d.URL = "ftp://example.org/x" }, "https"},
		{"no host", func(d *DownloadInstall) { d.URL = "https:///x" }, "absolute"},
		{"relative", func(d *DownloadInstall) { d.URL = "x.tar.gz" }, "absolute"},
		{"short digest", func(d *DownloadInstall) { d.SHA256 = "abcd" }, "sha256"},
		{"uppercase digest", func(d *DownloadInstall) { d.SHA256 = strings.Repeat("AB", 32) }, "sha256"},
		{"not hex", func(d *DownloadInstall) { d.SHA256 = strings.Repeat("zz", 32) }, "sha256"},
		{"7z", func(d *DownloadInstall) { d.Archive = "7z" }, "archive"},
		{"archive without binary", func(d *DownloadInstall) { d.Binary = "" }, "binary"},
		{"binary escapes", func(d *DownloadInstall) { d.Binary = "../x" }, "binary"},
		{"binary absolute", func(d *DownloadInstall) { d.Binary = "/usr/bin/x" }, "binary"},
		{"no platform", func(d *DownloadInstall) { d.Platform = "" }, "platform"},
		{"bad platform", func(d *DownloadInstall) { d.Platform = "linux/amd64/v3" }, "platform"},
	} {
		d := good
		c.change(&d)
		p := d.Problem()
		if (c.want == "") != (p == "") || !strings.Contains(p, c.want) {
			t.Errorf("%s: %q, want a problem with %q", c.name, p, c.want)
		}
	}
}

func TestLocalPath(t *testing.T) {
	for p, want := range map[string]bool{
		"a": true, "a/b/c": true, "dir/": true, "a.b/..c": true,
		"": false, "/a": false, "../a": false, "a/../../b": false, "a/./b": false, ".": false,
		"a//b": false, `a\b`: false, "C:x": false, "a\x00b": false, "..": false,
	} {
		if got := LocalPath(p); got != want {
			t.Errorf("LocalPath(%q) = %v, want %v", p, got, want)
		}
	}
}
