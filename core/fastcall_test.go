package core

import (
	"bytes"
	"testing"

	"github.com/lspseam/lspseam/internal/casefile"
)

// generalCall is Call without its fast path.
func generalCall(method string, input []byte) []byte {
	v, err := parseInput(input)
	if err != nil {
		return errorEnvelope(err)
	}
	value, err := dispatch(method, v)
	return envelopeOf(value, err, len(input))
}

// fastMatchesGeneral fails unless the fast path's envelope for input,
// when it takes it, is the general path's byte for byte; it reports
// whether the fast path took it.
func fastMatchesGeneral(t testing.TB, method string, input []byte) bool {
	t.Helper()
	value, err, ok := fastCall(method, string(input))
	if !ok {
		return false
	}
	fast := envelopeOf(value, err, len(input))
	if general := generalCall(method, input); !bytes.Equal(fast, general) {
		t.Fatalf("%s %s:\nfast    %s\ngeneral %s", method, input, fast, general)
	}
	return true
}

func TestFastCallTakesTheBenchmarkInputs(t *testing.T) {
	payload := casefile.ReferencesPayload(30)
	if _, _, ok := fastCall("translate", string(payload)); !ok {
		t.Error("translate fell back")
	}
	tr := Call("translate", payload)
	in := `{"workspaceUri":"file:///work/project","maxLocations":100000,"maxResultChars":10000000,"result":` + string(tr[6:len(tr)-1]) + `}`
	if _, _, ok := fastCall("render", in); !ok {
		t.Error("render fell back")
	}
}

// FuzzFastCall checks that whatever fastCall answers, the general path
// answers with the same bytes.
func FuzzFastCall(f *testing.F) {
	cases, err := casefile.Load(casefile.Dir(".."))
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range cases {
		if c.Method == "translate" || c.Method == "render" {
			f.Add(c.Method == "render", c.Bytes())
		}
	}
	payload := casefile.ReferencesPayload(4)
	f.Add(false, payload)
	tr := Call("translate", payload)
	f.Add(true, []byte(`{"workspaceUri":"file:///work/project","maxLocations":2,"maxResultChars":100,"result":`+string(tr[6:len(tr)-1])+`}`))
	f.Add(true, []byte(`{"result":{"kind":"locations","locations":[],"subject":"x","incomplete":"y"},"workspaceUri":"file:///w","x":[1,{"a":"\u0041"}],"maxLocations":0}`))
	f.Add(true, []byte(`{"result":{"kind":"locations","locations":[{"uri":"file:///w/a","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}}]},"workspaceUri":"not a uri"}`))
	f.Add(false, []byte(`{"operation":"hover","result":[]}`))
	f.Add(false, []byte(`{"operation":"goToDefinition","result":[],"operation":"x","extra":[1,2,{"b":null}]} `))
	f.Fuzz(func(t *testing.T, render bool, input []byte) {
		method := "translate"
		if render {
			method = "render"
		}
		fastMatchesGeneral(t, method, input)
	})
}

// FuzzFastTranslateRender is FuzzFastCall for translateRender.
func FuzzFastTranslateRender(f *testing.F) {
	cases, err := casefile.Load(casefile.Dir(".."))
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range cases {
		if c.Method == "translateRender" {
			f.Add(c.Bytes())
		}
	}
	payload := casefile.ReferencesPayload(4)
	f.Add([]byte(`{"workspaceUri":"file:///work/project","subject":"x (func)","incomplete":"y","maxLocations":2,"maxResultChars":100,` + string(payload[1:])))
	f.Add([]byte(`{"operation":"goToDefinition","result":[],"workspaceUri":"file:///w","operation":"x","subject":null,"extra":[1,2,{"b":null}]} `))
	f.Add([]byte(`{"operation":"findReferences","result":[],"workspaceUri":"not a uri"}`))
	f.Fuzz(func(t *testing.T, input []byte) {
		fastMatchesGeneral(t, "translateRender", input)
	})
}

func TestFastCallTakesTranslateRender(t *testing.T) {
	payload := casefile.ReferencesPayload(30)
	in := `{"workspaceUri":"file:///work/project","subject":"Area (method)",` + string(payload[1:])
	if _, _, ok := fastCall("translateRender", in); !ok {
		t.Error("translateRender fell back")
	}
}
