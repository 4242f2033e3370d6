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
// the local name only, and lists no uses of the old name the rename
// leaves (the public name's).
//
// The Vue plugin does the mirror image when a prop is renamed at its
// declaration: it renames the public name and keeps the local binding of
// a destructure under its old name — `const { isOpen: isActive = false }
// = defineProps<Props>()` — and rewrites the parents' attributes; the
// check told a tester to rename the local binding too "or the code
// breaks", and obeying broke the template's uses (findings s27 #5). That
// form (`new: old`) keeps the local name: the answer says the public
// name was renamed and the local binding kept as an alias, and the uses
// the rename leaves in other files are still checked (they spell the
// public name).

// renameAlias is the first alias edit among the rename's files: the alias
// as written and where (rel:line), "" when none, and whether it keeps the
// old name as the local binding (the public name renamed).
func renameAlias(files []plannedFile, oldName, newName string) (alias, at string, keepsLocal bool) {
	for _, f := range files {
		if f.created || f.deleted {
			continue
		}
		before, after := strings.Split(f.before, "\n"), strings.Split(f.after, "\n")
		for i := 0; i < len(before) && i < len(after); i++ {
			if before[i] == after[i] {
				continue
			}
			if a, local := aliasWritten(f.rel, before[i], after[i], oldName, newName); a != "" {
				return a, f.rel + ":" + strconv.Itoa(i+1), local
			}
		}
	}
	return "", "", false
}

// aliasWritten is the alias of oldName as newName that the edit of a line
// (before to after, in the file at path) writes — `old as new`, `new as
// old`, `old: new`, `old={new}`, `new: old` — or "" when the edit is not
// one: the line keeps each spelling of the old name, spells the new name
// more often, and holds the alias more often than before. keepsLocal: the
// form keeps the old name as the local binding (`new: old`, a destructure
// whose property, the public name, was renamed).
func aliasWritten(path, before, after, oldName, newName string) (alias string, keepsLocal bool) {
	if oldName == "" || newName == "" || oldName == newName {
		return "", false
	}
	oldAfter := core.IdentifierOffsets(path, after, oldName)
	newAfter := core.IdentifierOffsets(path, after, newName)
	if len(oldAfter) == 0 || len(oldAfter) != len(core.IdentifierOffsets(path, before, oldName)) ||
		len(newAfter) <= len(core.IdentifierOffsets(path, before, newName)) {
		return "", false
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
		keepsLocal    bool
	}{
		{oldAfter, newAfter, len(oldName), []string{"as"}, "", false},
		{oldAfter, newAfter, len(oldName), []string{":"}, "", false},
		{oldAfter, newAfter, len(oldName), []string{"=", "{"}, "}", false},
		{newAfter, oldAfter, len(newName), []string{"as"}, "", false},
		{newAfter, oldAfter, len(newName), []string{":"}, "", true},
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
				return a, form.keepsLocal
			}
		}
	}
	return "", false
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
func renameAliasNotice(oldName, newName, alias, at string, keepsLocal bool) string {
	if keepsLocal {
		return "the server renamed the public name `" + oldName + "` to `" + newName + "` and kept the local binding `" + oldName + "` as an alias (it wrote `" + alias + "` at " + at + "): correct as written, the local uses keep the name `" + oldName + "`; to rename them too, rename the local binding there (code_rename)"
	}
	return "the server renamed only the local name (it wrote `" + alias + "` at " + at + "): `" + oldName + "` keeps its name for the files that use it, which stay as they are; to rename it everywhere, rename it at its declaration in the file that exports it (code_rename there), or edit the alias and its uses (edit)"
}
