package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/localstdio"
)

// The workspace's languages and their servers, as `lspseam doctor`,
// `lspseam servers install --detected` and `lspseam mcp`'s handshake see
// them: the config (or the presets) loaded as a query would load it, the
// workspace's files counted per language (localstdio.CountLanguages), and
// the two joined (Table.Serving).

// workspaceLanguages is a census joined with a loaded table.
type workspaceLanguages struct {
	workspace string
	census    localstdio.LanguageCensus
	languages []localstdio.LanguageServing
	table     *localstdio.Table
}

// loadTable loads --config, or the presets without one, with the CLI's
// search directories and install advice.
func loadTable(ctx context.Context, c *lspseam.Core, config string) (*localstdio.Table, error) {
	if config != "" {
		return localstdio.LoadFile(ctx, c, config, loadOptions())
	}
	return localstdio.LoadPresets(ctx, c, loadOptions())
}

// countWorkspaceLanguages loads the table and counts the workspace's
// languages within opts.
func countWorkspaceLanguages(ctx context.Context, workspace, config string, opts localstdio.CensusOptions, stderr io.Writer) (workspaceLanguages, error) {
	ws, err := localstdio.CanonicalWorkspace(workspace)
	if err != nil {
		return workspaceLanguages{}, err
	}
	log, _ := newLogger("warn", stderr)
	c, err := lspseam.NewCore(ctx, lazyCoreOptions(log)...)
	if err != nil {
		return workspaceLanguages{}, err
	}
	defer c.Close(ctx)
	table, err := loadTable(ctx, c, config)
	if err != nil {
		return workspaceLanguages{}, err
	}
	return censusOf(ctx, ws.Path, table, opts)
}

// censusOf counts a workspace's languages for an already loaded table.
func censusOf(ctx context.Context, workspace string, table *localstdio.Table, opts localstdio.CensusOptions) (workspaceLanguages, error) {
	census, err := localstdio.CountLanguages(ctx, workspace, table.Config, opts)
	if err != nil {
		return workspaceLanguages{}, lspseam.Errorf(lspseam.CodeWorkspaceInvalid, "cannot read the workspace %s: %v", workspace, err)
	}
	return workspaceLanguages{workspace: workspace, census: census, languages: table.Serving(census), table: table}, nil
}

// notServed are the languages present that no found server serves.
func (w workspaceLanguages) notServed() []localstdio.LanguageServing {
	var out []localstdio.LanguageServing
	for _, l := range w.languages {
		if l.State != localstdio.ServingFound {
			out = append(out, l)
		}
	}
	return out
}

// mcpCensusTimeout bounds the census `lspseam mcp` makes before its
// handshake: a client waits for the handshake, and a partial census that
// says so is better than a slow start.
const mcpCensusTimeout = 300 * time.Millisecond

// summary is the census in a few sentences for a model (the MCP
// handshake's instructions): which languages are served, which are not
// and how to install their servers.
func (w workspaceLanguages) summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Languages of the workspace %s", w.workspace)
	if w.census.Incomplete != "" {
		fmt.Fprintf(&b, " (census incomplete: %s; more languages may be present)", w.census.Incomplete)
	}
	b.WriteString(": ")
	if len(w.languages) == 0 {
		b.WriteString("no source file of a language lspseam knows was found.")
		return b.String()
	}
	var served, missing []string
	for _, l := range w.languages {
		name := fmt.Sprintf("%s (%s)", l.Name, plural(l.Files, "file"))
		if l.State == localstdio.ServingFound {
			served = append(served, name)
			continue
		}
		how := "no server installs it"
		switch {
		case l.Install != "":
			how = "the user can run `" + l.Install + "`"
		case l.Manual != "":
			how = "install by hand: " + l.Manual
		}
		if l.State == localstdio.ServingUnconfigured {
			how = "no configured server claims " + strings.Join(l.Kinds, ", ") + " files; " + how
		}
		missing = append(missing, name+" — "+how)
	}
	if len(served) > 0 {
		b.WriteString("served by a language server (the lsp and code tools answer for their files): " + strings.Join(served, ", ") + ".")
	}
	if len(missing) > 0 {
		if len(served) > 0 {
			b.WriteString(" ")
		}
		b.WriteString("NOT served (calls on their files answer LSP_UNAVAILABLE; use search and read for them): " + strings.Join(missing, "; ") + ".")
		b.WriteString(" `lspseam servers install --detected` installs every missing server it can; then restart lspseam.")
	}
	return b.String()
}

// toolNote is the census in one line for the descriptions of the tools
// that need a language server.
func (w workspaceLanguages) toolNote() string {
	var served, missing []string
	for _, l := range w.languages {
		if l.State == localstdio.ServingFound {
			served = append(served, l.Name)
		} else {
			missing = append(missing, l.Name)
		}
	}
	if len(served)+len(missing) == 0 {
		return ""
	}
	note := "In this workspace"
	if w.census.Incomplete != "" {
		note += " (census incomplete)"
	}
	if len(served) > 0 {
		note += ", served: " + strings.Join(served, ", ")
	}
	if len(missing) > 0 {
		note += "; not served (no language server installed; use a text search (grep) and read): " + strings.Join(missing, ", ")
	}
	return note + "."
}

// mcpCensus is the census `lspseam mcp` makes before its handshake, of
// --workspace or else the current directory (the client's roots are known
// only after the handshake), within mcpCensusTimeout. Nil when the
// directory cannot be read: the handshake then says nothing of languages.
func mcpCensus(ctx context.Context, h *host, workspace string) *workspaceLanguages {
	if workspace == "" {
		return nil
	}
	ws, err := localstdio.CanonicalWorkspace(workspace)
	if err != nil {
		return nil
	}
	w, err := censusOf(ctx, ws.Path, h.table, localstdio.CensusOptions{Timeout: mcpCensusTimeout})
	if err != nil {
		h.log.Info("no census of the workspace for the handshake", "reason", err)
		return nil
	}
	h.log.Info("census of the workspace", "workspace", w.workspace, "files", w.census.Files, "languages", len(w.languages), "elapsed", w.census.Elapsed, "incomplete", w.census.Incomplete)
	return &w
}
