package core

import (
	"fmt"
	"math/rand"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// applyUnifiedDiff applies a diff written by UnifiedDiff to old, checking
// the hunk headers, context lines and counts as patch would.
func applyUnifiedDiff(old, diff string) (string, int, int, error) {
	if diff == "" {
		return old, 0, 0, nil
	}
	a := splitDiffLines(old)
	lines := strings.SplitAfter(diff, "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "--- ") || !strings.HasPrefix(lines[1], "+++ ") {
		return "", 0, 0, fmt.Errorf("no headers: %q", diff)
	}
	var out []string
	ai, added, removed := 0, 0, 0
	i := 2
	parseSide := func(s string) (int, int, error) {
		start, count, found := strings.Cut(s, ",")
		n, err := strconv.Atoi(start)
		if err != nil {
			return 0, 0, err
		}
		c := 1
		if found {
			if c, err = strconv.Atoi(count); err != nil {
				return 0, 0, err
			}
		}
		if c > 0 {
			n--
		}
		return n, c, nil
	}
	for i < len(lines) && lines[i] != "" {
		h := lines[i]
		var oldSide, newSide string
		if _, err := fmt.Sscanf(h, "@@ -%s +%s @@\n", &oldSide, &newSide); err != nil {
			return "", 0, 0, fmt.Errorf("bad hunk header %q", h)
		}
		os, oc, err1 := parseSide(oldSide)
		ns, nc, err2 := parseSide(newSide)
		if err1 != nil || err2 != nil || os < ai {
			return "", 0, 0, fmt.Errorf("bad hunk header %q", h)
		}
		out = append(out, a[ai:os]...)
		ai = os
		if len(out) != ns {
			return "", 0, 0, fmt.Errorf("hunk %q starts at new line %d, have %d", h, ns, len(out))
		}
		i++
		seenOld, seenNew := 0, 0
		for i < len(lines) && lines[i] != "" && !strings.HasPrefix(lines[i], "@@") {
			l := lines[i]
			i++
			body := l[1:]
			if i < len(lines) && strings.HasPrefix(lines[i], "\\ No newline at end of file") {
				body = strings.TrimSuffix(body, "\n")
				i++
			}
			switch l[0] {
			case ' ', '-':
				if ai >= len(a) || a[ai] != body {
					return "", 0, 0, fmt.Errorf("line %d of the old text is not %q", ai+1, body)
				}
				ai++
				seenOld++
				if l[0] == ' ' {
					out = append(out, body)
					seenNew++
				} else {
					removed++
				}
			case '+':
				out = append(out, body)
				seenNew++
				added++
			default:
				return "", 0, 0, fmt.Errorf("bad line %q", l)
			}
		}
		if seenOld != oc || seenNew != nc {
			return "", 0, 0, fmt.Errorf("hunk %q has %d old and %d new lines", h, seenOld, seenNew)
		}
	}
	out = append(out, a[ai:]...)
	return strings.Join(out, ""), added, removed, nil
}

func TestUnifiedDiff(t *testing.T) {
	for _, c := range []struct {
		name, old, new string
		context        int
		want           string
	}{
		{"equal", "a\n", "a\n", 3, ""},
		{"one line", "a\nb\nc\n", "a\nB\nc\n", 3, "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"no context", "a\nb\nc\n", "a\nB\nc\n", 0, "--- a/f\n+++ b/f\n@@ -2 +2 @@\n-b\n+B\n"},
		{"insert, no context", "a\nc\n", "a\nb\nc\n", 0, "--- a/f\n+++ b/f\n@@ -1,0 +2 @@\n+b\n"},
		{"create", "", "x\ny\n", 3, "--- a/f\n+++ b/f\n@@ -0,0 +1,2 @@\n+x\n+y\n"},
		{"delete all", "x\n", "", 3, "--- a/f\n+++ b/f\n@@ -1 +0,0 @@\n-x\n"},
		{"newline added at end", "a\nb", "a\nb\n", 3, "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
		{"crlf kept", "a\r\nb\r\n", "a\r\nc\r\n", 3, "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n"},
		{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "x\n2\n3\n4\n5\n6\n7\n8\ny\n", 1,
			"--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n-1\n+x\n 2\n@@ -8,2 +8,2 @@\n 8\n-9\n+y\n"},
		{"merged hunks", "1\n2\n3\n4\n", "x\n2\n3\ny\n", 1, "--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n-1\n+x\n 2\n 3\n-4\n+y\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, added, removed := UnifiedDiff("a/f", "b/f", c.old, c.new, c.context)
			if got != c.want {
				t.Fatalf("got\n%s\nwant\n%s", got, c.want)
			}
			back, a, r, err := applyUnifiedDiff(c.old, got)
			if err != nil || back != c.new || a != added || r != removed {
				t.Fatalf("applying the diff: %q %d %d %v", back, a, r, err)
			}
		})
	}
}

// TestUnifiedDiffRandom: random line edits give diffs that apply back,
// are minimal for single changes, and fall back past the search bound.
func TestUnifiedDiffRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(13))
	words := []string{"a\n", "b\n", "c\n", "d\r\n", "e", "\n", "ä\n"}
	text := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(words[rng.Intn(len(words))])
		}
		return b.String()
	}
	for i := range 2000 {
		old, new := text(rng.Intn(30)), text(rng.Intn(30))
		if rng.Intn(2) == 0 {
			new = old[:rng.Intn(len(old)+1)] + text(rng.Intn(3)) + old[rng.Intn(len(old)+1):]
		}
		diff, added, removed := UnifiedDiff("a/f", "b/f", old, new, rng.Intn(4))
		back, a, r, err := applyUnifiedDiff(old, diff)
		if err != nil || back != new || a != added || r != removed {
			t.Fatalf("case %d: %q → %q: diff %q applies to %q (%d %d, want %d %d) %v", i, old, new, diff, back, a, r, added, removed, err)
		}
		// A shortest script: removed+added is at most what the LCS allows.
		if lcs := lcsLen(splitDiffLines(old), splitDiffLines(new)); added+removed != len(splitDiffLines(old))+len(splitDiffLines(new))-2*lcs {
			t.Fatalf("case %d: not minimal: %d+%d, lcs %d", i, added, removed, lcs)
		}
	}
	// Beyond maxDiffEdits the middle is replaced whole, still correct.
	var a, b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&a, "%d\n", i)
		fmt.Fprintf(&b, "%d'\n", i)
	}
	diff, added, removed := UnifiedDiff("a/f", "b/f", a.String(), b.String(), 3)
	back, _, _, err := applyUnifiedDiff(a.String(), diff)
	if err != nil || back != b.String() || added != 3000 || removed != 3000 {
		t.Fatalf("large diff: %v %d %d", err, added, removed)
	}
}

