package toolbox

import (
	"context"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// Files of a change checked by their own servers. A change planned in a
// session on one server can touch, or have as dependents, files another
// server serves: a .ts helper's callers in .svelte components
// (componentsearch.go), the .svelte uses a rename of it edits. The
// session's server cannot open those (it would report "no language
// server reports on them"), so each is checked in a session on its own
// server: before the change is written, ahead of the session's own check
// (whose end may start the write), and after it, once written (the other
// server reads the change from the disk, as svelte-language-server applies
// a .ts file's change before its next request).

// checkAcross is s.Check of paths, with the files another server serves
// checked in sessions on theirs, first.
func (t *Toolbox) checkAcross(ctx context.Context, s lspseam.Session, ws string, paths []string, opts lspseam.DiagnosticsOptions) ([]lspseam.FileCheck, error) {
	others := t.otherServers(ctx, s, ws, paths)
	if len(others) == 0 {
		return s.Check(ctx, paths, opts)
	}
	elsewhere := make([]lspseam.FileCheck, len(paths))
	t.checkElsewhere(ctx, ws, paths, others, elsewhere)
	checks, err := s.Check(ctx, paths, opts)
	for _, group := range others {
		for _, i := range group {
			if i < len(checks) {
				checks[i] = elsewhere[i]
			}
		}
	}
	return checks, err
}

// otherServers is the indexes of paths another server than s's serves,
// by server.
func (t *Toolbox) otherServers(ctx context.Context, s lspseam.Session, ws string, paths []string) map[string][]int {
	if t == nil || ws == "" {
		return nil
	}
	var out map[string][]int
	for i, p := range paths {
		if id := t.service.ProviderOf(ctx, p, ws); id != "" && id != s.Server() {
			if out == nil {
				out = map[string][]int{}
			}
			out[id] = append(out[id], i)
		}
	}
	return out
}

// checkElsewhere checks the paths of each group in a session on its
// server, into checks at the same indexes; a group whose session fails
// leaves its files with that error.
func (t *Toolbox) checkElsewhere(ctx context.Context, ws string, paths []string, groups map[string][]int, checks []lspseam.FileCheck) {
	for _, group := range groups {
		asked := make([]string, len(group))
		for j, i := range group {
			asked[j] = paths[i]
		}
		var got []lspseam.FileCheck
		err := t.service.Session(ctx, asked[0], ws, func(ctx context.Context, os lspseam.Session) error {
			var err error
			got, err = os.Check(ctx, asked, lspseam.DiagnosticsOptions{})
			return err
		})
		for j, i := range group {
			switch {
			case j < len(got) && (got[j].Err != nil || got[j].Report.How != ""):
				checks[i] = got[j]
			case err != nil:
				checks[i] = lspseam.FileCheck{Err: err}
			}
		}
	}
}
