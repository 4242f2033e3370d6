package toolbox

import "testing"

func TestChangeDifference(t *testing.T) {
	a := plannedFile{rel: "a.go", before: "A", after: "A2", edits: 1}
	b := plannedFile{rel: "b.go", before: "B", after: "B2", edits: 1}
	c := plannedFile{rel: "c.go", before: "C", after: "C2", edits: 1}
	for _, tc := range []struct {
		name      string
		then, now []plannedFile
		want      string
	}{
		{"same", []plannedFile{a, b}, []plannedFile{a, b}, ""},
		{"same in another order", []plannedFile{a, b}, []plannedFile{b, a}, ""},
		{"same texts, edits counted otherwise", []plannedFile{a}, []plannedFile{{rel: "a.go", before: "A", after: "A2", edits: 3}}, ""},
		{"a file more", []plannedFile{a, b}, []plannedFile{a, b, c}, "it now changes c.go too"},
		{"a file less", []plannedFile{a, b}, []plannedFile{a}, "it no longer changes b.go"},
		{"another text", []plannedFile{a, b}, []plannedFile{a, {rel: "b.go", before: "B", after: "B3"}}, "it changes b.go otherwise"},
		{"created now", []plannedFile{a}, []plannedFile{{rel: "a.go", after: "A2", created: true}}, "it changes a.go otherwise"},
		{"all three", []plannedFile{a, b}, []plannedFile{{rel: "a.go", after: "X"}, c}, "it now changes c.go too, it no longer changes b.go and it changes a.go otherwise"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := changeDifference(tc.then, tc.now); got != tc.want {
				t.Errorf("changeDifference = %q, want %q", got, tc.want)
			}
			if same := changeDigest(tc.then) == changeDigest(tc.now); same != (tc.want == "") {
				t.Errorf("digests equal = %v, want %v", same, tc.want == "")
			}
		})
	}
}
