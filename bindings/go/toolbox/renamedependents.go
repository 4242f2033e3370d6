package toolbox

import (
	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// A rename's dependents (findDependents). A server's rename rewrites the
// renamed symbol's declaration and its uses, and nothing else of what
// the declarations around those uses are: a function whose body uses the
// renamed name keeps its signature and its meaning, and the renamed
// symbol's own users are the rename's edits, changed files themselves. So
// of the declarations a rename touches, only the renamed one's
// references are asked; asking the others' spent the bound and the
// budget, and the answer said "at least 5 more changed declarations
// were not asked" of a correct 10-file rename, with a count that
// differed between its preview and its apply (findings s28 F11).
//
// What a rename can break besides is what already bears the new name:
// renamed onto a name its scope declares (User to Team beside a Team),
// the uses of that other declaration may now resolve to the renamed one,
// or to neither (a duplicate identifier). Its references, asked before
// the change, are dependents too (findings s28 F7: the users of the
// existing Team broke unseen).

// renameOf is the names of a rename: from the target's, to the new one.
type renameOf struct {
	from, to string
}

// renameKeeps reports whether a declaration a rename touched keeps its
// surface: any but the renamed one, whose name changes.
func (rn *renameOf) renameKeeps(e lspseam.OutlineEntry) bool {
	return rn != nil && declaredName(e.Name) != rn.from
}

// clashing is the declarations of outline (a changed file's, before the
// change) that already bear the new name beside a declaration renamed
// there (the same container): the declarations the renamed one may now
// clash with or stand in for.
func (rn *renameOf) clashing(outline, touched []lspseam.OutlineEntry) []lspseam.OutlineEntry {
	if rn == nil {
		return nil
	}
	containers := map[string]bool{}
	for _, e := range touched {
		if declaredName(e.Name) == rn.from {
			containers[e.Container] = true
		}
	}
	var out []lspseam.OutlineEntry
	for _, e := range outline {
		if containers[e.Container] && declaredName(e.Name) == rn.to {
			out = append(out, e)
		}
	}
	return out
}
