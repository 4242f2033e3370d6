package precompiled

import (
	"bytes"
	"compress/gzip"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func gz(t *testing.T, data string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(data)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// files lists the regular files under dir as slash paths relative to it,
// with their contents.
func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestWazeroDir: in a test binary (no dependencies recorded) wazero's
// version is "dev", as wazero itself finds it.
func TestWazeroDir(t *testing.T) {
	if got, want := WazeroDir(), "wazero-dev-"+runtime.GOARCH+"-"+runtime.GOOS; got != want {
		t.Errorf("WazeroDir() = %q, want %q", got, want)
	}
}

func TestModuleKey(t *testing.T) {
	// The first 8 bytes of SHA-256("abc"), in hex.
	if got := ModuleKey([]byte("abc")); got != "ba7816bf8f01cfea" {
		t.Errorf("ModuleKey(abc) = %s", got)
	}
}

func TestInstall(t *testing.T) {
	set := fstest.MapFS{
		"README.md":                                  {Data: []byte("not code")},
		"aaaa/wazero-v1-amd64-linux/entry1.gz":       {Data: gz(t, "code one")},
		"aaaa/wazero-v1-amd64-linux/entry2.gz":       {Data: gz(t, "code two")},
		"aaaa/wazero-v1-amd64-linux/notes.txt":       {Data: []byte("not an entry")},
		"bbbb/wazero-v1-amd64-linux/other-module.gz": {Data: gz(t, "another module's code")},
		"aaaa/wazero-v2-amd64-linux/other-wazero.gz": {Data: gz(t, "another wazero's code")},
	}
	tests := []struct {
		name      string
		key       string
		wazeroDir string            // "" for wazero-v1-amd64-linux
		existing  map[string]string // files in the cache before
		want      map[string]string // files in the cache after
		written   int
	}{
		{name: "the module's entries", key: "aaaa",
			want:    map[string]string{"wazero-v1-amd64-linux/entry1": "code one", "wazero-v1-amd64-linux/entry2": "code two"},
			written: 2},
		{name: "no code for the module", key: "cccc", want: map[string]string{}},
		{name: "another wazero's code is not written", key: "aaaa", wazeroDir: "wazero-v3-amd64-linux", want: map[string]string{}},
		{name: "an entry already there is kept", key: "aaaa",
			existing: map[string]string{"wazero-v1-amd64-linux/entry1": "compiled here"},
			want:     map[string]string{"wazero-v1-amd64-linux/entry1": "compiled here", "wazero-v1-amd64-linux/entry2": "code two"},
			written:  1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cache := t.TempDir()
			for name, data := range tt.existing {
				p := filepath.Join(cache, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			dir := tt.wazeroDir
			if dir == "" {
				dir = "wazero-v1-amd64-linux"
			}
			paths, err := Install(set, tt.key, dir, cache)
			if err != nil {
				t.Fatal(err)
			}
			if len(paths) != tt.written {
				t.Errorf("wrote %v, want %d entries", paths, tt.written)
			}
			for _, p := range paths {
				if !strings.HasPrefix(p, cache+string(filepath.Separator)) {
					t.Errorf("wrote %s, outside the cache %s", p, cache)
				}
			}
			if got := files(t, cache); !maps.Equal(got, tt.want) {
				t.Errorf("cache after Install:\n got %v\nwant %v", got, tt.want)
			}
		})
	}
}

// TestInstallCorrupt: an entry whose compressed bytes are damaged is an
// error, and leaves neither the entry nor a temporary file behind.
func TestInstallCorrupt(t *testing.T) {
	good := gz(t, strings.Repeat("machine code ", 1000))
	damaged := slices.Clone(good)
	damaged[len(damaged)-6] ^= 0xff // inside the CRC-32 trailer
	truncated := good[:len(good)/2]
	for name, data := range map[string][]byte{"damaged": damaged, "truncated": truncated, "not gzip": []byte("plain")} {
		t.Run(name, func(t *testing.T) {
			cache := t.TempDir()
			set := fstest.MapFS{"aaaa/wazero-v1-amd64-linux/entry.gz": {Data: data}}
			if _, err := Install(set, "aaaa", "wazero-v1-amd64-linux", cache); err == nil {
				t.Fatal("Install of a damaged entry returned no error")
			}
			if got := files(t, cache); len(got) != 0 {
				t.Errorf("a failed Install left %v", got)
			}
		})
	}
}

// TestCollectThenInstall: what Collect writes from a cache, Install puts
// back byte for byte; Collect replaces another module's set and keeps the
// directory's other files, and refuses a cache with no code.
func TestCollectThenInstall(t *testing.T) {
	cache := t.TempDir()
	entries := map[string]string{
		"wazero-v1-amd64-linux/0123abcd": strings.Repeat("\x90\xc3", 5000),
	}
	for name, data := range entries {
		p := filepath.Join(cache, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// The Core's warmth marker and a compile's leftover temporary file
	// are not code.
	if err := os.WriteFile(filepath.Join(cache, "lspseam-core-aaaa.compiled"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cache, "wazero-v1-amd64-linux", "0123abcd.123.tmp"), []byte("partial"), 0o600); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, "README.md"), []byte("kept"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(out, "stale", "wazero-v1-amd64-linux"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "stale", "wazero-v1-amd64-linux", "old.gz"), gz(t, "old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Collect(cache, "aaaa", out); err != nil {
		t.Fatal(err)
	}
	var names []string
	for name := range files(t, out) {
		names = append(names, name)
	}
	slices.Sort(names)
	if want := []string{"README.md", "aaaa/wazero-v1-amd64-linux/0123abcd.gz"}; !slices.Equal(names, want) {
		t.Errorf("Collect wrote %v, want %v", names, want)
	}
	set := os.DirFS(out)
	if !Has(set, "aaaa", "wazero-v1-amd64-linux") || Has(set, "stale", "wazero-v1-amd64-linux") || Has(set, "aaaa", "wazero-v2-amd64-linux") {
		t.Errorf("Has: aaaa %v (want true), stale %v and another wazero's %v (want false)",
			Has(set, "aaaa", "wazero-v1-amd64-linux"), Has(set, "stale", "wazero-v1-amd64-linux"), Has(set, "aaaa", "wazero-v2-amd64-linux"))
	}
	again := t.TempDir()
	if _, err := Install(os.DirFS(out), "aaaa", "wazero-v1-amd64-linux", again); err != nil {
		t.Fatal(err)
	}
	if got := files(t, again); !maps.Equal(got, entries) {
		t.Errorf("installed %d files, want the %d collected, byte for byte", len(got), len(entries))
	}
	if err := Collect(t.TempDir(), "aaaa", t.TempDir()); err == nil {
		t.Error("Collect from a cache with no code returned no error")
	}
}
