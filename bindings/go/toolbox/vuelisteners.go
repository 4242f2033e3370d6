package toolbox

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/lspseam/lspseam/core"
)

// The listeners a change of a Vue component leaves listening to an event
// it no longer emits. A listener of an event the component does not
// declare is a fallthrough attribute, which no checker reports: a tester
// renamed Hamburger's emitted `toggleClick` to `toggled`, fixed the one
// error reported (its `emit("toggleClick")`), and vue-tsc was clean while
// NavigationBar's `<Hamburger @toggle-click="toggleSidebar"/>` no longer
// toggled anything. So the events the component declares (defineEmits,
// and defineModel's `update:` events) are read before and after the
// change, and the workspace's components are searched for the listeners
// of each event that went: `@old-name`, `@oldName`, `v-on:old-name`, an
// `onOldName` prop, on a tag of the component (a name its users import
// it under, PascalCase or kebab-case). Each is named in the answer's
// incomplete notice; one on a dynamic `<component :is>` tag, or an
// `onOldName` in script code (a render function's h call), "may" listen.

// vueEmitsKey matches an event's key in a defineEmits type literal
// (`toggleClick: []`, `'update:value': [v: string]`): group 1 quoted,
// group 2 bare.
var vueEmitsKey = regexp.MustCompile(`(?:['"]([^'"\n]+)['"]|([A-Za-z_$][\w$]*))\s*:\s*\[`)

// vueEmitsSignature matches a call signature's event (`(e: "change", …)`).
var vueEmitsSignature = regexp.MustCompile(`\(\s*[A-Za-z_$][\w$]*\s*:\s*['"]([^'"\n]+)['"]`)

// vueStringLit matches a string literal (an event of defineEmits' array).
var vueStringLit = regexp.MustCompile(`['"]([^'"\n]+)['"]`)

// vueEmitsTypeName matches the type defineEmits names (`defineEmits<Emits>`).
var vueEmitsTypeName = regexp.MustCompile(`defineEmits\s*<\s*([A-Za-z_$][\w$]*)\s*>`)

// vueModelName matches defineModel's model name (none: modelValue).
var vueModelName = regexp.MustCompile(`defineModel\s*(?:<[^(]*>)?\s*\(\s*(?:['"]([^'"\n]+)['"])?`)

