package core

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestTranslateRenderMatchesTwoCalls replays every translate case through
// translateRender and through translate then render (the result's
// workspace, subject and notice set between them, as a provider and the
// shim do): the result and the text must be the same bytes, and an error
// the same envelope.
func TestTranslateRenderMatchesTwoCalls(t *testing.T) {
	const ws = "file:///w/proj"
	n := 0
	for _, c := range casesOf(t, "translate") {
		for _, extra := range []map[string]string{{}, {"subject": "Area (method)", "incomplete": "the server was still loading"}} {
			var in map[string]json.RawMessage
			if err := json.Unmarshal(c.Input, &in); err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			in["workspaceUri"], _ = json.Marshal(ws)
			for k, v := range extra {
				in[k], _ = json.Marshal(v)
			}
			input, _ := json.Marshal(in)
			got := Call("translateRender", input)
			n++

			env := Call("translate", c.Bytes())
			value, ok := bytes.CutPrefix(env, []byte(`{"ok":`))
			if !ok {
				if !bytes.Equal(got, env) {
					t.Errorf("%s: translateRender %s, translate %s", c.Name, got, env)
				}
				continue
			}
			var r map[string]json.RawMessage
			if err := json.Unmarshal(value[:len(value)-1], &r); err != nil {
				t.Fatal(err)
			}
			if string(r["kind"]) == `"locations"` {
				r["workspaceUri"], _ = json.Marshal(ws)
			}
			for k, v := range extra {
				r[k], _ = json.Marshal(v)
			}
			rb, _ := json.Marshal(r)
			rendered := Call("render", []byte(`{"result":`+string(rb)+`,"workspaceUri":"`+ws+`"}`))
			var want, have struct {
				OK struct {
					Result   json.RawMessage `json:"result"`
					Rendered json.RawMessage `json:"rendered"`
				} `json:"ok"`
			}
			if err := json.Unmarshal(got, &have); err != nil {
				t.Fatalf("%s: %v: %s", c.Name, err, got)
			}
			text, ok := bytes.CutPrefix(rendered, []byte(`{"ok":`))
			if !ok {
				t.Errorf("%s: render failed: %s", c.Name, rendered)
				continue
			}
			want.OK.Rendered = text[:len(text)-1]
			if !bytes.Equal(have.OK.Rendered, want.OK.Rendered) {
				t.Errorf("%s: rendered\n got: %s\nwant: %s", c.Name, have.OK.Rendered, want.OK.Rendered)
			}
			// The result: the same members, whatever their order.
			var hr map[string]json.RawMessage
			if err := json.Unmarshal(have.OK.Result, &hr); err != nil {
				t.Fatal(err)
			}
			hb, _ := json.Marshal(hr)
			if !bytes.Equal(hb, rb) {
				t.Errorf("%s: result\n got: %s\nwant: %s", c.Name, hb, rb)
			}
		}
	}
	if n < 20 {
		t.Fatalf("only %d translate cases replayed", n)
	}
}
