package toolbox

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// TestOtherBreaks: the other files a change broke are remembered by the
// changed file, until a check finds them with no problem; files not
// checked, or with problems that persist, stay; a deleted one is not
// offered.
func TestOtherBreaks(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.go", "b.go", "c.go", "d.go", "gone.go"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("package p\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := openTestRoot(t, dir)
	delta := func(files string) []byte { return []byte(`{"files":[],"others":{"files":[` + files + `]}}`) }
	dep := func(path string, introduced, persisting int) string {
		return `{"path":"` + path + `","introducedTotal":` + strconv.Itoa(introduced) + `,"persisting":` + strconv.Itoa(persisting) + `}`
	}
	var o otherBreaks
	steps := []struct {
		name    string
		changed []string
		delta   []byte
		want    map[string][]string // changed file → files offered
	}{
		{"a change of a.go breaks b.go and gone.go; c.go is fine", []string{"a.go"}, delta(dep("b.go", 2, 0) + `,` + dep("c.go", 0, 0) + `,` + dep("gone.go", 1, 0)),
			map[string][]string{"a.go": {"b.go", "gone.go"}, "d.go": nil}},
		{"a rename of a.go and d.go breaks c.go: remembered for both", []string{"a.go", "d.go"}, delta(dep("c.go", 1, 0)),
			map[string][]string{"a.go": {"b.go", "gone.go", "c.go"}, "d.go": {"c.go"}}},
		{"b.go's problems persist: it stays", []string{"a.go"}, delta(dep("b.go", 0, 2)),
			map[string][]string{"a.go": {"b.go", "gone.go", "c.go"}}},
		{"a delta without others changes nothing", []string{"a.go"}, []byte(`{"files":[]}`),
			map[string][]string{"a.go": {"b.go", "gone.go", "c.go"}}},
		{"the undo: b.go clean again, forgotten; c.go not checked, kept", []string{"a.go"}, delta(dep("b.go", 0, 0)),
			map[string][]string{"a.go": {"gone.go", "c.go"}, "d.go": {"c.go"}}},
		{"c.go clean after a change of d.go: forgotten for d.go only", []string{"d.go"}, delta(dep("c.go", 0, 0)),
			map[string][]string{"a.go": {"gone.go", "c.go"}, "d.go": nil}},
	}
	for _, s := range steps {
		o.note(r, s.changed, s.delta)
		for changed, want := range s.want {
			if got := o.of(r, []string{changed}); !slices.Equal(got, want) {
				t.Errorf("%s: %s offers %v, want %v", s.name, changed, got, want)
			}
		}
	}
	if err := os.Remove(filepath.Join(dir, "gone.go")); err != nil {
		t.Fatal(err)
	}
	if got := o.of(r, []string{"a.go", "d.go"}); !slices.Equal(got, []string{"c.go"}) {
		t.Errorf("after gone.go was deleted: %v, want [c.go]", got)
	}
}

// TestOtherBreaksBounded: past maxBrokenChanged changed files, the one
// noted longest ago is forgotten first.
func TestOtherBreaksBounded(t *testing.T) {
	if maxBrokenByFile != maxDependents {
		t.Errorf("maxBrokenByFile %d: remember as many files per changed file as one change checks (%d)", maxBrokenByFile, maxDependents)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "dep.go"), []byte("package p\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := openTestRoot(t, dir)
	var o otherBreaks
	broke := []byte(`{"others":{"files":[{"path":"dep.go","introducedTotal":1,"persisting":0}]}}`)
	for i := range maxBrokenChanged + 1 {
		o.note(r, []string{"f" + strconv.Itoa(i) + ".go"}, broke)
	}
	if got := o.of(r, []string{"f0.go"}); got != nil {
		t.Errorf("the oldest changed file is still remembered: %v", got)
	}
	if got := o.of(r, []string{"f1.go", strconv.Itoa(maxBrokenChanged) + ".go"}); !slices.Equal(got, []string{"dep.go"}) {
		t.Errorf("the newer ones: %v", got)
	}
	if len(o.broken) != maxBrokenChanged || len(o.order) != maxBrokenChanged {
		t.Errorf("%d remembered, %d in order; want %d", len(o.broken), len(o.order), maxBrokenChanged)
	}
}
