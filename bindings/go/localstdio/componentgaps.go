package localstdio

import (
	"slices"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// A session's component gaps (lspseam.ComponentGapper): the component
// files its server's searches did not read (unsearchedimporters.go),
// counted search by search. The toolbox asks the server that reads them
// (svelte-language-server) the same question after a search and says it
// covered the gap, or what it left out instead; the session's notice
// names a gap while some search with it was not covered, so one covered
// search does not vouch for another that was not (a rename's references
// asked again, a type's references in a change's dependents).

// componentGaps is a session's gap state; its owner holds the session's
// mu around every use.
type componentGaps struct {
	last     []componentGap    // the gaps of the last search
	order    []string          // extensions, as first seen
	notices  map[string]string // the gap's notice, by extension
	searches map[string]int    // the searches with the gap
	covered  map[string]int    // those another server covered
	instead  map[string][]string
}

// searched records a search with the gaps scope (nil: the same gaps as
// the last search's).
func (g *componentGaps) searched(scope []componentGap, fresh bool) {
	if fresh {
		g.last = scope
	}
	if len(g.last) == 0 {
		return
	}
	if g.notices == nil {
		g.notices, g.searches, g.covered, g.instead = map[string]string{}, map[string]int{}, map[string]int{}, map[string][]string{}
	}
	for _, gap := range g.last {
		if _, ok := g.notices[gap.Ext]; !ok {
			g.order = append(g.order, gap.Ext)
		}
		g.notices[gap.Ext] = gap.notice
		g.searches[gap.Ext]++
	}
}

// cover records that the last search's gap of ext was searched by
// another server, completely (instead "") or but for instead.
func (g *componentGaps) cover(ext, instead string) {
	if g.searches[ext] == 0 || g.covered[ext] >= g.searches[ext] {
		return // no search with that gap to cover
	}
	g.covered[ext]++
	if instead != "" && !slices.Contains(g.instead[ext], instead) {
		g.instead[ext] = append(g.instead[ext], instead)
	}
}

// notice is what the gaps leave out of the session's searches: each gap
// some search did not cover, and what the covering searches left out.
func (g *componentGaps) notice() string {
	var out []string
	for _, ext := range g.order {
		if g.searches[ext] > g.covered[ext] {
			out = append(out, g.notices[ext])
		}
		out = append(out, g.instead[ext]...)
	}
	return joinNotices(out...)
}

// lastGaps is ComponentGaps' answer.
func (g *componentGaps) lastGaps() []lspseam.ComponentGap {
	out := make([]lspseam.ComponentGap, len(g.last))
	for i, gap := range g.last {
		out[i] = gap.ComponentGap
		out[i].Files = slices.Clone(gap.Files)
	}
	return out
}

// ComponentGaps implements lspseam.ComponentGapper.
func (ss *session) ComponentGaps() []lspseam.ComponentGap {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.gaps.lastGaps()
}

// CoverComponentGap implements lspseam.ComponentGapper.
func (ss *session) CoverComponentGap(ext, instead string) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.gaps.cover(ext, instead)
}