// vueEvents lists the events a component's text declares it emits.
func vueEvents(text string) []string {
	lines := core.SplitLines(text)
	var out []string
	add := func(e string) {
		if e != "" && !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	fromType := func(t string) {
		for _, m := range vueEmitsKey.FindAllStringSubmatch(t, -1) {
			add(m[1] + m[2])
		}
		for _, m := range vueEmitsSignature.FindAllStringSubmatch(t, -1) {
			add(m[1])
		}
	}
	for _, s := range vueScripts(lines) {
		stmts := topStatements(lines, s)
		text := func(st scriptStatement) string { return strings.Join(lines[st.first:st.last+1], "\n") }
		for _, st := range stmts {
			t := text(st)
			if k := strings.Index(t, "defineEmits"); k >= 0 {
				t = t[k:]
				switch rest := strings.TrimLeft(t[len("defineEmits"):], " \t\n"); {
				case strings.HasPrefix(rest, "(["):
					for _, m := range vueStringLit.FindAllStringSubmatch(rest[:strings.IndexByte(rest+"]", ']')], -1) {
						add(m[1])
					}
				case strings.HasPrefix(rest, "({"):
					fromObjectKeys(rest[1:], add)
				default:
					fromType(t)
					if m := vueEmitsTypeName.FindStringSubmatch(t); m != nil {
						for _, d := range stmts {
							if dm := vueTopDecl.FindStringSubmatch(lines[d.first]); dm != nil && dm[2] == m[1] && (dm[1] == "interface" || dm[1] == "type") {
								fromType(text(d))
							}
						}
					}
				}
			}
			for _, m := range vueModelName.FindAllStringSubmatch(t, -1) {
				name := m[1]
				if name == "" {
					name = "modelValue"
				}
				add("update:" + name)
			}
		}
	}
	return out
}

// fromObjectKeys adds the keys at the top of an object literal (from its
// "{"), as defineEmits' runtime declaration spells its events.
func fromObjectKeys(obj string, add func(string)) {
	depth := 0
	key := func(s string) {
		s = strings.TrimSpace(s)
		if m := regexp.MustCompile(`^(?:['"]([^'"]+)['"]|([A-Za-z_$][\w$]*))\s*(?::|\(|$)`).FindStringSubmatch(s); m != nil {
			add(m[1] + m[2])
		}
	}
	start := 1
	for i := 0; i < len(obj); i++ {
		switch obj[i] {
		case '{', '(', '[':
			depth++
		case '}', ')', ']':
			depth--
			if depth == 0 {
				key(obj[start:i])
				return
			}
		case ',':
			if depth == 1 {
				key(obj[start:i])
				start = i + 1
			}
		}
	}
}

// listenerHit is a listener of an old event found in a file.
type listenerHit struct {
	rel   string
	line  int  // 1-based
	sure  bool // on a tag of the component; else it may listen
	event string
}

// eventListeners finds, in a component's text, the listeners of event
// on a tag named one of names (PascalCase or kebab-case), and those that
// may be (a dynamic `<component>` tag, an onEvent in script code).
func eventListeners(rel, text, event string, names []string) []listenerHit {
	var forms []string
	for _, e := range []string{event, kebabCase(event), camelCase(event)} {
		forms = append(forms, "@"+e, "v-on:"+e)
	}
	on := "on" + strings.ToUpper(camelCase(event)[:1]) + camelCase(event)[1:]
	if strings.HasPrefix(event, "update:") {
		model := strings.TrimPrefix(event, "update:")
		if model == "modelValue" {
			forms = append(forms, "v-model")
		} else {
			forms = append(forms, "v-model:"+model, "v-model:"+kebabCase(model))
		}
		on = "onUpdate:" + model
	}
	forms = append(forms, ":"+on, "v-bind:"+on, ":"+kebabCase(on), "v-bind:"+kebabCase(on))
	var tags []string
	for _, n := range names {
		tags = append(tags, strings.ToLower(n), kebabCase(n))
	}
	lines := core.SplitLines(text)
	var scriptLine []bool // the lines inside <script> blocks
	if strings.HasSuffix(rel, ".vue") {
		scriptLine = make([]bool, len(lines))
		for _, s := range vueScripts(lines) {
			for i := s.open; i <= s.close; i++ {
				scriptLine[i] = true
			}
		}
	}
	lineOf := func(at int) int { return strings.Count(text[:at], "\n") }
	var hits []listenerHit
	seen := map[int]bool{}
	hit := func(line int, sure bool) {
		if !seen[line] {
			seen[line] = true
			hits = append(hits, listenerHit{rel: rel, line: line + 1, sure: sure, event: event})
		}
	}
	for _, form := range forms {
		for i := 0; ; {
			k := strings.Index(text[i:], form)
			if k < 0 {
				break
			}
			at, end := i+k, i+k+len(form)
			i = at + 1
			if at > 0 && !strings.ContainsRune(" \t\r\n", rune(text[at-1])) {
				continue // part of another attribute
			}
			if end < len(text) && strings.IndexByte("=. \t\r\n/>", text[end]) < 0 {
				continue // a longer name
			}
			if scriptLine == nil || scriptLine[lineOf(at)] {
				continue
			}
			tag, ok := enclosingTag(text, at)
			if !ok {
				continue
			}
			switch t := strings.ToLower(tag); {
			case slices.Contains(tags, t):
				hit(lineOf(at), true)
			case t == "component":
				hit(lineOf(at), false)
			}
		}
	}
	// onEvent in script code: a render function's h(Component, { onEvent }).
	for i := 0; ; {
		k := strings.Index(text[i:], on)
		if k < 0 {
			break
		}
		at, end := i+k, i+k+len(on)
		i = at + 1
		if at > 0 && isIdentByte(text[at-1]) || end < len(text) && isIdentByte(text[end]) {
			continue
		}
		if scriptLine != nil && !scriptLine[lineOf(at)] {
			continue // a template's, matched above on its tag
		}
		if slices.ContainsFunc(names, func(n string) bool { return identifierIn(text, n) }) {
			hit(lineOf(at), false)
		}
	}
	sort.Slice(hits, func(a, b int) bool { return hits[a].line < hits[b].line })
	return hits
}

// enclosingTag is the name of the opening tag whose attributes hold
// offset at of a template, and whether there is one.
func enclosingTag(text string, at int) (string, bool) {
	lt := -1
	for i := at - 1; i >= 0 && at-i < 4000; i-- {
		if text[i] == '<' && i+1 < len(text) && (text[i+1] >= 'a' && text[i+1] <= 'z' || text[i+1] >= 'A' && text[i+1] <= 'Z') {
			lt = i
			break
		}
	}
	if lt < 0 {
		return "", false
	}
	var quote byte
	for i := lt; i < at; i++ {
		switch c := text[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			return "", false // in the element's content, not its tag
		}
	}
	end := lt + 1
	for end < len(text) && (isIdentByte(text[end]) || text[end] == '-' || text[end] == '.' || text[end] == ':') {
		end++
	}
	return text[lt+1 : end], true
}

// deadListenerNotices names the listeners, in the workspace's files
// (texts, as the change leaves them), of the events the component comp (used under
// names) declared before the change and no longer does after it.
func deadListenerNotices(texts map[string]string, comp string, names []string, before, after string) []string {
	was, is := vueEvents(before), vueEvents(after)
	var gone, added []string
	for _, e := range was {
		if !slices.Contains(is, e) {
			gone = append(gone, e)
		}
	}
	for _, e := range is {
		if !slices.Contains(was, e) {
			added = append(added, e)
		}
	}
	if len(gone) == 0 {
		return nil
	}
	rels := slices.Sorted(maps.Keys(texts))
	var out []string
	for _, e := range gone {
		var sure, may []string
		for _, rel := range rels {
			if rel == comp {
				continue
			}
			for _, h := range eventListeners(rel, texts[rel], e, names) {
				if h.sure {
					sure = append(sure, fmt.Sprintf("%s:%d", rel, h.line))
				} else {
					may = append(may, fmt.Sprintf("%s:%d", rel, h.line))
				}
			}
		}
		fix := "rename " + plural(len(sure), "it", "them") + " too (edit)"
		if len(gone) == 1 && len(added) == 1 {
			fix += ", to the new name `" + added[0] + "` (`@" + kebabCase(added[0]) + "`)"
		} else {
			fix += " or remove " + plural(len(sure), "it", "them")
		}
		what := fmt.Sprintf("%s no longer declares the event `%s`", comp, e)
		if len(sure) > 0 {
			out = append(out, fmt.Sprintf("%s, and %s %s to it by its old name (a listener of an event a component does not declare is a fallthrough attribute: no checker reports it): %s", what, strings.Join(sure, ", "), plural(len(sure), "listens", "listen"), fix))
		}
		if len(may) > 0 {
			out = append(out, fmt.Sprintf("%s, and %s may listen to it by its old name (a dynamic component or a render function's onEvent, which cannot be told to be %s): check %s", what, strings.Join(may, ", "), comp, plural(len(may), "it", "them")))
		}
	}
	return out
}
