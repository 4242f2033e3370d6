package toolbox

import (
	"encoding/json"
	"strconv"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/core"
)

const readPlanWorkspace = "file:///ws"

// coreReadPlan is planSnippets' plan of locs, natively.
func coreReadPlan(t testing.TB, locs string, call lspseam.CodeCall) (lspseam.SnippetPlan, bool) {
	in, _ := json.Marshal(map[string]any{"locations": json.RawMessage(locs), "workspaceUri": readPlanWorkspace, "context": call.Context, "limit": call.Limit})
	env := core.Call("planSnippets", in)
	var out struct {
		OK *lspseam.SnippetPlan `json:"ok"`
	}
	if err := json.Unmarshal(env, &out); err != nil {
		t.Fatalf("planSnippets envelope %s: %v", env, err)
	}
	if out.OK == nil {
		return lspseam.SnippetPlan{}, false
	}
	return *out.OK, true
}

// checkCovers fails unless host reads every line of every file the
// core's plan reads, at the same path.
func checkCovers(t testing.TB, locs string, host, plan lspseam.SnippetPlan) {
	t.Helper()
	reads := map[string]lspseam.FileRead{}
	for _, f := range host.Files {
		reads[f.URI] = f
	}
	for _, f := range plan.Files {
		h, ok := reads[f.URI]
		if !ok || h.Path != f.Path {
			t.Fatalf("%s: the core reads %s at %q, the host %+v", locs, f.URI, f.Path, h)
		}
		for _, s := range f.Spans {
			covered := false
			for _, hs := range h.Spans {
				covered = covered || (hs.Start <= s.Start && s.End <= hs.End)
			}
			if !covered {
				t.Fatalf("%s: the core reads lines %d–%d of %s, the host %v", locs, s.Start, s.End, f.URI, h.Spans)
			}
		}
	}
}

// TestHostPlannedReadsCoverThePlan: where the host plans a navigation
// answer's reads itself, it reads every line the core's plan would, of
// the same files at the same paths, so codeLocations shows the same
// snippets; where it cannot be sure, it leaves the plan to the core.
func TestHostPlannedReadsCoverThePlan(t *testing.T) {
	loc := func(uri string, line int) string {
		return `{"uri":"` + uri + `","range":{"start":{"line":` + strconv.Itoa(line) + `,"character":2},"end":{"line":` + strconv.Itoa(line) + `,"character":5}}}`
	}
	link := `{"targetUri":"file:///ws/b.go","targetRange":{"start":{"line":3,"character":0},"end":{"line":9,"character":1}},"targetSelectionRange":{"start":{"line":4,"character":5},"end":{"line":4,"character":9}}}`
	for _, tt := range []struct {
		name, locs string
		call       lspseam.CodeCall
		offset     int
		planned    bool
	}{
		{"locations in two files", "[" + loc("file:///ws/a.go", 0) + "," + loc("file:///ws/a.go", 7) + "," + loc("file:///ws/sub/c.go", 12) + "]", lspseam.CodeCall{}, 0, true},
		{"with context, overlapping", "[" + loc("file:///ws/a.go", 1) + "," + loc("file:///ws/a.go", 4) + "]", lspseam.CodeCall{Context: 3}, 0, true},
		{"a link and a duplicate", "[" + link + "," + link + "," + loc("file:///ws/a.go", 2) + "]", lspseam.CodeCall{Context: 1}, 0, true},
		{"outside the workspace and not a file", "[" + loc("file:///other/x.go", 3) + "," + loc("untitled:Untitled-1", 1) + "," + loc("file:///ws/a.go", 5) + "]", lspseam.CodeCall{}, 0, true},
		{"none", "[]", lspseam.CodeCall{}, 0, true},
		{"more than the limit: the core plans", "[" + loc("file:///ws/a.go", 1) + "," + loc("file:///ws/a.go", 2) + "]", lspseam.CodeCall{Limit: 1}, 0, false},
		{"a later page: the core plans", "[" + loc("file:///ws/a.go", 1) + "]", lspseam.CodeCall{}, 1, false},
		{"bodies: the core plans", "[" + loc("file:///ws/a.go", 1) + "]", lspseam.CodeCall{IncludeBody: true}, 0, false},
		{"not a list: the core says why", `{"uri":1}`, lspseam.CodeCall{}, 0, false},
		{"no range: the core says why", `[{"uri":"file:///ws/a.go"}]`, lspseam.CodeCall{}, 0, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			host, planned := hostPlannedReads(json.RawMessage(tt.locs), readPlanWorkspace, tt.call, tt.offset)
			if planned != tt.planned {
				t.Fatalf("planned by the host: %v, want %v", planned, tt.planned)
			}
			if !planned {
				return
			}
			plan, ok := coreReadPlan(t, tt.locs, tt.call)
			if !ok {
				t.Fatalf("the core refuses %s", tt.locs)
			}
			checkCovers(t, tt.locs, host, plan)
		})
	}
}

// FuzzHostPlannedReads: on any server answer the host plans, it reads
// what the core's plan reads.
func FuzzHostPlannedReads(f *testing.F) {
	f.Add(`[{"uri":"file:///ws/a.go","range":{"start":{"line":3,"character":1},"end":{"line":3,"character":4}}}]`, 1)
	f.Add(`[{"targetUri":"file:///ws/b%20c.go","targetRange":{"start":{"line":3,"character":0},"end":{"line":9,"character":1}},"targetSelectionRange":{"start":{"line":4,"character":5},"end":{"line":4,"character":9}}},{"uri":"file:///ws/../x.go","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}}}]`, 3)
	f.Add(`[{"uri":"file:///ws/a.go","range":{"start":{"line":4294967295,"character":0},"end":{"line":0,"character":0}}}]`, 2)
	f.Fuzz(func(t *testing.T, locs string, context int) {
		call := lspseam.CodeCall{Context: context}
		host, planned := hostPlannedReads(json.RawMessage(locs), readPlanWorkspace, call, 0)
		if !planned {
			return
		}
		if plan, ok := coreReadPlan(t, locs, call); ok {
			checkCovers(t, locs, host, plan)
		}
	})
}
