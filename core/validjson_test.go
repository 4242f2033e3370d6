package core

import (
	"testing"

	"github.com/tidwall/gjson"

	"github.com/lspseam/lspseam/internal/casefile"
)

// validDocument is validValue over a whole input, as gjson.ValidBytes
// checks one.
func validDocument(data string) bool {
	i, ok := validValue(data, 0)
	return ok && skipWS(data, i) == len(data)
}

// FuzzValidJSON checks validValue against gjson.ValidBytes, which the rest
// of core's parsing relies on: they must accept exactly the same inputs.
func FuzzValidJSON(f *testing.F) {
	for _, s := range []string{
		``, ` `, `0`, `-0`, `01`, `-`, `1.`, `1.5e`, `1e+`, `1E-7`, `-12.5e+3`, `true`, `tru`, `nul`, `falsey`,
		`"a\u00e9\"\\\/\b\f\n\r\t"`, `"\u12"`, `"\x"`, "\"\x01\"", "\"\xff\"", `[]`, `[ ]`, `[1,]`, `[,1]`, `[1 2]`,
		`{}`, `{ }`, `{"a":1,}`, `{"a" 1}`, `{"a":}`, `{,}`, `{"a":[{"b":{}}],"c":null}`, `[[[[[[]]]]]]`, `[}`, `{]`,
		` {"a" : [ 1 , 2 ] } `, `1 2`, `{} x`, "\t\n\r[]\r\n",
	} {
		f.Add(s)
	}
	f.Add(string(casefile.ReferencesPayload(3)))
	f.Fuzz(func(t *testing.T, data string) {
		if got, want := validDocument(data), gjson.Valid(data); got != want {
			t.Fatalf("validValue(%q) = %v, gjson.Valid %v", data, got, want)
		}
	})
}

func TestValidValueDeep(t *testing.T) {
	deep := make([]byte, 0, 2000)
	for i := 0; i < 1000; i++ {
		deep = append(deep, '[')
	}
	for i := 0; i < 1000; i++ {
		deep = append(deep, ']')
	}
	if !validDocument(string(deep)) || validDocument(string(deep[:1999])) {
		t.Error("nesting deeper than the preallocated stack")
	}
}
