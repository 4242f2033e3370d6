package toolbox

import (
	"context"
	"strconv"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/core"
)

// The callers a Python call hierarchy leaves out: those calling the
// function under another name.
//
// Pyright's incoming calls are found from the function's references,
// which stop at `from .pricing import compute_total as total`: a tester's
// callers of compute_total listed 1 of 4 call sites, the three through
// aliases missing, with no Incomplete line. The references are asked
// once more, and the aliases on their lines (aliasesOn: `NAME as ALIAS`,
// `ALIAS = NAME`) are named in the answer's incomplete notice, with where
// to ask for their callers.

// callersAliasNotice is the notice for the aliases of the Python function
// rt (in the file at uri) whose callers a callers answer leaves out (""
// when none, or rt is not in a Python file).
func (t *Toolbox) callersAliasNotice(ctx context.Context, s lspseam.Session, ws string, rt lspseam.ResolvedTarget, uri string) string {
	if rt.Identifier == "" || !strings.HasSuffix(rt.Path, ".py") && !strings.HasSuffix(rt.Path, ".pyi") || !s.Methods()["textDocument/references"] {
		return ""
	}
	r, err := t.openFSRoot(ws)
	if err != nil {
		return ""
	}
	defer r.Close()
	raw, err := t.request(ctx, s, "textDocument/references", uri, rt.Position)
	if err != nil {
		return ""
	}
	refs, err := t.core.Translate(ctx, lspseam.OpReferences, raw)
	if err != nil {
		return ""
	}
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
	return "calls under other names are not among the callers (the server's call hierarchy stops where the function is renamed): " + core.Listed(at, maxAliasNoticeSites) + "; ask code_hierarchy for the callers of each, with a target at that line and column"
}
