package localstdio

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// A server installed by npm gets the node_modules directory it was
// installed into wherever its initializationOptions say
// ${commandNodeModules}, through the .bin link npm makes.
func TestExpandInitializationOptions(t *testing.T) {
	dir := t.TempDir()
	modules := filepath.Join(dir, "pre \"fix\"", "node_modules")
	pkg := filepath.Join(modules, "typescript-language-server", "lib")
	bin := filepath.Join(modules, ".bin")
	for _, d := range []string{pkg, bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(pkg, "cli.mjs"), []byte("#!/usr/bin/env node\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(bin, "typescript-language-server")
	if err := os.Symlink("../typescript-language-server/lib/cli.mjs", link); err != nil {
		t.Fatal(err)
	}
	raw := json.RawMessage(`{"plugins":[{"name":"@vue/typescript-plugin","location":"${commandNodeModules}","languages":["vue"]}]}`)
	var got struct {
		Plugins []struct{ Location string } `json:"plugins"`
	}
	if err := json.Unmarshal(expandInitializationOptions(raw, link), &got); err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(modules)
	if len(got.Plugins) != 1 || got.Plugins[0].Location != want {
		t.Fatalf("location %+v, want %q", got.Plugins, want)
	}

	// Not installed by npm: the placeholder becomes "" (and options
	// without it are sent as they are).
	if out := expandInitializationOptions(raw, "/usr/bin/env"); !json.Valid(out) || string(out) != `{"plugins":[{"name":"@vue/typescript-plugin","location":"","languages":["vue"]}]}` {
		t.Fatalf("outside node_modules: %s", out)
	}
	plain := json.RawMessage(`{"provideFormatter":true}`)
	if out := expandInitializationOptions(plain, link); string(out) != string(plain) {
		t.Fatalf("options without the placeholder changed: %s", out)
	}
}
