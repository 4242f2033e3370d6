package core

import (
	"reflect"
	"testing"

	"github.com/tidwall/gjson"
)

// The fast path must take the outlines flattenSymbols gives; if it stopped
// taking them, nothing would fail but by-name answers would be slow again.
func TestScanOutlineTakesFlattenSymbolsAnswer(t *testing.T) {
	in := `{"symbols":[{"name":"Circle","kind":23,"range":{"start":{"line":2,"character":0},"end":{"line":2,"character":32}},"selectionRange":{"start":{"line":2,"character":5},"end":{"line":2,"character":11}},"children":[{"name":"R","kind":8,"range":{"start":{"line":2,"character":20},"end":{"line":2,"character":29}},"selectionRange":{"start":{"line":2,"character":20},"end":{"line":2,"character":21}}}]},{"name":"(*Circle).Area","kind":6,"range":{"start":{"line":4,"character":0},"end":{"line":4,"character":56}},"selectionRange":{"start":{"line":4,"character":17},"end":{"line":4,"character":21}}}],"text":"package geom\n\ntype Circle struct{ R float64 }\n\nfunc (c *Circle) Area() float64 { return 3 * c.R * c.R }\n"}`
	out := Call("flattenSymbols", []byte(in))
	entries := gjson.GetBytes(out, "ok.symbols")
	if len(entries.Array()) != 3 {
		t.Fatalf("flattenSymbols: %s", out)
	}
	fast, ok := scanOutline(entries.Raw)
	if !ok {
		t.Fatalf("scanOutline fell back on flattenSymbols' answer %s", entries.Raw)
	}
	general, err := decodeOutlineGeneral(entries, "outline")
	if err != nil || !reflect.DeepEqual(fast, general) {
		t.Fatalf("fast %+v, general %+v %v", fast, general, err)
	}
	if fast[2].Container != "Circle" || fast[2].Name != "Area" || fast[2].Kind != 6 {
		t.Errorf("the method entry: %+v", fast[2])
	}
}

var outlineSeeds = []string{
	`[]`,
	`[{"name":"Area","kind":6,"container":"Circle","range":{"start":{"line":4,"character":0},"end":{"line":4,"character":56}},"selectionRange":{"start":{"line":4,"character":17},"end":{"line":4,"character":21}}}]`,
	`[{"name":"A","name":"B","kind":6,"kind":"x","range":{"start":{"line":1,"character":2},"end":{"line":3,"character":4}},"selectionRange":{"start":{"line":1,"character":2},"end":{"line":3,"character":4}},"x":[1,{"y":"]}"}]}]`,
	`[{"name":"A","kind":0,"range":{"start":{"line":1,"character":2},"end":{"line":3,"character":4}},"selectionRange":{"start":{"line":1,"character":2},"end":{"line":3,"character":4}}}]`,
	`[{"name":"A","kind":2147483648,"range":{"start":{"line":1,"character":2},"end":{"line":3,"character":4}},"selectionRange":{"start":{"line":1,"character":2},"end":{"line":3,"character":4}}}]`,
	`[{"name":"A","kind":6,"container":null,"range":{"start":{"line":1,"character":2},"end":{"line":3,"character":4}},"selectionRange":{"start":{"line":1,"character":2},"end":{"line":3,"character":4}}}]`,
	`[{"name":"A\u0042","kind":6.0,"range":{"start":{"line":1,"character":2},"end":{"line":3,"character":4}},"selectionRange":{"start":{"line":1,"character":2},"end":{"line":3,"character":4}}}]`,
	`[{"name":"A","kind":6,"range":{"start":{"line":1,"character":2},"end":{"line":3,"character":4}}}]`,
	`[{"name":5,"kind":6,"range":{"start":{"line":1,"character":2},"end":{"line":3,"character":4}},"selectionRange":{"start":{"line":1,"character":2},"end":{"line":3,"character":4}}}]`,
	`[null]`,
	`{"name":"A"}`,
}

// FuzzScanOutline checks the fast path against the general one: whatever
// scanOutline takes, decodeOutlineGeneral reads as the same entries.
func FuzzScanOutline(f *testing.F) {
	for _, s := range outlineSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		fast, ok := scanOutline(raw)
		if !ok {
			return
		}
		if !gjson.Valid(raw) {
			t.Fatalf("scanOutline took invalid JSON: %s", raw)
		}
		general, err := decodeOutlineGeneral(gjson.Parse(raw), "outline")
		if err != nil || !reflect.DeepEqual(fast, general) {
			t.Fatalf("fast %+v, general %+v %v for %s", fast, general, err, raw)
		}
	})
}
