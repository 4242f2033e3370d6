package core

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// LSP glob patterns (LSP 3.17 "GlobPattern"), which servers send in
// workspace/didChangeWatchedFiles registrations to say which files they
// want to hear about.
//
// Paths and patterns are '/'-separated and case-sensitive; matching is over
// runes (an invalid UTF-8 byte counts as one U+FFFD). The syntax:
//
//	*       zero or more characters within one path segment
//	?       exactly one character within one path segment
//	**      as a whole segment: zero or more segments (a/**/b matches a/b);
//	        inside a segment (a**b) it is a plain *
//	{a,b}   alternatives; they may hold any syntax, '/' and ** included,
//	        and nest
//	[a-z]   one character of a set within one path segment; [!a-z] and
//	        [^a-z] negate; a ']' right after '[' (or '[!', '[^') is a
//	        member; the set must close within its segment
//
// '\' is an ordinary character, not an escape: paths are POSIX and may
// contain it, and servers write patterns for the path syntax, not for a
// shell.
//
// Patterns come from servers, so compiling and matching are bounded: a
// pattern is at most maxGlobBytes long and expands to at most maxGlobAlts
// brace alternatives, and matching is polynomial — a reachability table over
// (pattern segment, path segment) and, within a segment, the greedy
// one-star-backtrack algorithm, which is O(pattern × name) — so no pattern
// can make a match take exponential time.

const (
	maxGlobBytes = 4096
	maxGlobAlts  = 256
)

// Glob is a compiled glob pattern: its brace alternatives, each a list of
// segments.
type Glob struct {
	alts [][]globSegment
}

// globSegment is one '/'-separated piece of an alternative: ** (globstar) or
// a sequence of single-character tokens and stars.
type globSegment struct {
	globstar bool
	toks     []globToken
}

type globTokenKind uint8

const (
	tokLiteral globTokenKind = iota
	tokAnyOne                // ?
	tokStar                  // *
	tokClass                 // [...]
)

type globToken struct {
	kind  globTokenKind
	r     rune       // tokLiteral
	class *globClass // tokClass
}

// globClass is a bracket expression: inclusive rune ranges, maybe negated.
type globClass struct {
	negate bool
	ranges [][2]rune
}

func (c *globClass) has(r rune) bool {
	for _, rg := range c.ranges {
		if rg[0] <= r && r <= rg[1] {
			return !c.negate
		}
	}
	return c.negate
}

func (t globToken) matches(r rune) bool {
	switch t.kind {
	case tokLiteral:
		return t.r == r
	case tokAnyOne:
		return true
	case tokClass:
		return t.class.has(r)
	}
	return false
}

// CompileGlob compiles an LSP glob pattern. The error (LSP_INVALID_ARGUMENT)
// names the problem and where it is.
func CompileGlob(pattern string) (*Glob, *Error) {
	switch {
	case pattern == "":
		return nil, Errorf(CodeInvalidArgument, "a glob pattern must not be empty (use ** to match every file)")
	case len(pattern) > maxGlobBytes:
		return nil, Errorf(CodeInvalidArgument, "glob pattern %s is longer than the %d bytes lspseam accepts", quoteClipped(pattern), maxGlobBytes)
	}
	p := braceParser{s: pattern}
	alts, err := p.sequence(false)
	if err != nil {
		return nil, err
	}
	g := &Glob{alts: make([][]globSegment, 0, len(alts))}
	for _, alt := range alts {
		segs, err := compileAlternative(pattern, string(alt))
		if err != nil {
			return nil, err
		}
		g.alts = append(g.alts, segs)
	}
	return g, nil
}

// quoteClipped quotes untrusted text for a message: at most about 100 bytes,
// with its full length when it was cut.
func quoteClipped(s string) string {
	q := strconv.Quote(clip(s, 100))
	if len(s) > 100 {
		q += " (" + strconv.Itoa(len(s)) + " bytes)"
	}
	return q
}

// braceParser expands {a,b} groups into the pattern's alternatives. It
// steps over bracket expressions whole, so "[{,}]" is a set, not a group.
type braceParser struct {
	s string
	i int
}

