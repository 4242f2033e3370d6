package core

import (
	"strconv"
	"strings"
)

// A unified diff (as GNU diff -u and git write it), for previews of edits.
//
// Lines are split after each "\n" as diff and patch split them (a "\r\n"
// file's lines end in "\r\n"; a lone "\r" does not end a line here), and
// compared with their terminators, so a changed line ending is a changed
// line. A last line without a terminator is followed by "\ No newline at
// end of file". Hunks carry `context` unchanged lines on each side and
// merge when fewer than 2×context lines separate them; a side with one
// line omits its count, an empty side names the line before it
// ("@@ -3,0 +4,2 @@"). The edit script is a shortest one (Myers) over the
// lines between the common prefix and suffix; when that needs more than
// maxDiffEdits steps (or maxDiffWork comparisons), the script is anchored
// on lines occurring once in each text (patience diff) and the stretches
// between anchors are diffed the same way, and a stretch without anchors
// is shown as removed and added whole. Equal texts give "".

// maxDiffEdits bounds the Myers search depth (its trace is O(D²)).
const maxDiffEdits = 1000

// maxDiffWork bounds the line comparisons of the search.
const maxDiffWork = 20_000_000

// lineDiff is a line-level edit script between two texts.
type lineDiff struct {
	a, b []string // the texts' lines with their terminators
	ops  []byte   // '=', '-' (a line of a removed), '+' (a line of b added)
}

// splitDiffLines splits s after every "\n".
func splitDiffLines(s string) []string {
	lines := make([]string, 0, strings.Count(s, "\n")+1)
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

// diffLines computes the edit script from oldText to newText.
func diffLines(oldText, newText string) lineDiff {
	d := lineDiff{a: splitDiffLines(oldText), b: splitDiffLines(newText)}
	n, m := len(d.a), len(d.b)
	p, s := commonEnds(d.a, d.b)
	d.ops = make([]byte, 0, n+m-p-s)
	for range p {
		d.ops = append(d.ops, '=')
	}
	d.ops = diffMiddle(d.ops, d.a[p:n-s], d.b[p:m-s])
	for range s {
		d.ops = append(d.ops, '=')
	}
	return d
}

// diffMiddle appends an edit script from a to b: a shortest one when the
// search stays in bounds, else one anchored on the lines that occur once
// in each (patience diff) with the stretches between them diffed the same
// way, else a replacement of all of a by all of b.
func diffMiddle(ops []byte, a, b []string) []byte {
	p, s := commonEnds(a, b)
	for range p {
		ops = append(ops, '=')
	}
	a, b = a[p:len(a)-s], b[p:len(b)-s]
	if mid, ok := myers(a, b); ok {
		ops = append(ops, mid...)
	} else if anchors := uniqueAnchors(a, b); len(anchors) > 0 {
		i, j := 0, 0
		for _, an := range anchors {
			ops = diffMiddle(ops, a[i:an[0]], b[j:an[1]])
			ops = append(ops, '=')
			i, j = an[0]+1, an[1]+1
		}
		ops = diffMiddle(ops, a[i:], b[j:])
	} else {
		for range a {
			ops = append(ops, '-')
		}
		for range b {
			ops = append(ops, '+')
		}
	}
	for range s {
		ops = append(ops, '=')
	}
	return ops
}

// uniqueAnchors returns the longest increasing run of line pairs (i, j)
// with a[i] == b[j] occurring exactly once in a and once in b.
func uniqueAnchors(a, b []string) [][2]int {
	type count struct{ inA, inB, at int }
	seen := make(map[string]*count, len(a))
	for i, l := range a {
		if c := seen[l]; c != nil {
			c.inA++
		} else {
			seen[l] = &count{inA: 1, at: i}
		}
	}
	var pairs [][2]int // ordered by j
	for _, l := range b {
		if c := seen[l]; c != nil {
			c.inB++
		}
	}
	for j, l := range b {
		if c := seen[l]; c != nil && c.inA == 1 && c.inB == 1 {
			pairs = append(pairs, [2]int{c.at, j})
		}
	}
	// Longest increasing subsequence by i (patience sorting).
	var tops []int // index into pairs of each pile's top
	prev := make([]int, len(pairs))
	for k, pr := range pairs {
		lo, hi := 0, len(tops)
		for lo < hi {
			mid := (lo + hi) / 2
			if pairs[tops[mid]][0] < pr[0] {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		prev[k] = -1
		if lo > 0 {
			prev[k] = tops[lo-1]
		}
		if lo == len(tops) {
			tops = append(tops, k)
		} else {
			tops[lo] = k
		}
	}
	if len(tops) == 0 {
		return nil
	}
	out := make([][2]int, len(tops))
	for k, n := tops[len(tops)-1], len(tops)-1; k >= 0; k, n = prev[k], n-1 {
		out[n] = pairs[k]
	}
	return out
}

// myers returns a shortest edit script from a to b, deletions before
// insertions within a change; ok is false when it exceeds the bounds.
func myers(a, b []string) ([]byte, bool) {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		ops := make([]byte, 0, n+m)
		for range n {
			ops = append(ops, '-')
		}
		for range m {
			ops = append(ops, '+')
		}
		return ops, true
	}
	maxD := min(n+m, maxDiffEdits, maxDiffWork/(n+m))
	off := maxD + 1
	v := make([]int32, 2*maxD+3)
	var trace [][]int32 // trace[d][k+d] = furthest x on diagonal k after d steps
	for d := 0; d <= maxD; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = int(v[off+k+1])
			} else {
				x = int(v[off+k-1]) + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = int32(x)
			if x >= n && y >= m {
				trace = append(trace, append([]int32(nil), v[off-d:off+d+1]...))
				return myersPath(trace, n, m), true
			}
		}
		trace = append(trace, append([]int32(nil), v[off-d:off+d+1]...))
	}
	return nil, false
}

