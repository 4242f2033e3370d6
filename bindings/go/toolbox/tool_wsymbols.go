package toolbox

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"sync"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// code_symbols with query and no path: a workspace-wide symbol search of
// every language. A census of the workspace (census.go) says which
// providers own files and in which project roots; the server of each
// (provider, root) is asked (started if need be), several at once, each
// until the call's deadline less a reserve for the answer, so a slow or
// hung server costs its language, not the answer; the core merges and
// ranks the matches (symbolsearch.go) and says what was not searched.

// Bounds of a workspace-wide symbol search.
const (
	maxSearchRoots      = 8                // project roots asked per server; the others are named as not searched
	maxSearchSessions   = 3                // servers asked at once (each may be starting)
	defaultSearchBudget = 30 * time.Second // a server's time when the call has no deadline
)

func (t *Toolbox) workspaceSymbols(ctx context.Context, call lspseam.CodeCall, ws string, offset int, from *pageState) (answer, error) {
	r, err := t.openFSRoot(ws)
	if err != nil {
		return answer{}, err
	}
	r.Close()
	census := t.takeCensus(ctx, r.Real, ws, false)
	jobs, gaps := t.symbolSearchJobs(ctx, census, ws)

	deadline := time.Now().Add(defaultSearchBudget)
	if d, ok := ctx.Deadline(); ok {
		deadline = beforeReserve(d)
	}
	outcomes := make([]symbolSearchOutcome, len(jobs))
	sem := make(chan struct{}, maxSearchSessions)
	var wg sync.WaitGroup
	for i, job := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				return
			}
			defer func() { <-sem }()
			jctx, cancel := context.WithDeadline(ctx, deadline)
			defer cancel()
			outcomes[i] = t.searchProject(jctx, call, job, census.dir, ws)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return answer{}, lspseam.Errorf(lspseam.CodeTimeout, "the workspace symbol search ran out of the call's budget; ask again (servers that were starting may be ready), or give path to ask one language's server")
		}
		return answer{}, lspseam.Errorf(lspseam.CodeCancelled, "the workspace symbol search was cancelled: %v", context.Cause(ctx))
	}
	results := []map[string]any{}
	for _, o := range outcomes {
		results = append(results, o.results...)
		if o.gap != nil {
			gaps = append(gaps, o.gap)
		}
	}
	in := map[string]any{
		"mode": "workspace", "workspaceUri": workspacefs.FileURI(census.dir), "query": call.Query, "dependencies": call.Dependencies, "limit": call.Limit, "offset": offset,
		"results": results, "notSearched": gaps, "unconfigured": census.unconfigured(),
	}
	if census.stopped {
		in["partial"] = "the workspace walk stopped after " + strconv.Itoa(maxWalkEntries) + " entries: languages and project roots only past it were not searched"
	}
	out, err := t.coreJSON(ctx, "codeSymbols", in)
	if err != nil {
		return answer{}, err
	}
	return t.pagedCoreAnswer(out, call, from)
}

// symbolSearchJobs lists the (server, root) pairs to ask, each server's
// first root before any server's second (so when sessions queue, every
// language gets going first), and the roots past maxSearchRoots as not
// searched.
func (t *Toolbox) symbolSearchJobs(ctx context.Context, c *workspaceCensus, ws string) ([]symbolSearchJob, []map[string]any) {
	var perServer [][]symbolSearchJob
	gaps := []map[string]any{}
	for _, id := range c.providers {
		var jobs []symbolSearchJob
		for i, g := range c.projects(ctx, t.service, id, ws) {
			if i >= maxSearchRoots {
				gaps = append(gaps, map[string]any{
					"server": id, "languages": c.languages[id], "root": g.root, "files": len(g.files),
					"reason": "the workspace has more than " + strconv.Itoa(maxSearchRoots) + " project roots of this server, and only the first " + strconv.Itoa(maxSearchRoots) + " were asked: ask again with path set to a file of the project to search it",
				})
				continue
			}
			jobs = append(jobs, symbolSearchJob{server: id, languages: c.languages[id], root: g.root, files: g.files})
		}
		perServer = append(perServer, jobs)
	}
	var out []symbolSearchJob
	for round := 0; round < maxSearchRoots; round++ {
		for _, jobs := range perServer {
			if round < len(jobs) {
				out = append(out, jobs[round])
			}
		}
	}
	return out, gaps
}

// unconfigured lists the files no provider owns, by extension.
func (c *workspaceCensus) unconfigured() []map[string]any {
	exts := make([]string, 0, len(c.unowned))
	for ext := range c.unowned {
		exts = append(exts, ext)
	}
	sort.Strings(exts)
	out := []map[string]any{}
	for _, ext := range exts {
		if ext != "" {
			out = append(out, map[string]any{"extension": ext, "files": c.unowned[ext]})
		}
	}
	return out
}

// searchProject asks one (server, root) for the query: the server of the
// root's shallowest file, or, for a server whose search follows its last
// document, every project of the root's files (tsserverprojects.go).
func (t *Toolbox) searchProject(ctx context.Context, call lspseam.CodeCall, job symbolSearchJob, dir, ws string) symbolSearchOutcome {
	var out symbolSearchOutcome
	rep := job.files[0].rel
	err := t.service.Session(ctx, rep, ws, func(ctx context.Context, s lspseam.Session) error {
		f, err := s.Open(ctx, rep)
		if err != nil {
			return err
		}
		req, err := t.core.CodeRequest(ctx, lspseam.CodeRequestInput{Method: "workspace/symbol", Query: call.Query, Methods: s.Methods(), Server: s.Server()})
		if err != nil {
			return err
		}
		if s.Policy().SymbolSearch == core.SymbolSearchTsserver {
			return t.searchTsserverProjects(ctx, s, req, job, f, dir, &out)
		}
		raw, err := s.Request(ctx, req.Method, req.Params)
		if err != nil {
			return err
		}
		out.results = append(out.results, searchEntry(job, s, json.RawMessage(raw), "", s.Notice()))
		return nil
	})
	if err != nil {
		out.gap = map[string]any{"server": job.server, "languages": job.languages, "root": job.root, "files": len(job.files), "reason": searchFailure(ctx, err)}
		if lerr := (*lspseam.Error)(nil); errors.As(err, &lerr) && lerr.Code == lspseam.CodeUnsupportedOperation {
			out.gap["unsupported"] = true
		}
	}
	return out
}

// searchFailure says why a server could not be searched: its error's
// message (a missing server's says how to install it), or that its time
// ran out.
func searchFailure(ctx context.Context, err error) string {
	var lerr *lspseam.Error
	switch {
	case ctx.Err() != nil:
		return "it did not answer in time (its share of the call's budget ran out; it may still have been starting): ask again, or with path set to one of its files to ask it alone"
	case errors.As(err, &lerr) && (lerr.Code == lspseam.CodeUnavailable || lerr.Code == lspseam.CodeUnsupportedOperation):
		return lerr.Message
	case errors.As(err, &lerr):
		return "the server failed: " + string(lerr.Code) + ": " + lerr.Message
	}
	return "the server failed: " + err.Error()
}
