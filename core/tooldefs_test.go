package core

import (
	"strings"
	"testing"
)

// Every listing states each shared convention (the target grammar, the
// preview-then-apply rule, the read-first rule) exactly once, in the first
// listed tool that needs it, and every other tool that needs it refers to
// that tool by name, which the same listing has (issue 23: the grammar
// repeated in every targeted tool was a quarter of the listing's tokens).
func TestSharedConventionsStatedOnce(t *testing.T) {
	conventions := map[string]*convention{"target": targetGrammar, "approval": approvalGrammar, "observation": observationGrammar}
	selections := [][]string{nil, DefaultToolsets, {ToolsetCode}, {ToolsetRefactor}, {ToolsetFS}, {ToolsetRefactor, ToolsetCode}, {ToolsetLSP}}
	for _, sel := range selections {
		tools, err := ToolDefinitions(sel)
		if err != nil {
			t.Fatal(err)
		}
		listed := map[string]bool{}
		for _, tool := range tools {
			listed[tool.Name] = true
		}
		for name, c := range conventions {
			owner := ""
			for _, tool := range tools {
				needs := false
				for _, n := range toolTexts[tool.Name].conventions {
					needs = needs || n == c
				}
				full := strings.Count(tool.Description, c.full)
				switch {
				case !needs && full > 0:
					t.Errorf("%v: %s states the %s convention it does not need", sel, tool.Name, name)
				case needs && owner == "":
					owner = tool.Name
					if full != 1 {
						t.Errorf("%v: %s, the first tool needing the %s convention, states it %d times", sel, tool.Name, name, full)
					}
				case needs:
					if full != 0 || !strings.Contains(tool.Description, c.ref(owner)) {
						t.Errorf("%v: %s should refer to %s for the %s convention: %q", sel, tool.Name, owner, name, tool.Description)
					}
					if !listed[owner] {
						t.Errorf("%v: %s refers to %s, which is not listed", sel, tool.Name, owner)
					}
				}
			}
		}
	}
}

// A change tool listed without the code toolset states the target grammar
// itself; with it, code_navigate does and the change tools refer to it.
func TestTargetGrammarOwner(t *testing.T) {
	for _, tt := range []struct {
		toolsets []string
		owner    string
	}{
		{DefaultToolsets, ToolCodeNavigate},
		{[]string{ToolsetRefactor}, ToolCodeRename},
		{[]string{ToolsetRefactor, ToolsetCode}, ToolCodeNavigate},
	} {
		tools, _ := ToolDefinitions(tt.toolsets)
		for _, tool := range tools {
			if strings.Contains(tool.Description, targetGrammar.full) && tool.Name != tt.owner {
				t.Errorf("%v: %s states the target grammar, want %s", tt.toolsets, tool.Name, tt.owner)
			}
		}
	}
}

// Every tool carries its own title (clients list tools by it), and no two
// tools share one.
func TestEveryToolHasATitle(t *testing.T) {
	defs, err := ToolDefinitions(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(defs) != 17 {
		t.Errorf("%d tools, want 17: a new tool needs a title too", len(defs))
	}
	seen := map[string]string{}
	for _, d := range defs {
		if d.Title == "" || len(d.Title) > 40 {
			t.Errorf("%s: title %q, want a few words", d.Name, d.Title)
		}
		if other, dup := seen[d.Title]; dup {
			t.Errorf("%s and %s share the title %q", d.Name, other, d.Title)
		}
		seen[d.Title] = d.Name
	}
}

// edit changes existing files only, and its description says so (it once
// read as if it could create one).
func TestEditDescriptionSaysExistingFiles(t *testing.T) {
	defs, _ := ToolDefinitions([]string{ToolsetFS})
	for _, d := range defs {
		if d.Name == ToolEdit && (!strings.Contains(d.Description, "existing") || !strings.Contains(d.Description, "write creates files")) {
			t.Errorf("edit: %q", d.Description)
		}
	}
}
