package toolbox

import (
	"context"
	"encoding/json"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/core"
)

// A server may give no outline for a file it otherwise serves in full:
// typescript-language-server lists no document symbols for a .vue file
// (@vue/typescript-plugin does not map tsserver's navigation tree), yet its
// workspace symbol search (navto, which the plugin maps) finds the
// file's <script> declarations with their whole spans — measured on
// un-pany/v3-admin-vite: Result.vue's getScrollTop as 41:1–47:2, the
// function from its keyword to its closing brace. A symbol target in such
// a file is resolved from that search instead, so the symbol tools
// (code_replace, code_insert, code_delete) work on it as on a .ts file.

// searchedOutline is the outline of f's declarations named as query's
// last segment, from the server's workspace symbol search; empty when the
// server has no search or finds none in f.
func (t *Toolbox) searchedOutline(ctx context.Context, s lspseam.Session, f lspseam.SourceFile, query string) ([]lspseam.OutlineEntry, error) {
	segs := strings.Split(strings.TrimSpace(query), ".")
	name := segs[len(segs)-1]
	if name == "" || !s.Methods()["workspace/symbol"] {
		return nil, nil
	}
	if s.Policy().SymbolSearch == core.SymbolSearchTsserver {
		// tsserver searches the projects of its last document: make it
		// f's (an outline from the cache asked the server nothing).
		if _, err := s.Request(ctx, "textDocument/documentSymbol", documentParams(f.URI)); err != nil {
			return nil, err
		}
	}
	req, err := t.core.CodeRequest(ctx, lspseam.CodeRequestInput{Method: "workspace/symbol", Query: name, Methods: s.Methods(), Server: s.Server()})
	if err != nil {
		return nil, err
	}
	raw, err := s.Request(ctx, req.Method, req.Params)
	if err != nil {
		return nil, err
	}
	var found []struct {
		Name          string          `json:"name"`
		Kind          int             `json:"kind"`
		ContainerName string          `json:"containerName,omitempty"`
		Location      json.RawMessage `json:"location"`
	}
	if json.Unmarshal(raw, &found) != nil {
		return nil, nil // a shape this does not read: no outline, as before
	}
	var inFile []json.RawMessage
	for _, sym := range found {
		var loc struct {
			URI   string         `json:"uri"`
			Range *lspseam.Range `json:"range"`
		}
		if sym.Name != name || json.Unmarshal(sym.Location, &loc) != nil || loc.URI != f.URI || loc.Range == nil {
			continue
		}
		// A SymbolInformation, which the core flattens as it does a
		// documentSymbol answer of that form.
		b, _ := json.Marshal(map[string]any{"name": sym.Name, "kind": sym.Kind, "containerName": sym.ContainerName, "location": map[string]any{"uri": loc.URI, "range": loc.Range}})
		inFile = append(inFile, b)
	}
	if len(inFile) == 0 {
		return nil, nil
	}
	symbols, _ := json.Marshal(inFile)
	return t.core.FlattenSymbols(ctx, symbols, f.Text)
}
