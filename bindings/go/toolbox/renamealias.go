package toolbox

import (
	"slices"
	"strconv"
	"strings"

	"github.com/lspseam/lspseam/core"
)

// A rename the server made by writing an alias.
//
// Asked to rename a name at a use whose public name other files spell,
// svelte-language-server (and typescript-language-server with its prefix
// and suffix preference) renames only the local name: it keeps the old
// name where the public one is spelled and writes the new one as its
// alias — `import { formatDate as formatDay }`, `const { errors:
// problems } = $props()`, `<ListErrors errors={problems} />`, `export {
// local as formatDate }`. The public name's other uses are right as they
// are, and the edit inserts after the old name, leaving its range
// untouched: the check of the uses a rename leaves (renamecheck.go) told
// a tester to rename both "or the code breaks", and obeying broke it. So
// a line the rename changed that still spells the old name as often as
// before, spells the new one more often, and now holds one of those alias
// forms of the two is an alias edit; the answer says the server renamed
// the local name only, and lists no uses on lines the rename changed or
// in files it leaves (the public name's).

// renameAlias is the first alias edit among the rename's files: the alias
// as written and where (rel:line), "" when none.
func renameAlias(files []plannedFile, oldName, newName string) (alias, at string) {
	for _, f := range files {
		if f.created || f.deleted {
			continue
		}
		before, after := strings.Split(f.before, "\n"), strings.Split(f.after, "\n")
		for i := 0; i < len(before) && i < len(after); i++ {
			if before[i] == after[i] {
				continue
			}
			if a := aliasWritten(f.rel, before[i], after[i], oldName, newName); a != "" {
				return a, f.rel + ":" + strconv.Itoa(i+1)
			}
		}
	}
	return "", ""
}

// aliasWritten is the alias of oldName as newName that the edit of a line
// (before to after, in the file at path) writes — `old as new`, `new as
// old`, `old: new`, `old={new}` — or "" when the edit is not one: the
// line keeps each spelling of the old name, spells the new name more
// often, and holds the alias more often than before.
func aliasWritten(path, before, after, oldName, newName string) string {
	if oldName == "" || newName == "" || oldName == newName {
		return ""
	}
	oldAfter := core.IdentifierOffsets(path, after, oldName)
	newAfter := core.IdentifierOffsets(path, after, newName)
	if len(oldAfter) == 0 || len(oldAfter) != len(core.IdentifierOffsets(path, before, oldName)) ||
		len(newAfter) <= len(core.IdentifierOffsets(path, before, newName)) {
		return ""
	}
	written := func(alias string) string {
		if strings.Count(after, alias) > strings.Count(before, alias) {
			return alias
		}
		return ""
	}
	// The alias forms, as the parts between the names (and after the
	// second): the names' whole-word offsets keep `oldas` and `asnew` out.
	for _, form := range []struct {
		first, second []int
		firstLen      int
		between       []string
		closing       string
	}{
		{oldAfter, newAfter, len(oldName), []string{"as"}, ""},
		{oldAfter, newAfter, len(oldName), []string{":"}, ""},
		{oldAfter, newAfter, len(oldName), []string{"=", "{"}, "}"},
		{newAfter, oldAfter, len(newName), []string{"as"}, ""},
	} {
		for _, start := range form.first {
			at, ok := partsAt(after, start+form.firstLen, form.between)
			if !ok || !slices.Contains(form.second, at) {
				continue
			}
			end := at + len(oldName) + len(newName) - form.firstLen
			if form.closing != "" {
				if end, ok = partsAt(after, end, []string{form.closing}); !ok {
					continue
				}
			}
			if a := written(strings.TrimRight(after[start:end], " \t")); a != "" {
				return a
			}
		}
	}
	return ""
}

// partsAt is the offset in line after the parts, each after spaces or
// tabs, from i on, and the spaces or tabs after them.
func partsAt(line string, i int, parts []string) (int, bool) {
	for _, part := range parts {
		i += len(line[i:]) - len(strings.TrimLeft(line[i:], " \t"))
		if !strings.HasPrefix(line[i:], part) {
			return 0, false
		}
		i += len(part)
	}
	return i + len(line[i:]) - len(strings.TrimLeft(line[i:], " \t")), true
}

// renameAliasNotice is what the answer says of an alias edit.
func renameAliasNotice(oldName, alias, at string) string {
	return "the server renamed only the local name (it wrote `" + alias + "` at " + at + "): `" + oldName + "` keeps its name for the files that use it, which stay as they are; to rename it everywhere, rename it at its declaration in the file that exports it (code_rename there), or edit the alias and its uses (edit)"
}