// myersPath walks the trace back from (n, m) and returns the script.
func myersPath(trace [][]int32, n, m int) []byte {
	rev := make([]byte, 0, n+m)
	x, y := n, m
	for d := len(trace) - 1; d > 0; d-- {
		prev := trace[d-1] // index k+(d-1)
		k := x - y
		var pk int
		if k == -d || (k != d && prev[k-1+d-1] < prev[k+1+d-1]) {
			pk = k + 1 // came down: an insertion
		} else {
			pk = k - 1 // came right: a deletion
		}
		px := int(prev[pk+d-1])
		py := px - pk
		for x > px && y > py {
			rev = append(rev, '=')
			x--
			y--
		}
		if x == px {
			rev = append(rev, '+')
		} else {
			rev = append(rev, '-')
		}
		x, y = px, py
	}
	for x > 0 {
		rev = append(rev, '=')
		x--
	}
	// Reverse, then put each change's deletions before its insertions.
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	for i := 0; i < len(rev); {
		if rev[i] == '=' {
			i++
			continue
		}
		j := i
		dels := 0
		for j < len(rev) && rev[j] != '=' {
			if rev[j] == '-' {
				dels++
			}
			j++
		}
		for k := i; k < j; k++ {
			if k-i < dels {
				rev[k] = '-'
			} else {
				rev[k] = '+'
			}
		}
		i = j
	}
	return rev
}

// counts returns the lines added and removed.
func (d lineDiff) counts() (added, removed int) {
	for _, op := range d.ops {
		switch op {
		case '+':
			added++
		case '-':
			removed++
		}
	}
	return added, removed
}

// UnifiedDiff returns the unified diff from oldText to newText under the
// header names oldName and newName ("a/PATH", "b/PATH", "/dev/null"), with
// context lines around each change (negative: 3), and the lines it adds
// and removes. Equal texts give "".
func UnifiedDiff(oldName, newName, oldText, newText string, context int) (diff string, added, removed int) {
	if oldText == newText {
		return "", 0, 0
	}
	d := diffLines(oldText, newText)
	added, removed = d.counts()
	return d.unified(oldName, newName, context), added, removed
}

func (d lineDiff) unified(oldName, newName string, context int) string {
	var sb strings.Builder
	sb.WriteString("--- " + oldName + "\n+++ " + newName + "\n")
	d.writeHunks(&sb, context, 0, 0)
	return sb.String()
}

