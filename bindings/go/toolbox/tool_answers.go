package toolbox

import (
	"bytes"
	"encoding/json"
	"fmt"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// coreAnswer turns a catalog method's ok value ({…, notice?, incomplete?,
// rendered: {text, …}}) into an answer: its fields in the core's order,
// the rendered text, the notice, and why it may be partial.
func coreAnswer(raw json.RawMessage) (answer, error) {
	var a answer
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return a, fmt.Errorf("lspseam: the core's answer is not an object: %.200s", raw)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return a, err
		}
		name, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return a, err
		}
		switch name {
		case "rendered":
			var r lspseam.Rendered
			if err := json.Unmarshal(v, &r); err != nil {
				return a, err
			}
			a.text = r.Text
		case "incomplete": // why the answer may be partial: the answer's own flag
			if err := json.Unmarshal(v, &a.incomplete); err != nil {
				return a, err
			}
		case "notice":
			if err := json.Unmarshal(v, &a.notice); err != nil {
				return a, err
			}
			a.noticeSaid = true
		default:
			a.fields = append(a.fields, field{name, v})
		}
	}
	return a, nil
}
