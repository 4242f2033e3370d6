package e2e

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// tsProject is a TypeScript project's tsconfig.json and package.json.
var tsProject = map[string]string{
	"package.json":  "{\"name\": \"deps\", \"private\": true}\n",
	"tsconfig.json": "{\n  \"compilerOptions\": {\"strict\": true, \"target\": \"es2020\", \"module\": \"commonjs\", \"noEmit\": true},\n  \"include\": [\"src\"]\n}\n",
}

// TestTypeScriptRenameOntoExistingName: code_rename of type User to Team
// where Team already exists beside it. The users of the existing Team
// are dependents (its references, asked before the change): the preview
// and the applied answer both report the new error in team-card.ts,
// which uses Team's name (findings s28 F7: only the duplicate
// identifiers were shown). And the 9 functions whose signatures merely
// name User are not declarations whose references a rename must ask (its
// own dependents are the renamed symbol's uses): neither answer says
// that declarations' references were not asked (findings s28 F11: "at
// least 5 more changed declarations were not asked" on a correct rename,
// 10 in the preview and 3 applied).
func TestTypeScriptRenameOntoExistingName(t *testing.T) {
	requireServers(t, "typescript-language-server")
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"src/types.ts": "export type User = {\n  id: string;\n  email: string;\n};\n\n" +
			"export type Team = {\n  id: string;\n  name: string;\n};\n",
		"src/team-card.ts": "import { Team } from \"./types\";\n\nexport function teamLabel(team: Team): string {\n  return team.name;\n}\n",
	}
	for i := range 9 {
		files[fmt.Sprintf("src/user%d.ts", i)] = "import { User } from \"./types\";\n\n" +
			fmt.Sprintf("export function email%d(user: User): string {\n  return user.email;\n}\n", i)
	}
	for k, v := range tsProject {
		files[k] = v
	}
	writeTree(t, dir, files)
	srv := catalogServe(t, "--approval", "preview")
	defer srv.shutdown(t)
	args := map[string]any{"target": map[string]any{"path": "src/types.ts", "symbol": "User"}, "newName": "Team"}
	const broken = "src/team-card.ts:4:15 error TS2339: Property 'name' does not exist on type 'Team'."

	a := srv.toolCall(t, "code_rename", jsonArgs(args), dir)
	preview := a.Content[0].Text
	t.Logf("preview:\n%s", preview)
	var s struct {
		PreviewID string `json:"previewId"`
	}
	if err := json.Unmarshal(a.StructuredContent, &s); a.IsError || err != nil || s.PreviewID == "" {
		t.Fatalf("no preview: %s", a.StructuredContent)
	}
	args["previewId"] = s.PreviewID
	a = srv.toolCall(t, "code_rename", jsonArgs(args), dir)
	applied := a.Content[0].Text
	t.Logf("applied:\n%s", applied)
	if a.IsError {
		t.Fatalf("apply: %s", applied)
	}
	for what, text := range map[string]string{"preview": preview, "applied answer": applied} {
		if !strings.Contains(text, broken) {
			t.Errorf("the %s does not report the error in a user of the existing Team (%s)", what, broken)
		}
		if strings.Contains(text, "not asked") {
			t.Errorf("the %s says the references of some declarations were not asked, of a rename whose other edits are uses", what)
		}
	}
}

// TestTypeScriptColdWriteNamesDependents: the first call of a session
// after a read, the server cold, is a `write` removing `export` from a component 5 files
// import. The answer reports the 5 files' new errors: the references of
// the declaration whose line changed are asked within the call's budget
// (findings s28 F4: "Other files: none refer to what changed" while the
// 5 importers broke). Never "none refer to what changed".
func TestTypeScriptColdWriteNamesDependents(t *testing.T) {
	requireServers(t, "typescript-language-server")
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	layout := "src/layout.ts"
	before := "export type LayoutProps = {\n  title: string;\n};\n\nexport const Layout = ({ title }: LayoutProps): string => {\n  return `<h1>${title}</h1>`;\n};\n"
	files := map[string]string{layout: before}
	for i := range 5 {
		files[fmt.Sprintf("src/page%d.ts", i)] = "import { Layout } from \"./layout\";\n\n" + fmt.Sprintf("export const page%d = Layout({ title: \"page %d\" });\n", i, i)
	}
	for k, v := range tsProject {
		files[k] = v
	}
	writeTree(t, dir, files)
	srv := catalogServe(t, "--approval", "auto")
	defer srv.shutdown(t)
	// A write needs the file read first; the read starts no server.
	if a := srv.toolCall(t, "read", jsonArgs(map[string]any{"file_path": layout}), dir); a.IsError {
		t.Fatalf("read: %s", a.Content[0].Text)
	}
	after := strings.Replace(before, "export const Layout", "const Layout", 1)
	a := srv.toolCall(t, "write", jsonArgs(map[string]any{"file_path": layout, "content": after}), dir)
	text := a.Content[0].Text
	t.Logf("write:\n%s", text)
	if a.IsError {
		t.Fatalf("write: %s", text)
	}
	if strings.Contains(text, "none refer to what changed") {
		t.Errorf("the cold write says none refer to what changed")
	}
	for i := range 5 {
		if !strings.Contains(text, fmt.Sprintf("src/page%d.ts:1:10 error TS2459", i)) && !strings.Contains(text, fmt.Sprintf("src/page%d.ts:1:10 error TS2305", i)) {
			t.Errorf("the cold write does not report the broken import of src/page%d.ts", i)
		}
	}
}
