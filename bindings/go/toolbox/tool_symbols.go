package toolbox

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// code_symbols: a file's outline; with query and path, a symbol search by
// the server (and project) of the file's language; with query alone, a
// search of every language in the workspace (tool_wsymbols.go).

func (t *Toolbox) symbols(ctx context.Context, call lspseam.CodeCall, ws string) (answer, error) {
	return t.paged(ctx, call, ws, t.symbolsPage)
}

// symbolsPage answers code_symbols from the offset-th match of a search,
// or the offset-th symbol of an outline (in document order).
func (t *Toolbox) symbolsPage(ctx context.Context, call lspseam.CodeCall, ws string, offset int, from *pageState) (answer, error) {
	if call.Path == "" {
		return t.workspaceSymbols(ctx, call, ws, offset, from)
	}
	if isDirectory(call.Path, ws) {
		return answer{}, lspseam.Errorf(lspseam.CodeInvalidArgument, "path %s is a directory: code_symbols' path names a file (its outline, or with query the search of its language's server and project); give a file in it, or leave path out to search every language of the workspace", call.Path)
	}
	var a answer
	err := t.service.Session(ctx, call.Path, ws, func(ctx context.Context, s lspseam.Session) error {
		f, err := s.Open(ctx, call.Path)
		if err != nil {
			return err
		}
		in := map[string]any{"workspaceUri": s.WorkspaceURI(), "limit": call.Limit, "offset": offset}
		var req lspseam.CodeRequest
		if call.Query == "" {
			in["mode"], in["uri"] = "document", f.URI
			req, err = t.core.CodeRequest(ctx, lspseam.CodeRequestInput{Method: "textDocument/documentSymbol", URI: f.URI, Methods: s.Methods(), Server: s.Server()})
		} else {
			in["mode"], in["query"], in["dependencies"] = "workspace", call.Query, call.Dependencies
			req, err = t.core.CodeRequest(ctx, lspseam.CodeRequestInput{Method: "workspace/symbol", Query: call.Query, Methods: s.Methods(), Server: s.Server()})
			if err == nil {
				in["scope"], err = t.searchScope(ctx, s, f, call.Path, ws)
			}
		}
		if err != nil {
			return err
		}
		raw, err := s.Request(ctx, req.Method, req.Params)
		if err != nil {
			return err
		}
		in["result"] = json.RawMessage(raw)
		out, err := t.coreJSON(ctx, "codeSymbols", in)
		if err != nil {
			return serverPayloadError(err, s.Server(), req.Method)
		}
		a, err = t.pagedCoreAnswer(out, call, from)
		if err != nil {
			return err
		}
		a.incomplete = joinNotices(a.incomplete, s.Notice())
		return nil
	})
	return a, err
}

// searchScope says what one server's search for f covers (the core words
// it: never "the workspace"). A server whose search follows its last
// document (typescript-language-server) is made to search f's projects:
// opening f does not make it the last document when it was open already.
func (t *Toolbox) searchScope(ctx context.Context, s lspseam.Session, f lspseam.SourceFile, path, ws string) (map[string]any, error) {
	wsPath, _ := workspacefs.HostPaths.URIPath(s.WorkspaceURI())
	scope := map[string]any{"server": s.Server(), "path": relTo(wsPath, f.Path), "root": "."}
	if root := t.service.ProjectRoot(ctx, path, ws); root != "" {
		scope["root"] = relTo(wsPath, filepath.Clean(root))
	}
	if c := s.Policy().SymbolCap; c > 0 {
		scope["cap"] = c
	}
	if s.Policy().SymbolSearch == core.SymbolSearchTsserver {
		if _, err := s.Request(ctx, "textDocument/documentSymbol", documentParams(f.URI)); err != nil {
			return nil, err
		}
		scope["followsDocument"] = true
	}
	return scope, nil
}

// isDirectory reports whether path (relative to the workspace ws, or
// absolute) names a directory: a directory has no language to route by,
// and the router's "no file extension" would not say what was wrong.
func isDirectory(path, ws string) bool {
	if !filepath.IsAbs(path) {
		path = filepath.Join(ws, path)
	}
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