// writeHunks writes d's hunks, numbering a's lines from aBase and b's from
// bBase (the lines before them, when d is the diff of a window: the diff
// of two texts is the diffs of their windows' texts, one after another).
func (d lineDiff) writeHunks(sb *strings.Builder, context, aBase, bBase int) {
	if context < 0 {
		context = 3
	}
	// aAt[i], bAt[i]: the lines of a and b before op i.
	aAt := make([]int, len(d.ops)+1)
	bAt := make([]int, len(d.ops)+1)
	for i, op := range d.ops {
		aAt[i+1], bAt[i+1] = aAt[i], bAt[i]
		if op != '+' {
			aAt[i+1]++
		}
		if op != '-' {
			bAt[i+1]++
		}
	}
	for i := 0; i < len(d.ops); {
		if d.ops[i] == '=' {
			i++
			continue
		}
		start := max(i-context, 0)
		last := i // the hunk's last change
		for j := i + 1; j < len(d.ops); j++ {
			if d.ops[j] == '=' {
				continue
			}
			if j-last-1 > 2*context {
				break
			}
			last = j
		}
		end := min(last+1+context, len(d.ops))
		d.writeHunk(sb, start, end, aAt, bAt, aBase, bBase)
		i = end
	}
}

func (d lineDiff) writeHunk(sb *strings.Builder, start, end int, aAt, bAt []int, aBase, bBase int) {
	side := func(from, to, base int) string {
		n := to - from
		from += base
		switch n {
		case 0:
			return strconv.Itoa(from) + ",0"
		case 1:
			return strconv.Itoa(from + 1)
		}
		return strconv.Itoa(from+1) + "," + strconv.Itoa(n)
	}
	sb.WriteString("@@ -" + side(aAt[start], aAt[end], aBase) + " +" + side(bAt[start], bAt[end], bBase) + " @@\n")
	for i := start; i < end; i++ {
		var line string
		switch d.ops[i] {
		case '+':
			line = d.b[bAt[i]]
		default:
			line = d.a[aAt[i]]
		}
		if d.ops[i] == '=' {
			sb.WriteByte(' ')
		} else {
			sb.WriteByte(d.ops[i])
		}
		sb.WriteString(line)
		if !strings.HasSuffix(line, "\n") {
			sb.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// diffName is a diff header name for a display path: prefix ("a/", "b/")
// and the path when it is relative, the path alone when it is absolute.
func diffName(prefix, path string) string {
	if strings.HasPrefix(path, "/") {
		return path
	}
	return prefix + path
}

// ChangedSpan is a span of zero-based lines [Start, End) of a text before a
// change; Start == End is a pure insertion before line Start.
type ChangedSpan struct{ Start, End int }

// commonEnds counts the lines before and after share at their start (p)
// and then, of what is left, at their end (s): the part a diff need not
// look at.
func commonEnds(before, after []string) (p, s int) {
	n, m := len(before), len(after)
	for p < n && p < m && before[p] == after[p] {
		p++
	}
	for s < n-p && s < m-p && before[n-1-s] == after[m-1-s] {
		s++
	}
	return p, s
}

// ChangedSpans is what a change from lines before to lines after (as
// SplitLines splits them: LSP's lines) replaced, hunk by hunk, with the
// edit script UnifiedDiff uses: the before-lines of each run of removed
// and added lines, in order. A host that must know which declarations a
// change touched (the Toolbox's dependents) asks it, so that two edits far
// apart in a file do not touch every declaration between them, as one
// span from the first changed line to the last would (changedLineRange).
// Equal lines give none.
func ChangedSpans(before, after []string) []ChangedSpan {
	var spans []ChangedSpan
	for _, h := range lineHunks(before, after) {
		spans = append(spans, ChangedSpan{h.First, h.First + len(h.Before)})
	}
	return spans
}

// lineHunks is the runs of removed and added lines of the edit script
// UnifiedDiff uses from lines before to lines after, in order, each
// holding its lines of both (slices of before and after); none for equal
// lines. ChangedSpans and LinesChanged are read from it.
func lineHunks(before, after []string) []LineHunk {
	n, m := len(before), len(after)
	p, s := commonEnds(before, after)
	if p == n && p == m {
		return nil
	}
	ops := diffMiddle(nil, before[p:n-s], after[p:m-s])
	var hunks []LineHunk
	i, j := p, p // the lines of before and after the script is at
	for k := 0; k < len(ops); {
		if ops[k] == '=' {
			i, j, k = i+1, j+1, k+1
			continue
		}
		h := LineHunk{First: i}
		j0 := j
		for ; k < len(ops) && ops[k] != '='; k++ {
			if ops[k] == '-' {
				i++
			} else {
				j++
			}
		}
		h.Before, h.After = before[h.First:i:i], after[j0:j:j]
		hunks = append(hunks, h)
	}
	return hunks
}
