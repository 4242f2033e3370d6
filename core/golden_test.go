package core

import (
	"bytes"
	"encoding/json"
	"flag"
	"testing"

	"github.com/lspseam/lspseam/internal/casefile"
)

var update = flag.Bool("update", false, "rewrite testdata/core/*.golden from the current code")

// TestGolden runs every case of testdata/core through Call: each case's
// want/contains assertions always apply, and the whole envelope must match
// the golden file byte for byte (rewrite with -update after reviewing).
func TestGolden(t *testing.T) {
	dir := casefile.Dir("..")
	cases, err := casefile.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	byMethod := map[string][]casefile.Case{}
	for _, c := range cases {
		byMethod[c.Method] = append(byMethod[c.Method], c)
	}
	for _, m := range Methods {
		if len(byMethod[m]) == 0 {
			t.Errorf("method %s has no cases in %s", m, dir)
		}
	}
	for method, cs := range byMethod {
		t.Run(method, func(t *testing.T) {
			if !knownMethod(method) {
				t.Fatalf("cases file for unknown method %s", method)
			}
			replayGolden(t, dir, method, cases, cs, Call)
		})
	}
}

// casesOf is the golden cases of method whose input is JSON (not
// inputRaw), for the tests that replay them another way.
func casesOf(t *testing.T, method string) []casefile.Case {
	t.Helper()
	cases, err := casefile.Load(casefile.Dir(".."))
	if err != nil {
		t.Fatal(err)
	}
	var out []casefile.Case
	for _, c := range cases {
		if c.Method == method && c.InputRaw == nil {
			out = append(out, c)
		}
	}
	return out
}

// replayGolden runs one method's cases through call: each case's
// want/contains assertions always apply, and the envelopes must match the
// method's golden file in dir byte for byte (rewritten with -update, which
// needs all of dir's cases).
func replayGolden(t *testing.T, dir, method string, cases, cs []casefile.Case, call func(method string, input []byte) []byte) {
	t.Helper()
	var golden map[string]casefile.Golden
	if !*update {
		var err error
		if golden, err = casefile.ReadGolden(dir, method); err != nil {
			t.Fatalf("%v (run go test ./core -update to create it)", err)
		}
	}
	envelopes := map[string][]byte{}
	for _, c := range cs {
		env := call(c.Method, c.Bytes())
		envelopes[c.Name] = env
		if !json.Valid(env) {
			t.Errorf("%s: envelope is not valid JSON: %s", c.Name, env)
		}
		if problem := casefile.Check(c, env); problem != "" {
			t.Errorf("%s: %s", c.Name, problem)
		}
		if *update {
			continue
		}
		g, ok := golden[c.Name]
		switch {
		case !ok:
			t.Errorf("%s: not in the golden file (run go test ./core -update)", c.Name)
		case !bytes.Equal(g.Input, c.Bytes()):
			t.Errorf("%s: golden input differs from the case (run go test ./core -update)", c.Name)
		case !bytes.Equal(g.Envelope, env):
			t.Errorf("%s: envelope differs from golden\n got: %s\nwant: %s", c.Name, env, g.Envelope)
		}
	}
	if *update {
		if err := casefile.WriteGolden(dir, method, cases, envelopes); err != nil {
			t.Fatal(err)
		}
	}
}