// sequence parses up to the end of the pattern or, inside a group, up to the
// ',' or '}' that ends the current alternative, and returns every expansion.
func (p *braceParser) sequence(inGroup bool) ([][]byte, *Error) {
	out := [][]byte{nil}
	appendAll := func(piece string) {
		for k := range out {
			out[k] = append(out[k], piece...)
		}
	}
	for p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case inGroup && (c == ',' || c == '}'):
			return out, nil
		case c == '[':
			end := bracketEnd(p.s, p.i)
			if end < 0 {
				return nil, Errorf(CodeInvalidArgument, "glob pattern %s has an unclosed '[' at byte %d: a set such as [a-z] must close with ']' within its path segment", quoteClipped(p.s), p.i)
			}
			appendAll(p.s[p.i:end])
			p.i = end
		case c == '{':
			group, err := p.group()
			if err != nil {
				return nil, err
			}
			if len(out)*len(group) > maxGlobAlts {
				return nil, tooManyAlternatives(p.s)
			}
			switch {
			case len(group) == 1:
				appendAll(string(group[0]))
			case len(out) == 1 && len(out[0]) == 0:
				out = group
			default:
				next := make([][]byte, 0, len(out)*len(group))
				for _, prefix := range out {
					for _, alt := range group {
						next = append(next, append(append(make([]byte, 0, len(prefix)+len(alt)), prefix...), alt...))
					}
				}
				out = next
			}
		default:
			end := p.i + 1
			for end < len(p.s) && !strings.ContainsRune("[{,}", rune(p.s[end])) {
				end++
			}
			appendAll(p.s[p.i:end])
			p.i = end
		}
	}
	return out, nil
}

// group parses "{alt,alt,…}" starting at its '{' and returns the union of
// its alternatives' expansions.
func (p *braceParser) group() ([][]byte, *Error) {
	open := p.i
	p.i++
	var all [][]byte
	for {
		alts, err := p.sequence(true)
		if err != nil {
			return nil, err
		}
		if len(all)+len(alts) > maxGlobAlts {
			return nil, tooManyAlternatives(p.s)
		}
		all = append(all, alts...)
		if p.i >= len(p.s) {
			return nil, Errorf(CodeInvalidArgument, "glob pattern %s has an unclosed '{' at byte %d: alternatives such as {a,b} must close with '}'", quoteClipped(p.s), open)
		}
		p.i++
		if p.s[p.i-1] == '}' {
			return all, nil
		}
	}
}

func tooManyAlternatives(pattern string) *Error {
	return Errorf(CodeInvalidArgument, "glob pattern %s expands to more than %d alternatives (each {…} group multiplies them); use fewer or smaller groups", quoteClipped(pattern), maxGlobAlts)
}

// bracketEnd returns the index just past the ']' closing the bracket
// expression that starts at s[open] == '[', or -1 when it does not close
// within its path segment. A ']' first in the set (after an optional '!' or
// '^') is a member.
func bracketEnd(s string, open int) int {
	j := open + 1
	if j < len(s) && (s[j] == '!' || s[j] == '^') {
		j++
	}
	if j < len(s) && s[j] == ']' {
		j++
	}
	for ; j < len(s); j++ {
		switch s[j] {
		case ']':
			return j + 1
		case '/':
			return -1
		}
	}
	return -1
}

// compileAlternative splits one brace-free alternative into segments.
// Brackets never hold '/' (bracketEnd), so every '/' separates segments.
func compileAlternative(pattern, alt string) ([]globSegment, *Error) {
	parts := strings.Split(alt, "/")
	segs := make([]globSegment, 0, len(parts))
	for _, part := range parts {
		if part == "**" {
			if len(segs) > 0 && segs[len(segs)-1].globstar {
				continue // **/** is **
			}
			segs = append(segs, globSegment{globstar: true})
			continue
		}
		toks, err := compileSegment(pattern, part)
		if err != nil {
			return nil, err
		}
		segs = append(segs, globSegment{toks: toks})
	}
	return segs, nil
}

