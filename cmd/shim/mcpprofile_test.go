package main

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// --profile compact lists each tool with only what a model needs to call
// it: its name, its description without the closing example, and its
// input schema; no title, no annotations, no census note (the handshake's
// instructions keep the census).
func TestMCPCompactProfile(t *testing.T) {
	f := newMCPFixture(t)
	ctx := context.Background()
	list := func(profile string) (*mcp.ListToolsResult, string) {
		cs, _, _ := f.connectMCP(t, mcp.NewClient(&mcp.Implementation{Name: "lspseam-test", Version: "0"}, nil),
			"--config", f.config, "--workspace", f.workspace, "--tools", "lsp,code,fs", "--profile", profile)
		defer cs.Close()
		tools, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		return tools, cs.InitializeResult().Instructions
	}
	standard, _ := list("standard")
	compact, instructions := list("compact")
	if !strings.Contains(instructions, "served by a language server") {
		t.Errorf("compact: the instructions lose the census: %q", instructions)
	}
	if len(compact.Tools) != len(standard.Tools) || len(compact.Tools) != 10 {
		t.Fatalf("compact lists %d tools, standard %d, want 10", len(compact.Tools), len(standard.Tools))
	}
	c, err := lspseam.NewCore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defs, err := c.ToolDefinitions(ctx, []string{"lsp", "code", "fs"})
	c.Close(ctx)
	if err != nil {
		t.Fatal(err)
	}
	examples := 0
	for _, def := range defs {
		tool := toolNamed(compact.Tools, def.Name)
		if tool == nil {
			t.Errorf("compact lacks %s", def.Name)
			continue
		}
		if tool.Title != "" || tool.Annotations != nil {
			t.Errorf("compact %s: title %q, annotations %+v", tool.Name, tool.Title, tool.Annotations)
		}
		if strings.Contains(tool.Description, "Example") || strings.Contains(tool.Description, "In this workspace") {
			t.Errorf("compact %s: %q", tool.Name, tool.Description)
		}
		if !strings.HasPrefix(def.Description, tool.Description) {
			t.Errorf("compact %s: %q is not the start of the core's %q", tool.Name, tool.Description, def.Description)
		}
		if tool.Description != def.Description {
			examples++
		}
		if s := toolNamed(standard.Tools, def.Name); s == nil || len(s.Description) < len(tool.Description) {
			t.Errorf("standard %s: %+v", def.Name, s)
		}
	}
	if examples == 0 {
		t.Error("compact dropped no example")
	}
}

func TestWithoutExample(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"Does a thing.\nExample: {\"path\":\"a.go\"}.", "Does a thing."},
		{"Does a thing.\nrule.\nExamples: {\"a\":1}; {\"b\":2}.", "Does a thing.\nrule."},
		{"Does a thing.\nPreviews, then applies.", "Does a thing.\nPreviews, then applies."},
		{"Example: alone", "Example: alone"},
		{"Does a thing. Example: inline", "Does a thing. Example: inline"},
	} {
		if got := withoutExample(tt.in); got != tt.want {
			t.Errorf("withoutExample(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
