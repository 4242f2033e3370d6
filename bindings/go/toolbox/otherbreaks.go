package toolbox

import (
	"encoding/json"
	"os"
	"slices"
	"sync"

	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// The other files an applied change broke, remembered by the file it
// changed, so that the next change of that file checks them again.
//
// A change's dependents are the references of the declarations it
// touches, asked before it (impact.go). A change that gives the callers
// back what they use (an undo of a rename or of a signature change, the
// fix of a declaration a caller names) touches a declaration nothing
// refers to yet: the files the previous change broke are not among its
// references, and their problems would go unreported as resolved — the
// answer would say nothing changed there while the last one had listed
// errors there, and an agent would go and "fix" those files again. So a
// file a change of F introduced problems in is checked, before and after,
// with every later change of F until a check finds no problem left in it.

const (
	// maxBrokenByFile bounds the files remembered per changed file (as
	// many as one change checks, impact.go's maxDependents).
	maxBrokenByFile = 20
	// maxBrokenChanged bounds the changed files remembered; the oldest
	// is forgotten first.
	maxBrokenChanged = 64
)

// otherBreaks is the other files each applied change left with problems
// it introduced, by the changed file's absolute path. The zero value is
// ready; safe for concurrent use.
type otherBreaks struct {
	mu     sync.Mutex
	order  []string            // changed files, oldest first
	broken map[string][]string // changed file → other files, absolute paths
}

// of is the other files, workspace-relative, that changes of the files
// rel left with problems and that still exist.
func (o *otherBreaks) of(r *workspacefs.Root, rels []string) []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []string
	for _, rel := range rels {
		for _, abs := range o.broken[r.Abs(rel)] {
			dep, err := r.Rel(abs)
			if err != nil || slices.Contains(out, dep) {
				continue // another workspace's file
			}
			if _, err := os.Stat(abs); err != nil {
				continue // deleted since: nothing left to check
			}
			out = append(out, dep)
		}
	}
	return out
}

// othersOutcome is the part of diagnosticsDelta's answer (its others)
// this memory follows.
type othersOutcome struct {
	Others *struct {
		Files []struct {
			Path            string `json:"path"`
			Persisting      int    `json:"persisting"`
			IntroducedTotal int    `json:"introducedTotal"`
		} `json:"files"`
	} `json:"others"`
}

// note takes an applied change's delta (diagnosticsDelta's answer) on the
// files changed: the other files it introduced problems in are
// remembered for each changed file, and a remembered file found with no
// problem at all is forgotten. Files not checked stay as they were.
func (o *otherBreaks) note(r *workspacefs.Root, changed []string, delta json.RawMessage) {
	var out othersOutcome
	if json.Unmarshal(delta, &out) != nil || out.Others == nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.broken == nil {
		o.broken = map[string][]string{}
	}
	for _, f := range out.Others.Files {
		dep := r.Abs(f.Path)
		for _, rel := range changed {
			key := r.Abs(rel)
			have := o.broken[key]
			switch {
			case f.IntroducedTotal > 0 && !slices.Contains(have, dep):
				if len(have) >= maxBrokenByFile {
					have = have[1:]
				}
				o.remember(key, append(have, dep))
			case f.IntroducedTotal == 0 && f.Persisting == 0 && slices.Contains(have, dep):
				o.remember(key, slices.DeleteFunc(slices.Clone(have), func(p string) bool { return p == dep }))
			}
		}
	}
}

// remember sets the files a changed file broke (none: forgotten), the
// changed file then the newest; over maxBrokenChanged the oldest goes.
func (o *otherBreaks) remember(key string, deps []string) {
	o.order = slices.DeleteFunc(o.order, func(k string) bool { return k == key })
	if len(deps) == 0 {
		delete(o.broken, key)
		return
	}
	o.broken[key] = deps
	o.order = append(o.order, key)
	if len(o.order) > maxBrokenChanged {
		delete(o.broken, o.order[0])
		o.order = o.order[1:]
	}
}
