package localstdio

import (
	"encoding/json"

	"github.com/lspseam/lspseam/core"
)

// A search of a name no other file can name covers every use once it
// covers its own file, which tsserver always searches (the file is open
// and in the project it loaded for it). Such a search leaves out the
// caveats of projectscope.go and unsearchedimporters.go (files outside
// that project, MDX, Svelte and Vue files that may import this one):
// those files cannot import what the module does not export. Measured on
// colinhacks/zod: code_delete of a non-exported function that tsserver
// reported unused (TS6133) was refused because "55 files of the workspace
// are outside packages/zod/tsconfig.json's project and may import this
// file", and every references and rename answer of a module-private
// name carried that paragraph. Which names are private is the core's
// ModulePrivate (a module's top-level declaration it does not export,
// an ECMAScript #name); anything it cannot tell keeps the caveat.

// privateSearch says whether a search by this tsserver instance from pos
// of the file at path, whose text the server has, is of a name only that
// file can use.
func (in *instance) privateSearch(path, text string, pos core.Position) bool {
	return in.neg.Readiness.SymbolSearch == core.SymbolSearchTsserver && core.ModulePrivate(path, text, pos)
}

// privateSearchRequest is privateSearch for a search request's params
// (textDocument and position) sent in a session: the text is read again
// and must be the one the server has open (a speculative text is not:
// nothing is concluded from it).
func (in *instance) privateSearchRequest(params json.RawMessage) bool {
	if in.neg.Readiness.SymbolSearch != core.SymbolSearchTsserver {
		return false
	}
	var p struct {
		TextDocument struct {
			URI string `json:"uri"`
		} `json:"textDocument"`
		Position core.Position `json:"position"`
	}
	if json.Unmarshal(params, &p) != nil {
		return false
	}
	path, ok := hostPaths.URIPath(p.TextDocument.URI)
	if !ok {
		return false
	}
	d := in.docs.get(path)
	if d == nil {
		return false
	}
	src, err := ReadSource(in.ws, path, in.server.Config.MaxDocumentBytes)
	if err != nil || in.docs.hashOf(src.Text) != d.hash {
		return false
	}
	return in.privateSearch(src.Path, src.Text, p.Position)
}
