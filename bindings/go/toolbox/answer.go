package toolbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// Answers: what every tool returns (answer, field), turned into the
// ToolResult a harness hands to the model, and the errors a failed call
// answers with.

// ToolResult is a tool's answer: Text for the model, Structured the same
// answer as a JSON object ({"ok":true, …}, or {"ok":false, "error":{code,
// message}, "ambiguous"?, "candidates"?}), IsError for a failed call.
type ToolResult struct {
	Text       string          `json:"text"`
	Structured json.RawMessage `json:"structured"`
	IsError    bool            `json:"isError"`
}

// answer is a tool's successful answer before it is written out: the
// structured fields in order, the rendered text, and what may make it
// partial.
type answer struct {
	fields     []field
	text       string
	notice     string // an empty answer's explanation (§7)
	noticeSaid bool   // text already says it (the core's rendering)
	incomplete string // the server may not have been ready
}

type field struct {
	name  string
	value any
}

func (a answer) result(tool string) ToolResult {
	b := []byte(`{"ok":true,"tool":`)
	b, _ = appendJSONValue(b, tool)
	for _, f := range a.fields {
		b = append(b, ',')
		b, _ = appendJSONValue(b, f.name)
		b = append(b, ':')
		b, _ = appendJSONValue(b, f.value)
	}
	text := a.text
	if a.notice != "" {
		b = append(b, `,"notice":`...)
		b, _ = appendJSONValue(b, a.notice)
		if !a.noticeSaid {
			text += "\n" + a.notice
		}
	}
	if a.incomplete != "" {
		b = append(b, `,"incomplete":`...)
		b, _ = appendJSONValue(b, a.incomplete)
		text += "\nIncomplete: " + a.incomplete
	}
	b = append(b, '}')
	return ToolResult{Text: text, Structured: b}
}

func appendJSONValue(b []byte, v any) ([]byte, error) {
	if raw, ok := v.(json.RawMessage); ok {
		return append(b, raw...), nil
	}
	enc, err := json.Marshal(v)
	if err != nil {
		enc, _ = json.Marshal(err.Error())
	}
	return append(b, enc...), err
}

// ErrorResult is a failed call's answer, with the error's code: what Call
// answers for err, for surfaces that fail before calling it.
func ErrorResult(err error) ToolResult { return errorResult(err) }

// errorResult is a failed call's answer, with the error's code.
func errorResult(err error) ToolResult {
	var lerr *lspseam.Error
	if !errors.As(err, &lerr) {
		lerr = lspseam.Errorf(lspseam.CodeInternal, "%v", err)
	}
	e := map[string]string{"code": string(lerr.Code), "message": lerr.Message}
	if lerr.Reason != "" {
		e["reason"] = lerr.Reason // what a caller acts on (stillReferenced, editsOverlap)
	}
	v := map[string]any{"ok": false, "error": e}
	if lerr.Code == lspseam.CodeAmbiguousTarget {
		v["ambiguous"] = true
	}
	if len(lerr.Candidates) > 0 {
		v["candidates"] = lerr.Candidates
	}
	structured, _ := json.Marshal(v)
	return ToolResult{Text: string(lerr.Code) + ": " + lerr.Message, Structured: structured, IsError: true}
}

func clipString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

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

// errorMessage is err as an answer's line names it: "CODE: message" for a
// seam error.
func errorMessage(err error) string {
	var lerr *lspseam.Error
	if errors.As(err, &lerr) {
		return string(lerr.Code) + ": " + lerr.Message
	}
	return err.Error()
}

// conflictWithPreview is LSP_CONFLICT carrying a fresh answer: a fresh
// preview (key "preview", the default), or a cursor's changed answer's
// first page (key "page").
type conflictWithPreview struct {
	err     error
	preview answer
	key     string
}

func (c *conflictWithPreview) Error() string { return c.err.Error() }

func (c *conflictWithPreview) Unwrap() error { return c.err }

// serverPayloadError names the server when the core found its answer
// malformed (the core reads it as an input, so calls it an argument).
func serverPayloadError(err error, server, method string) error {
	var lerr *lspseam.Error
	if errors.As(err, &lerr) && lerr.Code == lspseam.CodeInvalidArgument && lerr.Field == "locations" {
		return lspseam.Errorf(lspseam.CodeMalformedResponse, "language server %q answered %s with a malformed result: %s", server, method, lerr.Message)
	}
	return err
}

func listOrEmpty(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage("[]")
	}
	return raw
}

// nonNil is s, or an empty slice for nil: the core's inputs are JSON
// arrays, never null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// joinNotices joins non-empty notices with "; ".
func joinNotices(notices ...string) string {
	var out []string
	for _, n := range notices {
		if n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, "; ")
}
