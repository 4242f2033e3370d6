package toolbox

import (
	"context"
	"encoding/json"
	"path"
	"strconv"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// What a call hierarchy does not see of a JavaScript or TypeScript
// function (findings s28 F5, F6).
//
// typescript-language-server's incoming calls are calls: a handler passed
// as `onClick={handleStart}` had "(no callers found)", and an agent reads
// that as dead code. Its prepareCallHierarchy has no item for a function
// that is no declaration of one: `export const { useUser } =
// configureAuth(…)`, called in 10 places, was answered "the cursor may
// not be on a function … or the server has not indexed the file", both
// wrong. And its outgoing calls leave out the calls of such values
// (`useUser()`) and of components that are no function declaration
// (`const Button = React.forwardRef(…)` rendered as `<Button>`), with no
// word of it. So, for a file of that family:
//   - a callers answer says how often the target is used other than as a
//     call, and where (the references it asks once anyway, for the
//     callers in templates: hierarchytemplates.go);
//   - a target with no item but with references is answered with that
//     reason and the calls among them, instead of the guesses;
//   - a callees answer names the calls in the root's body (`name(`, JSX
//     `<Name`) that are at none of the sites the server listed.

// jsExts are the files whose uses and calls are read as JavaScript's
// (vueimporters.go's scriptExts adds .vue).
var jsExts = map[string]bool{".ts": true, ".tsx": true, ".mts": true, ".cts": true, ".js": true, ".jsx": true, ".mjs": true, ".cjs": true}

// maxUsesListed bounds the places a notice names.
const maxUsesListed = 5

// useKind is what a reference of a function's name is.
type useKind int

const (
	useValue       useKind = iota // passed, stored or returned: whatever receives it may call it
	useCall                       // name( or name?.(
	useTag                        // a JSX element <Name or </Name
	useImport                     // on an import or re-export line
	useDeclaration                // where it is declared: const name =, const { name } =, function name(, { name: … }
)

// referenceUse says what the reference r of name in the file at uri
// (text) is.
func referenceUse(uri, text string, r core.Range, name string) useKind {
	line := lineAt(text, int(r.Start.Line))
	trimmed := strings.TrimSpace(line)
	if strings.HasPrefix(trimmed, "import ") || strings.HasPrefix(trimmed, "import{") ||
		strings.HasPrefix(trimmed, "export ") && (strings.Contains(trimmed, " from ") || strings.HasPrefix(strings.TrimSpace(trimmed[len("export "):]), "{")) {
		return useImport
	}
	for _, off := range core.IdentifierOffsets(uri, line, name) {
		if core.ColumnOfByteOffset(line, off) == int(r.Start.Character) {
			before := strings.TrimRight(line[:off], " \t")
			if strings.HasSuffix(before, "<") || strings.HasSuffix(before, "</") {
				return useTag
			}
			after := strings.TrimLeft(line[off+len(name):], " \t")
			if declares(before) || propertyKey(before, after) {
				return useDeclaration
			}
		}
	}
	if callAt(uri, text, r, name) {
		return useCall
	}
	return useValue
}

// declares says whether the text before a name on its line declares
// it: a declaration keyword and no `=` before it.
func declares(before string) bool {
	if strings.Contains(before, "=") {
		return false
	}
	for _, w := range strings.FieldsFunc(before, func(r rune) bool { return !isIdentByte(byte(r)) || r > 127 }) {
		switch w {
		case "const", "let", "var", "function", "class":
			return true
		}
	}
	return false
}

// propertyKey says whether a name between before and after is the key
// of an object literal's or a type's property (`{ useUser: () => …`),
// which declares it: not a ternary's branch (`ok ? a : b`).
func propertyKey(before, after string) bool {
	return strings.HasPrefix(after, ":") && (before == "" || strings.HasSuffix(before, "{") || strings.HasSuffix(before, ","))
}

// declarationFile says whether p is a TypeScript declaration file, whose
// uses of a name are types, not values.
func declarationFile(p string) bool {
	return strings.HasSuffix(p, ".d.ts") || strings.HasSuffix(p, ".d.mts") || strings.HasSuffix(p, ".d.cts")
}

// usesOf sorts the references of rt (refs, translated) other than
// declarations, imports, declaration files' and the sites covered lists:
// calls and other uses, each
// as "path:line:column" (path relative to wsPath).
func usesOf(s lspseam.Session, wsPath string, rt lspseam.ResolvedTarget, uri string, refs []core.Location, covered []core.Location) (calls, values []string, callsAt []core.Location) {
	texts := map[string]*string{}
	for _, l := range refs {
		if locationCovered(covered, l) {
			continue
		}
		p, isPath := workspacefs.HostPaths.URIPath(l.URI)
		if !isPath || !jsExts[path.Ext(p)] || declarationFile(p) {
			continue
		}
		text, read := texts[l.URI]
		if !read {
			if src, err := s.Read(p); err == nil {
				text = &src.Text
			}
			texts[l.URI] = text
		}
		if text == nil {
			continue
		}
		at := relTo(wsPath, p) + ":" + strconv.Itoa(int(l.Range.Start.Line)+1) + ":" + strconv.Itoa(int(l.Range.Start.Character)+1)
		switch referenceUse(l.URI, *text, l.Range, rt.Identifier) {
		case useCall, useTag:
			calls = append(calls, at)
			callsAt = append(callsAt, l)
		case useValue:
			// The target itself, when no call (a method's declaration),
			// is no use.
			if l.URI != uri || l.Range.Start != rt.Position {
				values = append(values, at)
			}
		}
	}
	return calls, values, callsAt
}

// translatedRefs is the locations of a references result.
func (t *Toolbox) translatedRefs(ctx context.Context, raw json.RawMessage) []core.Location {
	refs, err := t.core.Translate(ctx, lspseam.OpReferences, raw)
	if err != nil {
		return nil
	}
	return refs.Locations
}

// scriptUses are the calls and the value uses, and where the calls are
// (usesOf), among the references of a script's target, outside covered;
// false when the target is not a script's or its references cannot be
// had.
func (t *Toolbox) scriptUses(ctx context.Context, s lspseam.Session, ws string, refs *targetRefs, covered []core.Location) (calls, values []string, callsAt []core.Location, ok bool) {
	rt := refs.rt
	if rt.Identifier == "" || !jsExts[path.Ext(rt.Path)] || !s.Methods()["textDocument/references"] {
		return nil, nil, nil, false
	}
	raw, err := refs.get(ctx)
	if err != nil {
		return nil, nil, nil, false
	}
	calls, values, callsAt = usesOf(s, ws, rt, refs.uri, t.translatedRefs(ctx, raw), covered)
	return calls, values, callsAt, true
}

// valueUsesNotice is a callers answer's line on the uses of its target
// that are no calls (covered: the sites of the callers found); "" when
// there are none or the target is not a script's.
func (t *Toolbox) valueUsesNotice(ctx context.Context, s lspseam.Session, ws string, refs *targetRefs, covered []core.Location) string {
	rt := refs.rt
	_, values, _, ok := t.scriptUses(ctx, s, ws, refs, covered)
	if !ok || len(values) == 0 {
		return ""
	}
	return "`" + rt.Identifier + "` is also used " + strconv.Itoa(len(values)) + " " + plural(len(values), "time", "times") +
		" as a value, not called there (" + core.Listed(values, maxUsesListed) + "): whatever receives it (an onClick={…} prop, a callback argument) may call it, and those calls are not among the callers; code_navigate kind references lists every use"
}

// noItemReason is why a script's target has no call hierarchy item, when
// it has references: what the answer says instead of the core's guesses
// (a cursor off a function, a file not indexed); "" to keep them.
func (t *Toolbox) noItemReason(ctx context.Context, s lspseam.Session, ws string, refs *targetRefs, kind string) string {
	rt := refs.rt
	calls, values, _, ok := t.scriptUses(ctx, s, ws, refs, nil)
	if !ok || len(calls)+len(values) == 0 {
		return ""
	}
	why := "the server gives no call hierarchy item for `" + rt.Identifier + "`, a value it does not take for a function declaration (such as one destructured from a call's result, `const { " +
		rt.Identifier + " } = make(…)`, or one a call returns, `const X = React.forwardRef(…)`), though it is used " + strconv.Itoa(len(calls)+len(values)) + " " + plural(len(calls)+len(values), "time", "times")
	switch {
	case len(values) == 0:
		why += ", every time a call: " + core.Listed(calls, maxUsesListed)
	case len(calls) > 0:
		why += ", " + strconv.Itoa(len(calls)) + " of them " + plural(len(calls), "a call", "calls") + ": " + core.Listed(calls, maxUsesListed)
	default:
		why += ", none of them a call"
	}
	if len(values) > 0 {
		why += "; " + plural(len(values), "the other use", "the other uses") + ": " + core.Listed(values, maxUsesListed)
	}
	if kind == "callees" {
		return why + "; its callees cannot be listed: read its definition (code_navigate kind definition)"
	}
	return why + "; these are its callers' call sites, found by its references, not by a call hierarchy (code_navigate kind references lists every use)"
}

// unlistedCall is a call in a callees root's body that no site of the
// server's covers.
type unlistedCall struct {
	name  string
	lines []int // one-based
}

// scriptKeywords are words followed by `(` that are no calls.
var scriptKeywords = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "catch": true, "return": true, "typeof": true,
	"function": true, "await": true, "new": true, "super": true, "import": true, "void": true, "delete": true, "in": true, "of": true,
	"instanceof": true, "yield": true, "case": true, "do": true, "else": true, "throw": true, "as": true, "satisfies": true, "keyof": true}

