package toolbox

import (
	"context"
	"path"
	"slices"
	"strconv"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// The uses a dynamically typed language's server cannot see, for
// code_delete and code_rename.
//
// A server of a dynamically typed language finds the uses it can type: a
// method called on a value of unknown type, a function reached through a
// module object or an alias, a name built at run time are not among its
// references. Testers deleted a Python method called by name on an
// untyped value ("4 other files checked, no new problems": the checker
// could not see the break either) and a function imported as
// `import report as r` and called as `r.price_of(…)`. So before deleting
// what the server says nothing uses, the files of the language in the
// workspace are searched for the identifier as a word; a line naming it
// that is neither the declaration nor one of the server's references
// makes the answer "cannot tell" (ReasonUsesUnknown), with those lines —
// a comment or another symbol of the same name included: the agent checks
// them, and deletes with edit when they are not uses. A line that
// declares a symbol of the same name (`def name(`, `function name(`, a
// shell function) is another symbol, not a use, and is not listed: in a
// Python code base the same function name in two modules is common.
// A rename is searched the same way, in its files as it leaves them: the
// server renames the uses it sees, and a tester's rename of a Python
// method left `it.describe()` on an untyped `it` calling a method that
// no longer exists, with nothing said ("0 introduced"); the lines still
// naming the old name are listed in its incomplete notice. Statically
// typed languages are not searched: their servers see every use the compiler
// does, and the same name is often another symbol.

// dynamicLanguages are the language ids whose servers' references miss
// uses through values of unknown type.
var dynamicLanguages = map[string]bool{
	"python": true, "javascript": true, "javascriptreact": true, "php": true,
	"shellscript": true, "ruby": true, "lua": true, "perl": true,
}

// Bounds of the search.
const (
	maxTextualFiles = 5000
	maxTextualBytes = 64 << 20 // read in all
	maxTextualUses  = 8        // lines listed
)

// textualUses lists, as path:line, the lines of the workspace's files of
// the target's provider that name rt's identifier outside the deleted
// range of its own file and outside the server's references (refs); nil
// when the target's language is not dynamically typed.
func (t *Toolbox) textualUses(ctx context.Context, r *workspacefs.Root, rt lspseam.ResolvedTarget, deleted lspseam.Range, refs []lspseam.Location) []string {
	known := referenceLines(r, refs)
	seen, _ := t.wordLines(ctx, r, rt, nil, func(rel string, n int, _ string) bool {
		return rel == rt.Path && n >= int(deleted.Start.Line) && n <= int(deleted.End.Line) || known[rel+":"+strconv.Itoa(n+1)]
	})
	return seen
}

// referenceLines are the lines of the workspace the locations start on,
// as "rel:line", one-based: the key the textual searches' lines have.
func referenceLines(r *workspacefs.Root, locs []lspseam.Location) map[string]bool {
	lines := map[string]bool{}
	for _, l := range locs {
		if p, ok := workspacefs.HostPaths.URIPath(l.URI); ok {
			if rel, err := r.Rel(p); err == nil {
				lines[path.Clean(rel)+":"+strconv.Itoa(int(l.Range.Start.Line)+1)] = true
			}
		}
	}
	return lines
}

// wordLines searches the workspace's files of the target's provider for
// the lines that name rt's identifier as a word and declare no other
// symbol of that name, but those skip leaves out (by zero-based line):
// the first maxTextualUses as path:line, and how many there are in the
// files read. texts are files' texts to search instead of those on disk
// (a change's files as it leaves them). Nothing when the target's
// language is not dynamically typed.
func (t *Toolbox) wordLines(ctx context.Context, r *workspacefs.Root, rt lspseam.ResolvedTarget, texts map[string]string, skip func(rel string, n int, line string) bool) ([]string, int) {
	sel, ok := t.service.Selection(ctx, rt.Path, r.Dir)
	if !ok || !dynamicLanguages[sel.LanguageID] || rt.Identifier == "" {
		return nil, 0
	}
	var out []string
	total := 0
	t.ownedTexts(ctx, r, sel.ID, rt.Identifier, texts, func(rel, text string) {
		for n, line := range strings.Split(text, "\n") {
			if core.IdentifierOffsets(rel, line, rt.Identifier) == nil || skip(rel, n, line) || declaresOther(rel, line, rt.Identifier) {
				continue
			}
			total++
			if len(out) < maxTextualUses {
				out = append(out, rel+":"+strconv.Itoa(n+1))
			}
		}
	})
	return out, total
}

// ownedTexts calls visit with the text of each of the workspace's files
// of provider id that holds name (as a substring), within the search's
// bounds; texts are files' texts to search instead of those on disk. It
// says whether every such file was searched.
func (t *Toolbox) ownedTexts(ctx context.Context, r *workspacefs.Root, id, name string, texts map[string]string, visit func(rel, text string)) bool {
	census := t.takeCensus(ctx, r.Dir, r.Dir, false)
	read := 0
	for i, f := range census.owned[id] {
		if i >= maxTextualFiles || read >= maxTextualBytes || ctx.Err() != nil {
			return false
		}
		text, ok := texts[f.rel]
		if !ok {
			file, err := r.Read(r.Abs(f.rel))
			if err != nil || !file.Exists {
				continue
			}
			text = file.Text
		}
		if !strings.Contains(text, name) {
			continue
		}
		read += len(text)
		visit(f.rel, text)
	}
	return true
}

// declaresOther says whether line declares a function, method or class
// named name (Python, JavaScript, PHP, Ruby, Lua, Perl and shell forms).
func declaresOther(path, line, name string) bool {
	t := strings.TrimSpace(line)
	for _, mod := range []string{"export ", "default ", "async ", "public ", "private ", "protected ", "static ", "final ", "abstract ", "local "} {
		t = strings.TrimPrefix(t, mod)
	}
	for _, kw := range []string{"def ", "class ", "function ", "sub "} {
		if rest, ok := strings.CutPrefix(t, kw); ok {
			rest = strings.TrimPrefix(strings.TrimSpace(rest), "self.")
			return slices.Contains(core.IdentifierOffsets(path, rest, name), 0)
		}
	}
	// A shell function: name() { or name () {
	if rest, ok := strings.CutPrefix(t, name); ok {
		return strings.HasPrefix(strings.TrimSpace(rest), "()")
	}
	return false
}

// renameUnseenUses is the notice for the lines of a dynamically typed
// language's files that still name the renamed identifier once the
// rename's files are changed, declarations of other symbols of that name
// left out ("" when none, or the language is statically typed). Only a
// declaration other code can name is looked for (a function, a class, a
// method, a property or field: what an untyped value or another module
// reaches by name); a rename of a local or a parameter listed every line
// of the workspace naming a common word such as `it`.
func (t *Toolbox) renameUnseenUses(ctx context.Context, r *workspacefs.Root, rt lspseam.ResolvedTarget, files []plannedFile) string {
	switch rt.Kind {
	case "function", "class", "method", "property", "field":
	default:
		return ""
	}
	after := map[string]string{}
	for _, f := range files {
		after[f.rel] = f.after // "" when the rename deletes the file
	}
	// A name only in a string is not a use a rename leaves (an import's
	// "./Badge.jsx" named Badge once tsserver had renamed the import).
	seen, total := t.wordLines(ctx, r, rt, after, func(rel string, _ int, line string) bool {
		return onlyInStrings(line, core.IdentifierOffsets(rel, line, rt.Identifier))
	})
	if total == 0 {
		return ""
	}
	more := ""
	if total > len(seen) {
		more = " and " + strconv.Itoa(total-len(seen)) + " more"
	}
	return strconv.Itoa(total) + " other " + plural(total, "line names", "lines name") + " " + rt.Identifier + " and " + plural(total, "is", "are") + " not renamed (untyped uses the server cannot see, or other symbols of the same name): " + strings.Join(seen, ", ") + more + "; rename those that are uses with edit"
}

// onlyInStrings says whether every one of offsets (byte offsets in line)
// lies inside a quoted string of the line (' or ", a backslash escaping
// the next byte); a template literal is not one (its ${…} are code).
func onlyInStrings(line string, offsets []int) bool {
	if len(offsets) == 0 {
		return false
	}
	inside := make([]bool, len(line)+1)
	var quote byte
	for i := 0; i < len(line); i++ {
		inside[i] = quote != 0
		switch c := line[i]; {
		case quote != 0 && c == '\\':
			i++
			if i < len(line) {
				inside[i] = true
			}
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '\'' || c == '"'):
			quote = c
		}
	}
	for _, o := range offsets {
		if !inside[o] {
			return false
		}
	}
	return true
}

// lineAt is text's zero-based line n ("" past its end).
func lineAt(text string, n int) string {
	for i := 0; i < n; i++ {
		j := strings.IndexByte(text, '\n')
		if j < 0 {
			return ""
		}
		text = text[j+1:]
	}
	if j := strings.IndexByte(text, '\n'); j >= 0 {
		return text[:j]
	}
	return text
}
