package toolbox

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strconv"

	"github.com/lspseam/lspseam/core"
)

// Comparing changes: a preview whose change the server computes is
// asked of it again when applied (change.recompute, applier.go's
// recheck), and applied only if the change is the same.

// changeDigest identifies what a change does to the workspace: each
// file's path, what becomes of it (moved from, created, deleted) and its
// text after, in path order. The text before is bound by the files'
// versions already, and the order and shape of the server's edits do not
// matter: two edits that give the same texts are the same change.
func changeDigest(files []plannedFile) string {
	sorted := sortedByPath(files)
	h := sha256.New()
	for _, f := range sorted {
		for _, part := range []string{f.rel, f.from, strconv.FormatBool(f.created), strconv.FormatBool(f.deleted), f.after} {
			h.Write([]byte(strconv.Itoa(len(part)) + ":" + part))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// changeDifference says how the change now differs from the change then:
// the files it now changes too, those it no longer changes, and those it
// changes otherwise ("" when it is the same change).
func changeDifference(then, now []plannedFile) string {
	was := map[string]plannedFile{}
	for _, f := range then {
		was[f.rel] = f
	}
	var added, dropped, other []string
	for _, f := range sortedByPath(now) {
		old, ok := was[f.rel]
		switch {
		case !ok:
			added = append(added, f.rel)
		case changeDigest([]plannedFile{old}) != changeDigest([]plannedFile{f}):
			other = append(other, f.rel)
		}
		delete(was, f.rel)
	}
	for _, f := range sortedByPath(then) {
		if _, ok := was[f.rel]; ok {
			dropped = append(dropped, f.rel)
		}
	}
	var parts []string
	if len(added) > 0 {
		parts = append(parts, "it now changes "+core.Listed(added, 8)+" too")
	}
	if len(dropped) > 0 {
		parts = append(parts, "it no longer changes "+core.Listed(dropped, 8))
	}
	if len(other) > 0 {
		parts = append(parts, "it changes "+core.Listed(other, 8)+" otherwise")
	}
	return joinClauses(parts)
}

func sortedByPath(files []plannedFile) []plannedFile {
	out := append([]plannedFile(nil), files...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].rel < out[j].rel })
	return out
}

// joinClauses joins clauses with commas and a final "and".
func joinClauses(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	out := parts[0]
	for _, p := range parts[1 : len(parts)-1] {
		out += ", " + p
	}
	return out + " and " + parts[len(parts)-1]
}