// unlistedCalls lists the calls in body (a range of text, a script) of a
// bare name — `name(`, not `x.name(` nor `function name(` — or of a JSX
// element `<Name`, that none of the ranges in listed holds, by name in the
// order found. Strings and comments are skipped.
func unlistedCalls(text string, body core.Range, listed []core.Range) []unlistedCall {
	lines := strings.Split(text, "\n")
	var out []unlistedCall
	index := map[string]int{}
	inBlock := false
	for n := int(body.Start.Line); n <= int(body.End.Line) && n < len(lines); n++ {
		line := lines[n]
		masked := []byte(line)
		// Blank out comments and strings, so their words are no calls.
		var quote byte
		for i := 0; i < len(masked); i++ {
			c := masked[i]
			switch {
			case inBlock:
				if c == '*' && i+1 < len(masked) && masked[i+1] == '/' {
					inBlock = false
					masked[i+1] = ' '
				}
				masked[i] = ' '
			case quote != 0:
				if c == '\\' && i+1 < len(masked) {
					masked[i+1] = ' '
				} else if c == quote {
					quote = 0
				}
				masked[i] = ' '
			case c == '/' && i+1 < len(masked) && masked[i+1] == '/':
				for j := i; j < len(masked); j++ {
					masked[j] = ' '
				}
			case c == '/' && i+1 < len(masked) && masked[i+1] == '*':
				inBlock = true
				masked[i] = ' '
			case c == '"' || c == '\'' || c == '`':
				quote = c
			}
		}
		for i := 0; i < len(masked); {
			if !isIdentStart(masked[i]) || i > 0 && isIdentByte(masked[i-1]) {
				i++
				continue
			}
			j := i
			for j < len(masked) && isIdentByte(masked[j]) {
				j++
			}
			name := string(masked[i:j])
			before := strings.TrimRight(string(masked[:i]), " \t")
			call := j < len(masked) && masked[j] == '(' && !scriptKeywords[name] &&
				!strings.HasSuffix(before, ".") && !strings.HasSuffix(before, "function") && !strings.HasSuffix(before, "?.")
			tag := name[0] >= 'A' && name[0] <= 'Z' && strings.HasSuffix(string(masked[:i]), "<") &&
				!strings.HasSuffix(string(masked[:i]), "</") && (j == len(masked) || masked[j] == ' ' || masked[j] == '>' || masked[j] == '/' || masked[j] == '.')
			col := uint32(core.ColumnOfByteOffset(line, i))
			pos := core.Position{Line: uint32(n), Character: col}
			inBody := (n > int(body.Start.Line) || col >= body.Start.Character) && (n < int(body.End.Line) || col < body.End.Character)
			if (call || tag) && inBody && !siteListed(listed, pos) {
				k, seen := index[name]
				if !seen {
					k = len(out)
					index[name] = k
					out = append(out, unlistedCall{name: name})
				}
				if l := out[k].lines; len(l) == 0 || l[len(l)-1] != n+1 {
					out[k].lines = append(out[k].lines, n+1)
				}
			}
			i = j
		}
	}
	return out
}

