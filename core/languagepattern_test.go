package core

import "testing"

func TestLanguageOfPathPatterns(t *testing.T) {
	jsonls, ok := ServerByID("jsonls")
	if !ok {
		t.Fatal("no jsonls entry in the server table")
	}
	preset := presetServer(jsonls)
	unknown := preset
	unknown.Known = "" // a server the table does not know: no refinement
	for _, c := range []struct {
		server ServerConfig
		path   string
		want   string
	}{
		{preset, "/w/package.json", "json"},
		{preset, "/w/settings.jsonc", "jsonc"},
		{preset, "/w/tsconfig.json", "jsonc"},
		{preset, "/w/packages/app/tsconfig.json", "jsonc"},
		{preset, "/w/jsconfig.json", "jsonc"},
		{preset, "/w/tsconfig.app.json", "jsonc"},
		{preset, "/w/tsconfig.node.json", "jsonc"},
		{preset, "/w/tsconfig-base.json", "jsonc"},
		{preset, "/w/.vscode/settings.json", "jsonc"},
		{preset, "/w/sub/.vscode/extensions.json", "jsonc"},
		{preset, `C:\w\.vscode\launch.json`, "jsonc"},
		{preset, "file:///w/.vscode/launch.json", "jsonc"},
		{preset, "/w/vscode/settings.json", "json"},
		{preset, "/w/.vscode/notes.txt", ""},
		{preset, "/w/mytsconfig.json", "json"},
		{unknown, "/w/tsconfig.json", "json"},
	} {
		got, _ := c.server.LanguageOf(c.path)
		if got != c.want {
			t.Errorf("LanguageOf(%q) known=%q = %q, want %q", c.path, c.server.Known, got, c.want)
		}
	}
}
