package localstdio

import (
	"context"
	"log/slog"
	"sort"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// A missing optional server still owns its extensions: a query on them is
// answered with LSP_UNAVAILABLE naming the server, where it was looked for
// and how to install it, instead of the generic "no language server is
// configured for .go files", which hides the cause.

// StartTable is Start for a loaded table: it registers a provider per
// server found and, for each missing optional server, one that answers
// every query with LSP_UNAVAILABLE saying what to install.
func StartTable(ctx context.Context, core *lspseam.Core, service *lspseam.Service, t *Table, log *slog.Logger) (*Host, error) {
	missing := make([]lspseam.Registration, 0, len(t.Missing))
	for _, m := range t.Missing {
		missing = append(missing, lspseam.Registration{
			ID:                  m.ID,
			ExtensionToLanguage: m.Config.ExtensionToLanguage,
			FileNameToLanguage:  m.Config.FileNameToLanguage,
			Provider:            missingProvider{m},
		})
	}
	return start(ctx, core, service, t.Servers, t.Config, log, missing)
}

type missingProvider struct{ server MissingServer }

func (p missingProvider) Query(ctx context.Context, q lspseam.ProviderQuery) (lspseam.Result, error) {
	return lspseam.Result{}, lspseam.Errorf(lspseam.CodeUnavailable, "%s", p.server.Unavailable())
}

// Session answers the code tools as Query answers the lsp tool: with what
// to install. (Without it a code tool on a missing server's file was told
// the provider answers the lsp tool only.)
func (p missingProvider) Session(ctx context.Context, q lspseam.ProviderQuery, fn func(context.Context, lspseam.Session) error) error {
	return lspseam.Errorf(lspseam.CodeUnavailable, "%s", p.server.Unavailable())
}

// Running: a missing server never runs.
func (p missingProvider) Running(lspseam.ProviderQuery) bool { return false }

// ProjectRoot: a missing server has no project roots; its files are one
// group, the workspace.
func (p missingProvider) ProjectRoot(q lspseam.ProviderQuery) string {
	ws, err := CanonicalWorkspace(q.WorkspaceRoot)
	if err != nil {
		return ""
	}
	return ws.Path
}

// Unavailable is the message of the LSP_UNAVAILABLE a query on the
// server's files gets.
func (m MissingServer) Unavailable() string {
	exts := make([]string, 0, len(m.Config.ExtensionToLanguage))
	for ext := range m.Config.ExtensionToLanguage {
		exts = append(exts, ext)
	}
	for name := range m.Config.FileNameToLanguage {
		exts = append(exts, name)
	}
	sort.Strings(exts)
	var b strings.Builder
	b.WriteString("the language server for " + strings.Join(exts, ", ") + " files (" + m.ID + ") is not installed: " + m.NotFound + ". ")
	if m.Install != "" {
		b.WriteString("To install it: " + m.Install + "; then start lspseam again. ")
	}
	b.WriteString("Until then use a text search (grep) and read for its files.")
	return b.String()
}
