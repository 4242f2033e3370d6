package toolbox

import (
	"encoding/json"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/core"
)

// A navigation answer's snippets are planned twice by the core: once to
// tell the host which lines of which files to read (planSnippets), once
// more in codeLocations from the lines it is given, which may be any
// superset of the plan. When every location the server answered is on
// the page (no offset, no more than the limit) and no body is wanted,
// the plan is the context lines around each location's line in each
// file inside the workspace, so the host reads those directly and the
// first call is not made: a call into the module after the server's
// answer costs a few hundred microseconds however little it does
// (docs/performance.md). The locations, the lines, the files and the
// paths are read and chosen by the core's own code, called natively
// (core.ReadLocations, core.ContextSpan, core.MergeSpans,
// core.InsideWorkspace), and
// codeLocations still decides what is shown; anything else (bodies,
// pages, large answers) asks planSnippets first.

// maxHostPlannedFiles bounds the files of an answer whose reads the host
// plans.
const maxHostPlannedFiles = 64

// hostPlannedReads is the reads of locations (a server's Location or
// LocationLink list) for context lines around each, when they can be
// planned without the module: false when they cannot, or when the
// locations are not a list the core's fast reader takes (planSnippets
// then reads them, or says what is wrong with them).
func hostPlannedReads(locations json.RawMessage, workspaceURI string, call lspseam.CodeCall, offset int) (lspseam.SnippetPlan, bool) {
	limit := call.Limit
	if limit == 0 {
		limit = core.DefaultLocationLimit
	}
	if call.IncludeBody || offset != 0 || call.Context < 0 || call.Context > core.MaxSnippetContext {
		return lspseam.SnippetPlan{}, false
	}
	wsPath, ok := core.WorkspacePath(workspaceURI)
	if !ok {
		return lspseam.SnippetPlan{}, false
	}
	named, ok := core.ReadLocations(string(locations))
	if !ok || len(named) > limit {
		return lspseam.SnippetPlan{}, false
	}
	var plan lspseam.SnippetPlan
	byURI := map[string]int{}
	for _, l := range named {
		plan.Locations = append(plan.Locations, l)
		path, inside := core.InsideWorkspace(l.URI, wsPath)
		if !inside {
			continue
		}
		i, ok := byURI[l.URI]
		if !ok {
			if len(plan.Files) == maxHostPlannedFiles {
				return lspseam.SnippetPlan{}, false
			}
			i = len(plan.Files)
			byURI[l.URI] = i
			plan.Files = append(plan.Files, lspseam.FileRead{URI: l.URI, Path: path})
		}
		plan.Files[i].Spans = append(plan.Files[i].Spans, core.ContextSpan(l.Range.Start.Line, call.Context))
	}
	for i := range plan.Files {
		plan.Files[i].Spans = core.MergeSpans(plan.Files[i].Spans)
	}
	return plan, true
}
