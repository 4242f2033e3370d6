package toolbox

import (
	"regexp"
	"slices"
	"strings"

	"github.com/lspseam/lspseam/core"
)

// Which changes of a Vue single-file component can change its public
// surface, the props, emits, exposed members and models the files that
// use it compile against (vueimporters.go), read textually from the
// component's text. tsserver's references from a declaration in
// `defineProps<Props>()` reach neither `<Logo :collapse=…/>` in a parent's
// template nor `props: { data }` in a test's mount call, nor
// `resultRef.value.getScrollTop(…)` through a template ref, and
// typescript-language-server gives no outline of a .vue file at all: the
// references cannot say who uses the component, its importers can.
//
// Generous on purpose, an importer checked needlessly costs a check, one
// missed is an answer silently wrong: a change counts when its changed
// lines (of the text before or after) touch a `<script>` tag, a
// non-setup `<script>` block (Options API: props and emits are options
// of its export), a statement calling a compiler macro (defineProps,
// defineEmits, defineExpose, defineModel, withDefaults, defineSlots,
// defineOptions), a type, interface or enum declared in `<script setup>`
// (the Props and Emits those macros name, and what those name), the
// declaration of a name defineExpose lists (its body too: an exposed
// function's return type is inferred from it), or an import those spell.
// A change inside the body of a function that is not exposed, or in the
// template or style, does not count.

// vueMacro matches a call of a Vue compiler macro that declares part of
// a component's public surface.
var vueMacro = regexp.MustCompile(`\b(defineProps|defineEmits|defineExpose|defineModel|withDefaults|defineSlots|defineOptions)\b`)

// vueTopDecl matches a top-level declaration of a `<script setup>`:
// group 1 the kind, group 2 the name (empty for a destructuring).
var vueTopDecl = regexp.MustCompile(`^\s*(?:export\s+)?(?:declare\s+)?(?:async\s+)?(interface|type|enum|function\*?|const|let|var|class)\s+([A-Za-z_$][\w$]*)?`)

// vueWord matches an identifier.
var vueWord = regexp.MustCompile(`[A-Za-z_$][\w$]*`)

// vueScript is a `<script>` block of a component's text: lines open and
// close hold its tags (close is the last line when it is not closed).
type vueScript struct {
	open, close int
	setup       bool
}

// vueScripts finds the `<script>` blocks of a component's lines
// (componentblocks.go).
func vueScripts(lines []string) []vueScript {
	var out []vueScript
	for _, b := range componentBlocks(lines, "script") {
		tag := b.opening
		if k := strings.IndexByte(tag, '>'); k >= 0 {
			tag = tag[:k]
		}
		out = append(out, vueScript{open: b.open, close: b.close, setup: slices.Contains(strings.Fields(strings.NewReplacer("=", " ", ">", " ").Replace(tag)), "setup")})
	}
	return out
}

// scriptLexer tracks, over a script's lines, the bracket depth ((, [, {)
// outside strings and comments, and whether a line starts inside a
// multi-line comment or template literal.
type scriptLexer struct {
	depth     int
	inComment bool // a /* … */ comment
	inTmpl    bool // a `…` template literal (its ${…} taken as text)
}

// line advances the lexer past one line, returning the depth at its
// start and the lowest depth reached in it.
func (lx *scriptLexer) line(s string) (start, lowest int) {
	start, lowest = lx.depth, lx.depth
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case lx.inComment:
			if c == '*' && i+1 < len(s) && s[i+1] == '/' {
				lx.inComment = false
				i++
			}
		case lx.inTmpl:
			if c == '\\' {
				i++
			} else if c == '`' {
				lx.inTmpl = false
			}
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			return start, lowest
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			lx.inComment = true
			i++
		case c == '`':
			lx.inTmpl = true
		case c == '"' || c == '\'':
			for i++; i < len(s) && s[i] != c; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case c == '(' || c == '[' || c == '{':
			lx.depth++
		case c == ')' || c == ']' || c == '}':
			lx.depth--
			lowest = min(lowest, lx.depth)
		}
	}
	return start, lowest
}

// scriptStatement is a statement of a script block: its lines [first,
// last], starting at bracket depth 0.
type scriptStatement struct{ first, last int }