func compileSegment(pattern, seg string) ([]globToken, *Error) {
	toks := make([]globToken, 0, len(seg))
	for i := 0; i < len(seg); {
		switch seg[i] {
		case '*':
			if len(toks) == 0 || toks[len(toks)-1].kind != tokStar {
				toks = append(toks, globToken{kind: tokStar})
			}
			i++
		case '?':
			toks = append(toks, globToken{kind: tokAnyOne})
			i++
		case '[':
			end := bracketEnd(seg, i)
			if end < 0 { // the brace parser already checked every '['
				return nil, Errorf(CodeInvalidArgument, "glob pattern %s has an unclosed '['", quoteClipped(pattern))
			}
			class, err := compileClass(pattern, seg[i+1:end-1])
			if err != nil {
				return nil, err
			}
			toks = append(toks, globToken{kind: tokClass, class: class})
			i = end
		default:
			r, size := utf8.DecodeRuneInString(seg[i:])
			toks = append(toks, globToken{kind: tokLiteral, r: r})
			i += size
		}
	}
	return toks, nil
}

// compileClass reads the inside of a bracket expression (without its
// brackets): members and lo-hi ranges; a '-' first or last is a member.
func compileClass(pattern, body string) (*globClass, *Error) {
	c := &globClass{}
	if body != "" && (body[0] == '!' || body[0] == '^') {
		c.negate = true
		body = body[1:]
	}
	rs := []rune(body)
	for k := 0; k < len(rs); k++ {
		lo := rs[k]
		if k+2 < len(rs) && rs[k+1] == '-' {
			hi := rs[k+2]
			if hi < lo {
				return nil, Errorf(CodeInvalidArgument, "glob pattern %s has the range %s, whose end comes before its start", quoteClipped(pattern), strconv.Quote(string([]rune{lo, '-', hi})))
			}
			c.ranges = append(c.ranges, [2]rune{lo, hi})
			k += 2
			continue
		}
		c.ranges = append(c.ranges, [2]rune{lo, lo})
	}
	return c, nil
}

// Match reports whether a '/'-separated path matches the pattern.
func (g *Glob) Match(path string) bool {
	return g.matchSegments(splitSegments(path))
}

// splitSegments turns a path into its '/'-separated segments as runes.
func splitSegments(path string) [][]rune {
	rs := []rune(path)
	segs := make([][]rune, 0, strings.Count(path, "/")+1)
	start := 0
	for k, r := range rs {
		if r == '/' {
			segs = append(segs, rs[start:k:k])
			start = k + 1
		}
	}
	return append(segs, rs[start:])
}

// matchSegments runs the reachability table: reach[j] says the pattern
// segments consumed so far can match exactly path segments [0, j). Each
// (pattern segment, path segment) pair is tried at most once.
func (g *Glob) matchSegments(path [][]rune) bool {
	n := len(path)
	reach := make([]bool, n+1)
	next := make([]bool, n+1)
	for _, segs := range g.alts {
		clear(reach)
		reach[0] = true
		for _, seg := range segs {
			clear(next)
			alive := false
			if seg.globstar {
				for j := 0; j <= n; j++ {
					alive = alive || reach[j]
					next[j] = alive
				}
			} else {
				for j := 0; j < n; j++ {
					if reach[j] && seg.match(path[j]) {
						next[j+1] = true
						alive = true
					}
				}
			}
			reach, next = next, reach
			if !alive {
				break
			}
		}
		if reach[n] {
			return true
		}
	}
	return false
}

// match runs the tokens against one path segment. Every token but * takes
// exactly one rune, so on a mismatch only the most recent star needs to
// take one more rune: the classic linear-space, O(tokens × name) algorithm.
func (s globSegment) match(name []rune) bool {
	toks := s.toks
	t, k := 0, 0
	starTok, starName := -1, 0
	for k < len(name) {
		switch {
		case t < len(toks) && toks[t].kind == tokStar:
			starTok, starName = t, k
			t++
		case t < len(toks) && toks[t].matches(name[k]):
			t++
			k++
		case starTok >= 0:
			starName++
			t, k = starTok+1, starName
		default:
			return false
		}
	}
	for t < len(toks) && toks[t].kind == tokStar {
		t++
	}
	return t == len(toks)
}
