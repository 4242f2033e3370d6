package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestImpactPyrightFreshDependents: pyright, on files it has just opened,
// publishes a parse-only report (none) and their checked reports one file
// after another under its analysis progress; the last ones' empty reports
// stand for longer than its quiet time. Taken as the dependents' reports
// before a change, every problem they already had came out "introduced"
// (click: 20 errors in untouched tests/*.py after a rename). Here the
// callers of total_area each have a problem of their own, there before the
// edit, and enough code for pyright to take a while over each: an edit
// that changes nothing for them (a comment on total_area's line) must
// claim nothing introduced or resolved in them. Whether the old code
// failed it depends on the machine's speed (it reproduces when pyright
// takes over its quiet time to reach the last caller, and finds the
// callers within the references' budget): the fake-server tests
// (localstdio/progressreports_test.go) are the deterministic ones.
func TestImpactPyrightFreshDependents(t *testing.T) {
	requireServers(t, "pyright-langserver")
	dir := copyFixture(t, "py")
	const callers = 12
	for i := range callers {
		rel := fmt.Sprintf("shapes/caller_%02d.py", i)
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(callerText(i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := catalogServe(t)
	defer srv.shutdown(t)
	const file = "shapes/base.py"
	if a := srv.toolCall(t, "read", jsonArgs(map[string]any{"file_path": file}), dir); a.IsError {
		t.Fatalf("read: %s", a.StructuredContent)
	}
	e := verifyEdit{"def total_area(shapes: Iterable[Shape]) -> float:", "def total_area(shapes: Iterable[Shape]) -> float:  # the sum"}
	start := time.Now()
	a := srv.toolCall(t, "edit", editArgs(file, e, false), dir)
	t.Logf("edit (%v):\n%s", time.Since(start).Round(time.Millisecond), a.Content[0].Text)
	o := othersOf(t, "edit", a)
	if o.Counts.Introduced != 0 || o.Counts.Resolved != 0 || len(o.WithIntroduced) != 0 {
		t.Errorf("%d introduced, %d resolved in other files (with new problems: %v); want none: every caller's problem was there before", o.Counts.Introduced, o.Counts.Resolved, o.WithIntroduced)
	}
	// Whether a caller was compared, stale or not checked depends on how
	// fast pyright checks them (and finds them: the references are
	// bounded in time); what must hold whatever the timing is above.
	for _, f := range o.Files {
		if len(f.Introduced) > 0 || len(f.Resolved) > 0 {
			t.Errorf("%s: %d introduced, %d resolved; want none", f.Path, len(f.Introduced), len(f.Resolved))
		}
	}
}

// callerText is a caller of total_area with a problem of its own
// (reportReturnType) and a few hundred lines pyright checks.
func callerText(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\"\"\"Caller %d.\"\"\"\n\nfrom shapes.base import Shape, total_area\n\n\n", i)
	fmt.Fprintf(&b, "def caller_%d(shapes: list[Shape]) -> float:\n    return total_area(shapes)\n\n\n", i)
	fmt.Fprintf(&b, "def broken_%d() -> int:\n    return \"not an int\"  # there before any change\n\n\n", i)
	for j := range 60 {
		fmt.Fprintf(&b, "def work_%d(xs: list[int], ys: dict[str, float]) -> tuple[int, float]:\n", j)
		b.WriteString("    total = sum(x * 2 for x in xs if x % 3)\n")
		b.WriteString("    scaled = {k: v * total for k, v in ys.items() if v > 0}\n")
		b.WriteString("    best = max(scaled.values(), default=0.0)\n")
		b.WriteString("    pairs = [(k, round(v, 2)) for k, v in sorted(scaled.items(), key=lambda kv: kv[1])]\n")
		b.WriteString("    return total + len(pairs), best\n\n\n")
	}
	return b.String()
}
