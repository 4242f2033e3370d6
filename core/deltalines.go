package core

import (
	"strings"

	"github.com/tidwall/gjson"
)

// The lines a diagnostics delta reads (diagnosticsDelta, matchProblems).
//
// Problems are compared through the lines a change touched: the lines
// from the first that differs to the last that does. Every other line
// maps to itself, shifted by what the change added or removed, and its
// text is never read. So a host need not send both whole texts of a file
// for a one-line edit — a 2,000-line file's two texts were 130 kB that
// the module spent 11–16 ms reading — but only the touched lines and
// where they are (ChangedLines, the input's "lines"). Both whole texts
// are still accepted and give the same answer: they are cut to the same
// lines first.

// ChangedLines is what changed between two texts, as lines (SplitLines'
// lines): the texts have BeforeCount and AfterCount lines, equal up to
// line First and from their last BeforeCount-First-len(Before) lines on,
// and Before and After are the lines in between. LinesChanged makes it;
// a host sends it to diagnosticsDelta as a file's "lines".
type ChangedLines struct {
	First       int      `json:"first"`
	BeforeCount int      `json:"beforeCount"`
	AfterCount  int      `json:"afterCount"`
	Before      []string `json:"before"`
	After       []string `json:"after"`
}

// LinesChanged is the ChangedLines from before to after: the lines
// between their common first and last lines. Pure and cheap (a host calls
// it natively to send the delta only these lines).
func LinesChanged(before, after string) ChangedLines {
	b, a := SplitLines(before), SplitLines(after)
	p, s := commonEnds(b, a)
	return ChangedLines{First: p, BeforeCount: len(b), AfterCount: len(a), Before: append([]string{}, b[p:len(b)-s]...), After: append([]string{}, a[p:len(a)-s]...)}
}

// changeLines is a ChangedLines read from an input and made minimal (a
// host's lines may include equal lines at either end).
type changeLines ChangedLines

func minimalLines(c ChangedLines) changeLines {
	p, s := commonEnds(c.Before, c.After)
	c.First += p
	c.Before, c.After = c.Before[p:len(c.Before)-s], c.After[p:len(c.After)-s]
	return changeLines(c)
}

// unchanged is a text compared with itself (a dependent of a change):
// every line maps to itself, none is read.
var unchanged = changeLines{}

// suffix is how many lines both texts end with unchanged.
func (c changeLines) suffix() int { return c.BeforeCount - c.First - len(c.Before) }

// beforeLine and afterLine are the trimmed text of a touched line of the
// text before or after; ok is false for a line the change did not touch.
func (c changeLines) beforeLine(line uint32) (string, bool) {
	return touchedLine(c.Before, c.First, line)
}

func (c changeLines) afterLine(line uint32) (string, bool) {
	return touchedLine(c.After, c.First, line)
}

func touchedLine(lines []string, first int, line uint32) (string, bool) {
	if i := int64(line) - int64(first); i >= 0 && i < int64(len(lines)) {
		return strings.TrimSpace(lines[i]), true
	}
	return "", false
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
	return changeLines(LinesChanged(texts[0], texts[1])), nil // minimal as made
}

const linesShape = "{first, beforeCount, afterCount, before: [line], after: [line]} (core.LinesChanged)"

func readLinesArg(v gjson.Result, where string) (changeLines, *Error) {
	if !v.IsObject() {
		return changeLines{}, Errorf(CodeInvalidArgument, "%s must be an object %s, got %s", where, linesShape, describe(v))
	}
	f := fields(v, "first", "beforeCount", "afterCount", "before", "after")
	var c ChangedLines
	for i, n := range []*int{&c.First, &c.BeforeCount, &c.AfterCount} {
		k, ok := integer(f[i], 0, maxSafeInteger)
		if !ok {
			return changeLines{}, Errorf(CodeInvalidArgument, "%s.%s must be a line count (an integer from 0), got %s", where, []string{"first", "beforeCount", "afterCount"}[i], describe(f[i]))
		}
		*n = int(k)
	}
	for i, dst := range []*[]string{&c.Before, &c.After} {
		name := []string{"before", "after"}[i]
		if !f[3+i].IsArray() {
			return changeLines{}, Errorf(CodeInvalidArgument, "%s.%s must be an array of the changed lines' texts, got %s", where, name, describe(f[3+i]))
		}
		var bad *Error
		f[3+i].ForEach(func(_, l gjson.Result) bool {
			if l.Type != gjson.String {
				bad = Errorf(CodeInvalidArgument, "%s.%s must hold strings (lines without their ends), got %s", where, name, describe(l))
				return false
			}
			*dst = append(*dst, l.Str)
			return true
		})
		if bad != nil {
			return changeLines{}, bad
		}
	}
	s := c.BeforeCount - c.First - len(c.Before)
	if s < 0 || c.AfterCount-c.First-len(c.After) != s {
		return changeLines{}, Errorf(CodeInvalidArgument, "%s does not add up: first %d + %d lines before + the unchanged end must be beforeCount %d, and first + %d lines after + the same end afterCount %d; send core.LinesChanged(before, after)", where, c.First, len(c.Before), c.BeforeCount, len(c.After), c.AfterCount)
	}
	return minimalLines(c), nil
}