// TestUnifiedDiffAnchored: past the search bound, lines occurring once
// in each text anchor the script, so a formatter's every-third-line change
// shows only those lines.
func TestUnifiedDiffAnchored(t *testing.T) {
	var a, b strings.Builder
	for i := range 6000 {
		fmt.Fprintf(&a, "line %d\n", i)
		if i%3 == 0 {
			fmt.Fprintf(&b, "LINE %d\n", i)
		} else {
			fmt.Fprintf(&b, "line %d\n", i)
		}
	}
	diff, added, removed := UnifiedDiff("a/f", "b/f", a.String(), b.String(), 1)
	back, _, _, err := applyUnifiedDiff(a.String(), diff)
	if err != nil || back != b.String() || added != 2000 || removed != 2000 {
		t.Fatalf("%v %d %d", err, added, removed)
	}
}

func lcsLen(a, b []string) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}

// ChangedSpans gives each hunk's before-lines, so two edits far apart
// touch only their own lines.
func TestChangedSpans(t *testing.T) {
	for _, tc := range []struct {
		name          string
		before, after string
		want          []ChangedSpan
	}{
		{"equal", "a\nb\n", "a\nb\n", nil},
		{"one line", "a\nb\nc\n", "a\nB\nc\n", []ChangedSpan{{1, 2}}},
		{"two far apart", "a\nb\nc\nd\ne\nf\n", "A\nb\nc\nd\ne\nF\n", []ChangedSpan{{0, 1}, {5, 6}}},
		{"insertion", "a\nb\n", "a\nx\nb\n", []ChangedSpan{{1, 1}}},
		{"deletion", "a\nb\nc\n", "a\nc\n", []ChangedSpan{{1, 2}}},
		{"appended", "a\n", "a\nb\n", []ChangedSpan{{1, 1}}},
		{"CR lines", "a\rb\rc", "a\rB\rc", []ChangedSpan{{1, 2}}},
		{"replaced and grown", "a\nb\nc\n", "a\nx\ny\nz\nc\n", []ChangedSpan{{1, 2}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ChangedSpans(SplitLines(tc.before), SplitLines(tc.after))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ChangedSpans = %v, want %v", got, tc.want)
			}
		})
	}
}
