package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// referencesText is the text of `lspseam query findReferences at`
// (FILE:LINE:CHARACTER) on dir, in a process of its own.
func referencesText(t *testing.T, dir, at string) string {
	t.Helper()
	cmd := exec.Command(shimPath, "query", "--format", "json", "--workspace", dir, "findReferences", at)
	cmd.Env = presetEnv()
	out, err := cmd.Output()
	if code := exitCode(t, err); code != 0 {
		t.Fatalf("%s: exit %d: %s", at, code, out)
	}
	var answer struct {
		OK struct {
			Text string `json:"text"`
		} `json:"ok"`
	}
	if err := json.Unmarshal(out, &answer); err != nil {
		t.Fatalf("%s: %v: %s", at, err, out)
	}
	return answer.OK.Text
}

// TestTypeScriptFileOutsideProjects: references of a symbol in a file
// that no tsconfig.json includes come from tsserver's inferred project —
// the files it has loaded — so the answer either finds every use or says
// it may be partial; a file of a configured project is not marked for it.
// (On sindresorhus/ky's tests the same findReferences answered 3, 3, 64,
// then 141 of ~336 uses as more files were opened, never marked.)
func TestTypeScriptFileOutsideProjects(t *testing.T) {
	requireServers(t, "typescript-language-server")
	dir := copyFixture(t, "tsprojects")
	// A second use of the helper, in a file outside every project that is
	// never opened: tsserver's inferred project for the helper lacks it.
	other := "import { createHttpTestServer } from \"./helpers/create-http-test-server\";\n\nexport const server = createHttpTestServer(1);\n"
	if err := os.WriteFile(filepath.Join(dir, "test", "other.test.ts"), []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	query := func(at string) string { return referencesText(t, dir, at) }
	text := query("test/helpers/create-http-test-server.ts:6:17")
	found := strings.Contains(text, "test/other.test.ts:3:")
	marked := strings.Contains(text, "possibly incomplete") && strings.Contains(text, "is in no tsconfig.json or jsconfig.json project")
	if !found && !marked {
		t.Errorf("references from a file outside every project miss test/other.test.ts and are not marked:\n%s", text)
	}
	// From a file of the configured project (source/), the files of the
	// root outside it (test/, e2e/) are searched only while loaded: the
	// answer says so, naming one.
	text = query("source/index.ts:2:17")
	if strings.Contains(text, "no tsconfig.json or jsconfig.json project") {
		t.Errorf("a file of a configured project is marked as outside every project:\n%s", text)
	}
	if !strings.Contains(text, "possibly incomplete") || !strings.Contains(text, "outside tsconfig.json's project and may import this file (such as test/helpers/create-http-test-server.ts)") {
		t.Errorf("references from the configured project do not say that the files outside it were not searched:\n%s", text)
	}
}

// TestTypeScriptImpactOutsideTheProject: a signature change in the
// configured project (source/) whose only caller is outside it (test/,
// which no project holds until it is opened): tsserver's references do
// not find the caller, and the edit's answer says its "none use what
// changed" is only as far as the server searched, and why — not that no
// other file uses it.
func TestTypeScriptImpactOutsideTheProject(t *testing.T) {
	requireServers(t, "typescript-language-server")
	dir := copyFixture(t, "tsprojects")
	srv := catalogServe(t)
	defer srv.shutdown(t)
	if a := srv.toolCall(t, "read", jsonArgs(map[string]any{"file_path": "source/index.ts"}), dir); a.IsError {
		t.Fatalf("read: %s", a.Content[0].Text)
	}
	change := verifyEdit{"export function startServer(port: number): string {", "export function startServer(port: number, host: string): string {"}
	a := srv.toolCall(t, "edit", editArgs("source/index.ts", change, false), dir)
	text := a.Content[0].Text
	if a.IsError {
		t.Fatalf("edit: %s", text)
	}
	t.Logf("edit:\n%s", text)
	found := strings.Contains(text, "test/server.test.ts")
	said := strings.Contains(text, "as far as the server searched") && strings.Contains(text, "may have missed files") && strings.Contains(text, "outside tsconfig.json's project")
	if !found && !said {
		t.Errorf("the caller in test/ was neither checked nor said to be possibly missed:\n%s", text)
	}
	// A rename from source/ edits what tsserver found: its preview says
	// that uses outside the project may be left as they were.
	a = srv.toolCall(t, "code_rename", jsonArgs(map[string]any{"target": map[string]any{"path": "source/index.ts", "symbol": "startServer"}, "newName": "start"}), dir)
	text = a.Content[0].Text
	t.Logf("rename preview:\n%s", text)
	if a.IsError || (!strings.Contains(text, "test/server.test.ts") && !strings.Contains(text, "Incomplete: the rename may have missed uses the server did not search")) {
		t.Errorf("a rename preview that misses test/ does not say it may:\n%s", text)
	}
}

// TestTypeScriptOtherProjectsOfTheWorkspace: a file of a nested project
// (packages/lib, with its own tsconfig.json and package.json, so its own
// project root) whose uses are in another tsconfig.json project of the
// workspace (the root one, holding scripts/): tsserver searches only the
// projects it has loaded, so the answers either find scripts/ or say that
// they did not search it — and code_delete does not delete what scripts/
// still uses. (colinhacks/zod: a rename of `version` from packages/zod
// broke scripts/check-versions.ts, unmarked, because only the nested
// project root was compared with the project.)
func TestTypeScriptOtherProjectsOfTheWorkspace(t *testing.T) {
	requireServers(t, "typescript-language-server")
	dir := copyFixture(t, "tsmonorepo")
	text := referencesText(t, dir, "packages/lib/src/version.ts:2:14")
	found := strings.Contains(text, "scripts/check-version.ts")
	marked := strings.Contains(text, "possibly incomplete") && strings.Contains(text, "outside packages/lib/tsconfig.json's project and may import this file (such as scripts/check-version.ts)")
	if !found && !marked {
		t.Errorf("references from packages/lib miss scripts/check-version.ts and are not marked:\n%s", text)
	}
	srv := catalogServe(t)
	defer srv.shutdown(t)
	before := string(readFile(t, filepath.Join(dir, "packages", "lib", "src", "version.ts")))
	a := srv.toolCall(t, "code_delete", jsonArgs(map[string]any{"target": map[string]any{"path": "packages/lib/src/version.ts", "symbol": "isRelease"}}), dir)
	t.Logf("code_delete:\n%s", a.Content[0].Text)
	if !a.IsError || !strings.Contains(a.Content[0].Text, "scripts/check-version.ts") {
		t.Errorf("code_delete of a function scripts/ calls is not refused naming it:\n%s", a.Content[0].Text)
	}
	if got := string(readFile(t, filepath.Join(dir, "packages", "lib", "src", "version.ts"))); got != before {
		t.Errorf("code_delete changed version.ts although scripts/check-version.ts uses isRelease")
	}
	a = srv.toolCall(t, "code_rename", jsonArgs(map[string]any{"target": map[string]any{"path": "packages/lib/src/version.ts", "symbol": "version"}, "newName": "libVersion"}), dir)
	text = a.Content[0].Text
	t.Logf("rename preview:\n%s", text)
	if a.IsError || (!strings.Contains(text, "scripts/check-version.ts") && !strings.Contains(text, "Incomplete: the rename may have missed uses the server did not search")) {
		t.Errorf("a rename preview that misses scripts/ does not say it may:\n%s", text)
	}
}
