package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// How much `lspseam mcp` says about each tool in tools/list (--profile):
// the tokens a client puts in every prompt. --tools chooses the tools;
// the profile chooses what each one carries beyond what a model needs to
// call it right (its name, description and input schema).
const (
	// profileStandard: each tool has a title for the client's lists and
	// annotations (read-only, closed world, destructive for a change),
	// and the first tool that needs a language server ends with the
	// workspace's census note (which languages are served).
	profileStandard = "standard"
	// profileCompact: only names, descriptions without their closing
	// example, and input schemas, for a client that shows the model the
	// whole listing or counts every token. The census is only in the
	// handshake's instructions.
	profileCompact = "compact"
)

// mcpProfile is the --profile of one `lspseam mcp` process.
type mcpProfile string

func profileFlag(fs *flag.FlagSet) *string {
	return fs.String("profile", profileStandard, "how much each tool says in tools/list: standard, or compact (no titles, annotations, examples or per-tool census note)")
}

// checkProfileFlag checks --profile before anything starts.
func checkProfileFlag(p string) error {
	switch p {
	case profileStandard, profileCompact:
		return nil
	}
	return usageError{fmt.Errorf("--profile must be standard or compact, got %q", p)}
}

// tool is def as this profile lists it; note is the workspace's census
// note ("" when there is none, or another tool says it).
func (p mcpProfile) tool(def lspseam.Tool, note string) *mcp.Tool {
	if p == profileCompact {
		return &mcp.Tool{Name: def.Name, Description: withoutExample(def.Description), InputSchema: def.InputSchema}
	}
	description := def.Description
	if note != "" {
		description += "\n\n" + note
	}
	// The read tools read source files and ask language servers; they
	// change nothing, repeating a call repeats the answer (for unchanged
	// files), and they reach nothing beyond the workspace's servers.
	// write, edit and the refactor tools change files inside the
	// workspace only. destructiveHint is left out of a read-only tool (the
	// MCP specification: it means something only for a tool that is not
	// read-only), and the title is not repeated in the annotations: every
	// token of the listing is in every prompt. (The SDK always writes
	// readOnlyHint and idempotentHint.)
	no, yes := false, true
	a := &mcp.ToolAnnotations{ReadOnlyHint: def.ReadOnly, IdempotentHint: def.ReadOnly, OpenWorldHint: &no}
	if !def.ReadOnly {
		a.DestructiveHint = &yes // write and edit replace a file's content
	}
	return &mcp.Tool{Name: def.Name, Title: def.Title, Description: description, InputSchema: def.InputSchema, Annotations: a}
}

// withoutExample drops a description's closing example line (the core
// ends each description with one: "Example: {…}" or "Examples: …").
func withoutExample(description string) string {
	i := strings.LastIndexByte(description, '\n')
	if i < 0 {
		return description
	}
	if last := description[i+1:]; strings.HasPrefix(last, "Example: ") || strings.HasPrefix(last, "Examples: ") {
		return description[:i]
	}
	return description
}
