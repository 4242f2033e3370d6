package toolbox

import (
	"context"
	"slices"
	"strconv"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// The uses a rename leaves in macros' bodies.
//
// clangd 14 neither lists nor renames a name in the body of a macro: it
// lists the uses where the macro is expanded, on lines that spell the
// macro, not the name. A tester's rename of cJSON_SetNumberHelper, called
// from the body of cJSON_SetNumberValue (cJSON.h:284), changed its
// declaration and definition and left the macro's body; the check of the
// uses the rename leaves (renamecheck.go) then told the agent to edit 5
// lines of tests that invoke the macro and do not spell the name at all,
// never named cJSON.h:284, and the applied rename answered "no new
// problems" while the link failed. So a reference whose line does not
// spell the name is taken as a use through a macro's expansion, not as a
// line to edit; and the bodies of the #define lines of the workspace's
// files the server reads (headers included) that spell the name, as the
// rename leaves them, are the lines named to edit, with the expansions
// that reach them. Searched when such an expansion is listed, and for a
// C-family declaration other files can name even without one: a public
// header's macro no file of the workspace expands still breaks its users.

// preprocessedLanguages are the language ids whose files a C preprocessor
// reads.
var preprocessedLanguages = map[string]bool{"c": true, "cpp": true, "objective-c": true, "objective-cpp": true}

// macroNamedKinds are the kinds of declaration a macro's body may name
// from another file.
var macroNamedKinds = map[string]bool{
	"function": true, "method": true, "variable": true, "constant": true, "field": true,
	"struct": true, "class": true, "enum": true, "enumMember": true, "interface": true,
}

// macroSpelling is a line of a macro's definition whose body spells a
// name.
type macroSpelling struct {
	line  int    // zero-based
	macro string // the macro's name
}

// macroSpellings lists the lines of text (a C-family file at path) where
// a #define's body spells name as a word: its continuation lines
// (after a trailing backslash) are the body too; the macro's own name
// and its parameter list are not, and a macro with a parameter of that
// name spells the parameter, not the symbol.
func macroSpellings(path, text, name string) []macroSpelling {
	lines := strings.Split(text, "\n")
	var out []macroSpelling
	for i := 0; i < len(lines); i++ {
		macro, body, params, ok := defineHead(lines[i])
		if !ok {
			continue
		}
		end := i
		for end+1 < len(lines) && strings.HasSuffix(strings.TrimRight(lines[end], " \t\r"), `\`) {
			end++
		}
		if !slices.Contains(params, name) {
			for n := i; n <= end; n++ {
				part := lines[n]
				if n == i {
					part = body
				}
				if core.IdentifierOffsets(path, part, name) != nil {
					out = append(out, macroSpelling{n, macro})
				}
			}
		}
		i = end
	}
	return out
}

// defineHead reads a #define line: the macro's name, the line's text
// after the name and parameter list, and the parameters.
func defineHead(line string) (name, body string, params []string, ok bool) {
	t, ok := strings.CutPrefix(strings.TrimLeft(line, " \t"), "#")
	if !ok {
		return "", "", nil, false
	}
	t, ok = strings.CutPrefix(strings.TrimLeft(t, " \t"), "define")
	if !ok || t == "" || t[0] != ' ' && t[0] != '\t' {
		return "", "", nil, false
	}
	t = strings.TrimLeft(t, " \t")
	j := 0
	for j < len(t) && (t[j] == '_' || 'a' <= t[j] && t[j] <= 'z' || 'A' <= t[j] && t[j] <= 'Z' || j > 0 && '0' <= t[j] && t[j] <= '9') {
		j++
	}
	if j == 0 {
		return "", "", nil, false
	}
	name, t = t[:j], t[j:]
	if rest, fn := strings.CutPrefix(t, "("); fn { // function-like: the '(' right after the name
		list, after, _ := strings.Cut(rest, ")")
		for _, p := range strings.Split(list, ",") {
			params = append(params, strings.TrimSpace(p))
		}
		t = after
	}
	return name, t, params, true
}

// macroExpansion is a reference the server listed on a line that does
// not spell the name: a use through a macro's expansion.
type macroExpansion struct {
	at   string // rel:line, one-based
	rel  string
	text string // the line
}

// renameMacroLeft is the notice for the macros' bodies that spell rt's
// identifier as the rename leaves its files (files), and for the
// expansions the server listed as uses (expansions) ("" when there is
// nothing to say). refLines are the server's references as rel:line
// (one-based): a body line among them is the references check's.
func (t *Toolbox) renameMacroLeft(ctx context.Context, r *workspacefs.Root, rt lspseam.ResolvedTarget, files []plannedFile, refLines map[string]bool, expansions []macroExpansion) string {
	if rt.Identifier == "" {
		return ""
	}
	sel, ok := t.service.Selection(ctx, rt.Path, r.Dir)
	if !ok || len(expansions) == 0 && !(preprocessedLanguages[sel.LanguageID] && macroNamedKinds[rt.Kind]) {
		return ""
	}
	name := rt.Identifier
	if !preprocessedLanguages[sel.LanguageID] {
		// No preprocessor: a Vue template's `<screen-full>` of
		// `ScreenFull` in another case, or a use the server infers
		// (findings s27 #5); not a macro's.
		return unspelledUsesNotice(name, expansions)
	}
	before, after := map[string]string{}, map[string]string{}
	for _, f := range files {
		before[f.rel], after[f.rel] = f.before, f.after
	}
	var left, leftMacros, spelledMacros []string
	complete := t.ownedTexts(ctx, r, sel.ID, name, before, func(rel, text string) {
		for _, m := range macroSpellings(rel, text, name) {
			at := rel + ":" + strconv.Itoa(m.line+1)
			if !slices.Contains(spelledMacros, m.macro) {
				spelledMacros = append(spelledMacros, m.macro)
			}
			if refLines[at] {
				continue
			}
			line := lineAt(text, m.line)
			if now, ok := after[rel]; ok {
				line = lineAt(now, m.line) // renames keep lines in place
			}
			if core.IdentifierOffsets(rel, line, name) == nil {
				continue // the server's rename changed it
			}
			left = append(left, at)
			if !slices.Contains(leftMacros, m.macro) {
				leftMacros = append(leftMacros, m.macro)
			}
		}
	})
	var through []string // the expansions' lines
	for _, e := range expansions {
		through = append(through, e.at)
	}
	switch {
	case len(left) > 0:
		notice := core.Listed(left, maxTextualUses) + " " + plural(len(left), "spells", "spell") + " `" + name + "` in the " + plural(len(leftMacros), "body of macro ", "bodies of macros ") + backquoted(leftMacros) + ", which the server's rename does not change: rename it there (edit), or the code breaks"
		if len(expansions) > 0 {
			notice += "; " + plural(len(expansions), "the use", "the "+strconv.Itoa(len(expansions))+" uses") + " the server lists at " + core.Listed(through, maxTextualUses) + " " + plural(len(expansions), "reaches", "reach") + " it through " + backquoted(expandedMacros(expansions, leftMacros)) + ": " + plural(len(expansions), "its line does", "their lines do") + " not spell `" + name + "`, leave " + plural(len(expansions), "it as it is", "them as they are")
		}
		return notice
	case len(expansions) > 0 && len(spelledMacros) == 0:
		where := "in the files searched"
		if !complete {
			where = "in the files searched before the search's bound"
		}
		return "the server lists " + strconv.Itoa(len(expansions)) + " " + plural(len(expansions), "use", "uses") + " on " + plural(len(expansions), "a line that does", "lines that do") + " not spell `" + name + "` (" + core.Listed(through, maxTextualUses) + "): uses through a macro's expansion, and no macro's body spelling `" + name + "` was found " + where + ": find where the macro spells it and rename it there (edit), or the code breaks; leave those lines as they are"
	}
	return ""
}

// expandedMacros is the macros of macros the expansions' lines spell,
// all of macros when a line spells none (a macro expanded through
// another).
func expandedMacros(expansions []macroExpansion, macros []string) []string {
	var out []string
	for _, e := range expansions {
		found := false
		for _, m := range macros {
			if core.IdentifierOffsets(e.rel, e.text, m) != nil {
				found = true
				if !slices.Contains(out, m) {
					out = append(out, m)
				}
			}
		}
		if !found {
			return macros
		}
	}
	return out
}

// backquoted is names as `a`, `b`.
func backquoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	return core.Listed(q, maxTextualUses)
}

// unspelledUsesNotice is what the answer says of the uses the server
// lists on lines that do not spell name, in a language without macros
// ("" when none).
func unspelledUsesNotice(name string, uses []macroExpansion) string {
	if len(uses) == 0 {
		return ""
	}
	var at []string
	for _, u := range uses {
		at = append(at, u.at)
	}
	return "the server lists " + strconv.Itoa(len(uses)) + " " + plural(len(uses), "use", "uses") + " on " + plural(len(uses), "a line that does", "lines that do") + " not spell `" + name + "` (" + core.Listed(at, maxTextualUses) + "): template spellings or uses the server infers; check " + plural(len(uses), "it", "them")
}
