package core

import (
	"sort"
	"strings"

	"github.com/tidwall/gjson"
)

// The lines a diagnostics delta reads (diagnosticsDelta, matchProblems).
//
// Problems are compared through the edit script of the two texts' lines:
// its hunks, the runs of changed lines. Every line outside them maps to
// itself, shifted by what the hunks above it added or removed, and its
// text is never read. So a host need not send both whole texts of a file
// — a 2,000-line file's two texts were 130 kB that the module spent
// 11–16 ms reading — but only the hunks and where they are
// (ChangedLines, the input's "lines"), without the unchanged lines
// between them: a rename that changes 22 lines scattered over such a file
// sent, as one span from the first changed line to the last, nearly both
// texts again, and the module re-diffed them. The hunks are the edit
// script itself (each a pure replacement), never diffed again. Both whole
// texts are still accepted and give the same answer: they are cut to the
// same hunks first.

// ChangedLines is what changed between two texts, as lines (SplitLines'
// lines): the texts have BeforeCount and AfterCount lines, and Hunks are
// the runs of changed lines of their line diff, in order; every line
// outside them is unchanged. LinesChanged makes it; a host sends it to
// diagnosticsDelta as a file's "lines".
type ChangedLines struct {
	BeforeCount int        `json:"beforeCount"`
	AfterCount  int        `json:"afterCount"`
	Hunks       []LineHunk `json:"hunks"`
}

// LineHunk is a run of changed lines: the text before's lines [First,
// First+len(Before)) became the lines After. First is a line of the text
// before (zero-based); in the text after, the hunk starts at First plus
// what the hunks before it added (the sum of their len(After) -
// len(Before)).
type LineHunk struct {
	First  int      `json:"first"`
	Before []string `json:"before"`
	After  []string `json:"after"`
}

// LinesChanged is the ChangedLines from before to after: one hunk per run
// of changed lines of the edit script UnifiedDiff uses (ChangedSpans),
// none when the texts' lines are equal. Pure Go (a host calls it natively
// to send the delta only these lines).
func LinesChanged(before, after string) ChangedLines {
	b, a := SplitLines(before), SplitLines(after)
	c := ChangedLines{BeforeCount: len(b), AfterCount: len(a), Hunks: []LineHunk{}}
	for _, h := range lineHunks(b, a) {
		if h = minimalHunk(h); len(h.Before) > 0 || len(h.After) > 0 {
			c.Hunks = append(c.Hunks, h)
		}
	}
	return c
}

// minimalHunk is h without the equal lines at its two ends (a host's
// hunks may include some): they are unchanged lines, mapped as such.
func minimalHunk(h LineHunk) LineHunk {
	p, s := commonEnds(h.Before, h.After)
	h.First += p
	h.Before, h.After = h.Before[p:len(h.Before)-s], h.After[p:len(h.After)-s]
	return h
}

// changeLines is a ChangedLines read from an input, its hunks minimal and
// placed in both texts: the edit script the delta maps lines through.
type changeLines struct {
	beforeCount, afterCount int
	hunks                   []placedHunk
}

// placedHunk is a hunk in both texts: before lines [bStart, bEnd) became
// after lines [aStart, aEnd).
type placedHunk struct {
	bStart, bEnd, aStart, aEnd int
	before, after              []string
}

// placed places c's hunks (minimal, in order, within the counts) in the
// text after.
func placed(c ChangedLines) changeLines {
	cl := changeLines{beforeCount: c.BeforeCount, afterCount: c.AfterCount, hunks: make([]placedHunk, len(c.Hunks))}
	shift := 0 // what the hunks so far added
	for k, h := range c.Hunks {
		cl.hunks[k] = placedHunk{
			bStart: h.First, bEnd: h.First + len(h.Before),
			aStart: h.First + shift, aEnd: h.First + shift + len(h.After),
			before: h.Before, after: h.After,
		}
		shift += len(h.After) - len(h.Before)
	}
	return cl
}

// unchanged is a text compared with itself (a dependent of a change):
// every line maps to itself, none is read.
var unchanged = changeLines{}

