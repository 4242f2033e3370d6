package toolbox

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/core"
)

// The uses a Python answer leaves out: those under another name.
//
// Pyright's incoming calls are found from the function's references,
// which stop at `from .pricing import compute_total as total`: a tester's
// callers of compute_total listed 1 of 4 call sites, the three through
// aliases missing, with no Incomplete line; references list the import
// line and not the uses of the alias. The aliases on the references'
// lines (aliasesOn: `NAME as ALIAS`, `ALIAS = NAME`) are named in the
// answer's incomplete notice (callers ask the references once more), with
// where to ask for their own.

// callersAliasNotice is the notice for the aliases of the Python function
// rt (in the file at uri) whose callers a callers answer leaves out (""
// when none, or rt is not in a Python file).
func (t *Toolbox) callersAliasNotice(ctx context.Context, s lspseam.Session, ws string, rt lspseam.ResolvedTarget, uri string) string {
	if !pythonAliasesStop(rt) || !s.Methods()["textDocument/references"] {
		return ""
	}
	raw, err := t.request(ctx, s, "textDocument/references", uri, rt.Position)
	if err != nil {
		return ""
	}
	return t.aliasesNotice(ctx, ws, rt, raw, "calls under other names are not among the callers (the server's call hierarchy stops where the function is renamed)", "the callers")
}

// pythonAliasesStop says whether rt's server stops at its aliases:
// pyright's (and basedpyright's) references of a Python declaration.
func pythonAliasesStop(rt lspseam.ResolvedTarget) bool {
	return rt.Identifier != "" && (strings.HasSuffix(rt.Path, ".py") || strings.HasSuffix(rt.Path, ".pyi"))
}

// aliasesNotice names the aliases of rt on the lines of raw's references
// (a textDocument/references result) that the server did not list
// itself: what they leave out, and what to ask at each ("" when none).
func (t *Toolbox) aliasesNotice(ctx context.Context, ws string, rt lspseam.ResolvedTarget, raw json.RawMessage, leftOut, ask string) string {
	refs, err := t.core.Translate(ctx, lspseam.OpReferences, raw)
	if err != nil {
		return ""
	}
	r, err := t.openFSRoot(ws)
	if err != nil {
		return ""
	}
	defer r.Close()
	a := newAliasFollower(r, nil)
	a.note(rt.Identifier, refs.Locations, 0)
	var at []string
	for _, site := range a.sites {
		if !a.known[locationKey(site.rel, site.pos)] {
			at = append(at, site.alias+" ("+site.rel+":"+strconv.Itoa(int(site.pos.Line)+1)+":"+strconv.Itoa(int(site.pos.Character)+1)+")")
		}
	}
	if len(at) == 0 {
		return ""
	}
	return leftOut + ": " + core.Listed(at, maxAliasNoticeSites) + "; ask for " + ask + " of each, with a target at that line and column"
}