// topStatements splits a script block's lines (between its tags) into
// the statements that start at depth 0, each running until its brackets
// close again (a line at depth 0 after it starts the next).
func topStatements(lines []string, s vueScript) []scriptStatement {
	var out []scriptStatement
	var lx scriptLexer
	cur := -1
	for i := s.open + 1; i < s.close; i++ {
		start, _ := lx.line(lines[i])
		if start <= 0 && !lx.inComment && strings.TrimSpace(lines[i]) != "" {
			if cur >= 0 && start <= 0 {
				out = append(out, scriptStatement{cur, i - 1})
			}
			cur = i
		}
	}
	if cur >= 0 {
		out = append(out, scriptStatement{cur, s.close - 1})
	}
	return out
}

// vueSurfaceLines marks the lines of a component's text that make up its
// public surface (as the file comment says); nil for a text with no
// `<script>`.
func vueSurfaceLines(lines []string) []bool {
	scripts := vueScripts(lines)
	if len(scripts) == 0 {
		return nil
	}
	marked := make([]bool, len(lines))
	mark := func(first, last int) {
		for i := max(first, 0); i <= last && i < len(lines); i++ {
			marked[i] = true
		}
	}
	for _, s := range scripts {
		if !s.setup {
			mark(s.open, s.close)
			continue
		}
		mark(s.open, s.open)
		mark(s.close, s.close)
		stmts := topStatements(lines, s)
		text := func(st scriptStatement) string { return strings.Join(lines[st.first:st.last+1], "\n") }
		words := map[string]bool{}   // spelled by the surface's statements
		exposed := map[string]bool{} // listed by defineExpose
		var imports []scriptStatement
		for _, st := range stmts {
			t := text(st)
			m := vueTopDecl.FindStringSubmatch(lines[st.first])
			switch {
			case vueMacro.MatchString(t):
				if strings.Contains(t, "defineExpose") {
					for _, w := range vueWord.FindAllString(t[strings.Index(t, "defineExpose"):], -1) {
						exposed[w] = true
					}
				}
			case m != nil && (m[1] == "interface" || m[1] == "type" || m[1] == "enum"):
			case strings.HasPrefix(strings.TrimSpace(lines[st.first]), "import"):
				imports = append(imports, st)
				continue
			default:
				continue
			}
			mark(st.first, st.last)
			for _, w := range vueWord.FindAllString(t, -1) {
				words[w] = true
			}
		}
		for _, st := range stmts {
			if m := vueTopDecl.FindStringSubmatch(lines[st.first]); m != nil && m[2] != "" && exposed[m[2]] {
				mark(st.first, st.last)
				for _, w := range vueWord.FindAllString(text(st), -1) {
					words[w] = true
				}
			}
		}
		for _, st := range imports {
			t := text(st)
			if k := strings.LastIndex(t, "from"); k >= 0 {
				t = t[:k]
			}
			if slices.ContainsFunc(vueWord.FindAllString(strings.TrimPrefix(strings.TrimSpace(t), "import"), -1), func(w string) bool { return w != "type" && w != "as" && words[w] }) {
				mark(st.first, st.last)
			}
		}
	}
	return marked
}

// vueSurfaceChanged reports whether the change of a .vue file's text from
// before to after may change the component's public surface: a changed
// line, of either text, is a surface line of its text.
func vueSurfaceChanged(before, after string) bool {
	if before == after {
		return false
	}
	b, a := core.SplitLines(before), core.SplitLines(after)
	mb, ma := vueSurfaceLines(b), vueSurfaceLines(a)
	if mb == nil && ma == nil {
		return false
	}
	at := func(m []bool, i int) bool { return i >= 0 && i < len(m) && m[i] }
	shift := 0 // the lines the hunks so far added to after
	for _, h := range core.LinesChanged(before, after).Hunks {
		for i := h.First; i < h.First+len(h.Before); i++ {
			if at(mb, i) {
				return true
			}
		}
		for i := h.First + shift; i < h.First+shift+len(h.After); i++ {
			if at(ma, i) {
				return true
			}
		}
		shift += len(h.After) - len(h.Before)
	}
	return false
}