// siteListed says whether pos is within one of the ranges in listed.
func siteListed(listed []core.Range, pos core.Position) bool {
	for _, r := range listed {
		if rangeHolds(r, pos) {
			return true
		}
	}
	return false
}

func isIdentStart(c byte) bool { return isIdentByte(c) && (c < '0' || c > '9') }

// unlistedCallsNotice names the calls unlistedCalls finds: "" when none.
func unlistedCallsNotice(calls []unlistedCall) string {
	if len(calls) == 0 {
		return ""
	}
	var named []string
	for _, c := range calls {
		ls := make([]string, len(c.lines))
		for i, l := range c.lines {
			ls[i] = strconv.Itoa(l)
		}
		at := "line " + ls[0]
		if len(ls) > 1 {
			at = "lines " + strings.Join(ls, ", ")
		}
		named = append(named, c.name+" ("+at+")")
	}
	return "not listed: calls the server gives no call hierarchy item for (values that are no function declaration, such as a destructured hook or a component made by React.forwardRef, or a parameter): " +
		core.Listed(named, 10) + "; code_navigate kind definition at each says what it is"
}

// calleesRoot is a callees root as the unlisted calls need it: its file,
// the range of its body and the sites the server listed in it.
type calleesRoot struct {
	uri   string
	body  core.Range
	sites []core.Range
}

