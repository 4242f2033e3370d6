package toolbox

import (
	"context"
	"slices"
	"strings"

	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// The includers of a C-family file that a change declares new names in
// (findDependents). A header, or a source file another unit #includes,
// is compiled into each unit that includes it, so a function, type or
// macro it declares anew may collide with one of the includer's own: a
// tester added `static void assert_print_number(…)` to cJSON.c (which
// tests/common.h #includes) and a prototype of it to cJSON.h, and
// tests/print_number.c, which defines its own, no longer compiled
// ("redefinition of 'assert_print_number'") while the answer said
// "Other files: none refer to what changed (asked before the change)":
// the name had no references before the change. The dependents of such
// a change are the file's includers (cincluders.go), whatever names they
// use; they are checked before and after it as the references' files
// are, within the same bound (the first maxDependents checked, the rest
// named as not checked). When the includers cannot be found, the answer
// says a collision there was not looked for. Which changed files may
// declare anew is impact.go's cDeclaringFiles.

// declaringIncluders returns the files outside the change (isChanged)
// that #include one of the files declaring (or include one that does),
// and a notice when they cannot be found ("" otherwise). Those spelling
// a word the change writes anew come first, the rarest word first: a
// name only print_number.c spells (`assert_print_number`) before the
// parameter names most files spell, so that when the includers are more
// than the bound, or than the server can report on within the wait
// (clangd reparses each includer, the included file with it), the ones a
// collision is likeliest in are checked, and reported on, first; then the
// others, each run sorted. includers and known are the includers of all
// the changed files when findDependents found them (a superset of
// these), reused.
func (t *Toolbox) declaringIncluders(ctx context.Context, r *workspacefs.Root, declaring []addedNames, includers map[string]bool, known bool, isChanged map[string]bool) ([]string, string) {
	if len(declaring) == 0 {
		return nil, ""
	}
	if !known {
		rels := make([]string, len(declaring))
		for i, d := range declaring {
			rels[i] = d.rel
		}
		includers, known = t.includersOf(ctx, r, rels)
	}
	if !known {
		return nil, "the files that #include " + declaring[0].rel + " could not all be found (the workspace is larger than the search's bounds, holds include-only files no server reads, or the time ran out), and a name the change declares anew there may collide with one of theirs: not checked"
	}
	var words []string
	for _, d := range declaring {
		words = append(words, d.names...)
	}
	spelled := map[string][]string{} // by includer, the words it spells
	spellers := map[string]int{}     // by word, how many includers spell it
	var out []string
	for rel := range includers {
		if isChanged[rel] {
			continue
		}
		out = append(out, rel)
		spelled[rel] = spelledWords(r, rel, words)
		for _, w := range spelled[rel] {
			spellers[w]++
		}
	}
	rarest := func(rel string) int { // how many spell its rarest word; none: after all
		n := len(out) + 1
		for _, w := range spelled[rel] {
			n = min(n, spellers[w])
		}
		return n
	}
	slices.SortFunc(out, func(a, b string) int {
		if d := rarest(a) - rarest(b); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	return out, ""
}

// spelledWords lists the words of words that the file rel spells as whole
// identifiers.
func spelledWords(r *workspacefs.Root, rel string, words []string) []string {
	f, err := r.Read(r.Abs(rel))
	if err != nil || !f.Exists {
		return nil
	}
	var out []string
	for _, w := range words {
		if !slices.Contains(out, w) && core.IdentifierOffsets(rel, f.Text, w) != nil {
			out = append(out, w)
		}
	}
	return out
}