// hunkBefore is the hunk holding before line line (inside), or else the
// number of hunks wholly above it (k). A hunk that only adds lines holds
// none: the lines it adds come before line First.
func (c changeLines) hunkBefore(line uint32) (k int, inside bool) {
	k = sort.Search(len(c.hunks), func(i int) bool { return int64(c.hunks[i].bEnd) > int64(line) })
	return k, k < len(c.hunks) && int64(c.hunks[k].bStart) <= int64(line)
}

// mapLine maps a before line to its after line; ok is false for a changed
// line. A line outside the hunks moves by what the hunks above it added,
// also a line past the text's end (a server may place a problem at the
// end of the last line).
func (c changeLines) mapLine(line uint32) (uint32, bool) {
	k, inside := c.hunkBefore(line)
	if inside {
		return 0, false
	}
	t := int64(line)
	if k > 0 {
		t += int64(c.hunks[k-1].aEnd) - int64(c.hunks[k-1].bEnd)
	}
	if t < 0 || t > int64(^uint32(0)) {
		return 0, false
	}
	return uint32(t), true
}

// counterparts are the after lines a changed before line may have become:
// the line as far from its hunk's start, and the line as far from its
// hunk's end (the two differ when the edit added or removed lines in the
// hunk), those inside the hunk's after lines.
func (c changeLines) counterparts(line uint32) (a, b int64, ok bool) {
	k, inside := c.hunkBefore(line)
	if !inside {
		return 0, 0, false
	}
	h := c.hunks[k]
	a, b = -1, -1
	if t := int64(h.aStart) + int64(line) - int64(h.bStart); t < int64(h.aEnd) {
		a = t
	}
	if t := int64(h.aEnd) - (int64(h.bEnd) - int64(line)); t >= int64(h.aStart) {
		b = t
	}
	return a, b, a >= 0 || b >= 0
}

// beforeLine and afterLine are the trimmed text of a changed line of the
// text before or after (a hunk's line); ok is false for a line the change
// left as it was, between hunks or around them.
func (c changeLines) beforeLine(line uint32) (string, bool) {
	k, inside := c.hunkBefore(line)
	if !inside {
		return "", false
	}
	h := c.hunks[k]
	return strings.TrimSpace(h.before[int(line)-h.bStart]), true
}

func (c changeLines) afterLine(line uint32) (string, bool) {
	k := sort.Search(len(c.hunks), func(i int) bool { return int64(c.hunks[i].aEnd) > int64(line) })
	if k == len(c.hunks) || int64(c.hunks[k].aStart) > int64(line) {
		return "", false
	}
	h := c.hunks[k]
	return strings.TrimSpace(h.after[int(line)-h.aStart]), true
}

// readChangeLines reads a file's lines: "lines" (ChangedLines) or the two
// whole texts, "beforeText" and "afterText".
func readChangeLines(lines, beforeText, afterText gjson.Result, where at) (changeLines, *Error) {
	if lines.Exists() {
		if beforeText.Exists() || afterText.Exists() {
			return changeLines{}, Errorf(CodeInvalidArgument, "%s takes lines or beforeText and afterText, not both", where)
		}
		return readLinesArg(lines, where.field("lines"))
	}
	var texts [2]string
	for k, v := range []gjson.Result{beforeText, afterText} {
		if v.Type != gjson.String {
			name, when := "beforeText", "before"
			if k == 1 {
				name, when = "afterText", "after"
			}
			return changeLines{}, Errorf(CodeInvalidArgument, "%s must be the file's text %s the edit, got %s (or send, instead of both texts, lines: %s)", where.field(name), when, describe(v), linesShape)
		}
		texts[k] = v.Str
	}
	return placed(LinesChanged(texts[0], texts[1])), nil // minimal as made
}

const (
	linesShape = "{beforeCount, afterCount, hunks: " + hunksShape + "} (core.LinesChanged)"
	hunksShape = "[{first, before: [line], after: [line]}]"
)

