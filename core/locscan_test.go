package core

import (
	"reflect"
	"slices"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/lspseam/lspseam/internal/casefile"
)

// The fast path must take the answers servers send; if it stopped taking
// them, nothing would fail but the module would be slow again.
func TestScanLocationsTakesTheCommonShape(t *testing.T) {
	for _, raw := range []string{
		gjson.GetBytes(casefile.ReferencesPayload(50), "result").Raw,
		`[]`,
		` [ { "uri" : "file:///a.go" , "range" : { "start" : { "line" : 0 , "character" : 4294967295 } , "end" : { "character" : 2, "line" : 1 } } } ] `,
		`[{"targetUri":"file:///a.go","targetRange":{"start":{"line":0,"character":0},"end":{"line":9,"character":1}},"targetSelectionRange":{"start":{"line":1,"character":2},"end":{"line":1,"character":5}},"originSelectionRange":null}]`,
	} {
		if _, ok := scanLocations(raw, true); !ok {
			t.Errorf("scanLocations(%s, links) fell back", raw)
		}
	}
}

var scanSeeds = []string{
	`[]`,
	`[{"uri":"file:///a.go","range":{"start":{"line":1,"character":2},"end":{"line":3,"character":4}}}]`,
	`[{"uri":"file:///a.go","uri":"file:///b.go","range":{"start":{"line":1,"character":2},"end":{"line":3,"character":4}},"range":5}]`,
	`[{"uri":"file:///a.go","range":{"start":{"line":1,"character":2,"line":7},"end":{"line":3,"character":4},"x":[1,{"y":"]}"}]}}]`,
	`[{"uri":"file:///a\u0020.go","range":{"start":{"line":1,"character":2},"end":{"line":3,"character":4}}}]`,
	`[{"uri":"file:///a.go","range":{"start":{"line":1.0,"character":2},"end":{"line":3,"character":4e0}}}]`,
	`[{"uri":"file:///a.go","range":{"start":{"line":-0,"character":2},"end":{"line":3,"character":4}}}]`,
	`[{"uri":"file:///a.go","range":{"start":{"line":4294967296,"character":2},"end":{"line":3,"character":4}}}]`,
	`[{"uri":"","range":{"start":{"line":1,"character":2},"end":{"line":3,"character":4}}}]`,
	`[{"uri":"file:///a.go","targetUri":"file:///b.go","range":{"start":{"line":1,"character":2},"end":{"line":3,"character":4}},"targetSelectionRange":{"start":{"line":5,"character":6},"end":{"line":7,"character":8}}}]`,
	`[{"uri":5,"targetUri":"file:///b.go","targetSelectionRange":{"start":{"line":5,"character":6},"end":{"line":7,"character":8}}}]`,
	`[{"targetUri":"file:///b.go"}]`,
	`[{"u\u0072i":"file:///a.go","range":{"start":{"line":1,"character":2},"end":{"line":3,"character":4}}}]`,
	`[null]`,
	`[{"uri":"file:///a.go","range":{"start":{"line":1},"end":{"line":3,"character":4}}}]`,
	`{"uri":"file:///a.go","range":{"start":{"line":1,"character":2},"end":{"line":3,"character":4}}}`,
}

// FuzzScanLocations checks the fast path against the general one: whatever
// scanLocations takes, the general path reads as the same locations.
func FuzzScanLocations(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add(s)
	}
	f.Add(gjson.GetBytes(casefile.ReferencesPayload(5), "result").Raw)
	f.Fuzz(func(t *testing.T, raw string) {
		if !gjson.Valid(raw) {
			return
		}
		v := gjson.Parse(raw)
		if !v.IsArray() {
			if _, ok := scanLocations(raw, true); ok {
				t.Fatalf("scanLocations took a non-array: %s", raw)
			}
			return
		}
		if fast, ok := scanLocations(raw, true); ok {
			general, problem := locationArray(v, "result", locationOrLink)
			if problem != "" || !slices.Equal(fast, general) {
				t.Fatalf("translate: fast %v, general %v %q for %s", fast, general, problem, raw)
			}
		}
		if fast, ok := scanLocations(raw, false); ok {
			general, problem := locationArray(v, "locations", seamLocation)
			if problem != "" || !slices.Equal(fast, general) {
				t.Fatalf("render: fast %v, general %v %q for %s", fast, general, problem, raw)
			}
		}
	})
}

// FuzzScanSeamResult checks render's fast path against decodeResult's
// general one.
func FuzzScanSeamResult(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add(`{"kind":"locations","locations":` + s + `,"workspaceUri":"file:///w","subject":"x"}`)
	}
	f.Add(`{"kind":"locations","kind":"hover","locations":[],"locations":5,"incomplete":null}`)
	f.Add(`{"kind":"hover","hover":null}`)
	f.Add(`{"locations":[],"kind":"locations","subject":"s","incomplete":"i","x":{"kind":1}}`)
	f.Fuzz(func(t *testing.T, raw string) {
		if !gjson.Valid(raw) {
			return
		}
		fast, ok := scanSeamResult(raw)
		if !ok {
			return
		}
		v := gjson.Parse(raw)
		if !v.IsObject() {
			t.Fatalf("scanSeamResult took a non-object: %s", raw)
		}
		general, err := decodeResultMembers(v, func(detail string) (Result, *Error) {
			return Result{}, Errorf(CodeInvalidArgument, "%s", detail)
		})
		if err != nil || !reflect.DeepEqual(fast, general) {
			t.Fatalf("fast %+v, general %+v %v for %s", fast, general, err, raw)
		}
	})
}

func TestScanSeamResultTakesTheCommonShape(t *testing.T) {
	tr := Call("translate", casefile.ReferencesPayload(20))
	raw := `{"kind":"locations","locations":` + gjson.GetBytes(tr, "ok.locations").Raw + `,"workspaceUri":"file:///w","subject":"x"}`
	if _, ok := scanSeamResult(raw); !ok {
		t.Errorf("scanSeamResult fell back on %s", raw)
	}
}