// calleesRoots reads the roots (the raw prepare result) whose files are
// scripts, with the sites of their expansions (ids: the roots' pending
// ids in order; the results as filtered).
func calleesRoots(roots json.RawMessage, ids []string, expansions map[string]map[string]any) []calleesRoot {
	var items []struct {
		URI   string     `json:"uri"`
		Range core.Range `json:"range"`
	}
	if json.Unmarshal(roots, &items) != nil || len(items) != len(ids) {
		return nil
	}
	var out []calleesRoot
	for i, it := range items {
		if !jsExts[path.Ext(it.URI)] {
			continue
		}
		raw, ok := expansions[ids[i]]["result"].(json.RawMessage)
		if !ok {
			continue // failed: the answer says so
		}
		var calls []struct {
			FromRanges []core.Range `json:"fromRanges"`
		}
		if json.Unmarshal(raw, &calls) != nil {
			continue
		}
		r := calleesRoot{uri: it.URI, body: it.Range}
		for _, c := range calls {
			r.sites = append(r.sites, c.FromRanges...)
		}
		out = append(out, r)
	}
	return out
}

// unlistedCalleesNotice is a callees answer's line on the calls in its
// roots' bodies that the server did not list; "" when none.
func unlistedCalleesNotice(p *placedSites, roots []calleesRoot) string {
	var all []unlistedCall
	for _, r := range roots {
		text := p.text(r.uri)
		if text == nil {
			continue
		}
		all = append(all, unlistedCalls(*text, r.body, r.sites)...)
	}
	return unlistedCallsNotice(all)
}