func readLinesArg(v gjson.Result, where string) (changeLines, *Error) {
	if !v.IsObject() {
		return changeLines{}, Errorf(CodeInvalidArgument, "%s must be an object %s, got %s", where, linesShape, describe(v))
	}
	f := fields(v, "beforeCount", "afterCount", "hunks")
	var c ChangedLines
	for i, n := range []*int{&c.BeforeCount, &c.AfterCount} {
		k, ok := integer(f[i], 0, maxSafeInteger)
		if !ok {
			return changeLines{}, Errorf(CodeInvalidArgument, "%s.%s must be a line count (an integer from 0), got %s", where, []string{"beforeCount", "afterCount"}[i], describe(f[i]))
		}
		*n = int(k)
	}
	if !f[2].IsArray() {
		return changeLines{}, Errorf(CodeInvalidArgument, "%s.hunks must be an array of the runs of changed lines %s, in order (none when nothing changed), got %s", where, hunksShape, describe(f[2]))
	}
	var bad *Error
	end, added := 0, 0 // where the last hunk ends in the text before; what the hunks add
	f[2].ForEach(func(_, hv gjson.Result) bool {
		w := at{where + ".hunks", len(c.Hunks)}
		var h LineHunk
		if h, bad = readHunk(hv, w); bad != nil {
			return false
		}
		switch {
		case h.First < end:
			bad = Errorf(CodeInvalidArgument, "%s starts at line %d, before the end of the hunk above it (line %d): hunks must be in order and not overlap; send core.LinesChanged(before, after)", w, h.First, end)
		case h.First+len(h.Before) > c.BeforeCount:
			bad = Errorf(CodeInvalidArgument, "%s ends at line %d, past beforeCount %d: a hunk's before lines are lines of the text before; send core.LinesChanged(before, after)", w, h.First+len(h.Before), c.BeforeCount)
		}
		if bad != nil {
			return false
		}
		end, added = h.First+len(h.Before), added+len(h.After)-len(h.Before)
		c.Hunks = append(c.Hunks, h)
		return true
	})
	if bad != nil {
		return changeLines{}, bad
	}
	if c.BeforeCount+added != c.AfterCount {
		return changeLines{}, Errorf(CodeInvalidArgument, "%s does not add up: beforeCount %d and what the hunks add (%d: their after lines less their before lines) must make afterCount %d; send core.LinesChanged(before, after)", where, c.BeforeCount, added, c.AfterCount)
	}
	minimal := c.Hunks[:0]
	for _, h := range c.Hunks {
		if h = minimalHunk(h); len(h.Before) > 0 || len(h.After) > 0 {
			minimal = append(minimal, h)
		}
	}
	c.Hunks = minimal
	return placed(c), nil
}

// readHunk reads one of lines.hunks: {first, before, after}.
func readHunk(v gjson.Result, where at) (LineHunk, *Error) {
	if !v.IsObject() {
		return LineHunk{}, Errorf(CodeInvalidArgument, "%s must be an object {first, before: [line], after: [line]}, a run of changed lines, got %s", where, describe(v))
	}
	f := fields(v, "first", "before", "after")
	var h LineHunk
	first, ok := integer(f[0], 0, maxSafeInteger)
	if !ok {
		return LineHunk{}, Errorf(CodeInvalidArgument, "%s must be a line of the text before (an integer from 0), got %s", where.field("first"), describe(f[0]))
	}
	h.First = int(first)
	for i, dst := range []*[]string{&h.Before, &h.After} {
		name := []string{"before", "after"}[i]
		if !f[1+i].IsArray() {
			return LineHunk{}, Errorf(CodeInvalidArgument, "%s must be an array of the changed lines' texts, got %s", where.field(name), describe(f[1+i]))
		}
		var bad *Error
		f[1+i].ForEach(func(_, l gjson.Result) bool {
			if l.Type != gjson.String {
				bad = Errorf(CodeInvalidArgument, "%s must hold strings (lines without their ends), got %s", where.field(name), describe(l))
				return false
			}
			*dst = append(*dst, l.Str)
			return true
		})
		if bad != nil {
			return LineHunk{}, bad
		}
	}
	return h, nil
}
