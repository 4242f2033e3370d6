// Package casefile reads the ABI test cases and golden envelopes under
// testdata/core, shared by core's golden tests, the module parity test in
// bindings/go and (through the same files) the JavaScript binding's tests.
//
// testdata/core/METHOD.cases.json is a JSON array of cases:
//
//	{"name": "…", "input": VALUE, "want": "ok" | "LSP_…", "contains": ["…"]}
//
// "inputRaw" (a string) replaces "input" for inputs that are not valid JSON.
// "want" and "contains" are asserted on every run; the whole envelope is
// compared with testdata/core/METHOD.golden, a text file of
//
//	=== case name
//	> exact input bytes (compacted JSON; ">q " and a JSON string when the
//	  input has a newline)
//	< exact envelope bytes
//
// blocks, rewritten by `go test ./core -update`. Hosts in other languages
// read the golden files alone: they carry both sides of every call.
package casefile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Case is one ABI call and what it must produce.
type Case struct {
	Method   string          `json:"-"`
	Name     string          `json:"name"`
	Input    json.RawMessage `json:"input"`
	InputRaw *string         `json:"inputRaw"`
	Want     string          `json:"want"`
	Contains []string        `json:"contains"`
}

// Bytes is the exact input passed to the method: inputRaw as written, or
// input compacted (duplicate keys and number spellings kept).
func (c Case) Bytes() []byte {
	if c.InputRaw != nil {
		return []byte(*c.InputRaw)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, c.Input); err != nil {
		panic(err) // the decoder already validated it
	}
	return b.Bytes()
}

// Dir returns testdata/core relative to a package directory two levels
// below the repository root (core/, bindings/go/).
func Dir(fromPackage string) string { return filepath.Join(fromPackage, "testdata", "core") }

// Load reads every METHOD.cases.json in dir, sorted by method then file
// order.
func Load(dir string) ([]Case, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.cases.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var all []Case
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var cases []Case
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&cases); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		method := strings.TrimSuffix(filepath.Base(f), ".cases.json")
		seen := map[string]bool{}
		for _, c := range cases {
			if c.Name == "" || seen[c.Name] {
				return nil, fmt.Errorf("%s: case name %q is empty or repeated", f, c.Name)
			}
			if c.Want == "" {
				return nil, fmt.Errorf("%s: case %q has no want", f, c.Name)
			}
			if (c.Input == nil) == (c.InputRaw == nil) {
				return nil, fmt.Errorf("%s: case %q needs exactly one of input and inputRaw", f, c.Name)
			}
			seen[c.Name] = true
			c.Method = method
			all = append(all, c)
		}
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("no cases in %s", dir)
	}
	return all, nil
}

// GoldenPath is the golden file of a method.
func GoldenPath(dir, method string) string { return filepath.Join(dir, method+".golden") }

// Golden is one recorded call.
type Golden struct {
	Input, Envelope []byte
}

// ReadGolden reads a method's golden calls by case name.
func ReadGolden(dir, method string) (map[string]Golden, error) {
	path := GoldenPath(dir, method)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]Golden{}
	name := ""
	var g Golden
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		bad := func(what string) error { return fmt.Errorf("%s:%d: %s", path, i+1, what) }
		switch {
		case strings.HasPrefix(line, "=== "):
			name, g = line[4:], Golden{}
		case strings.HasPrefix(line, ">q "):
			var s string
			if err := json.Unmarshal([]byte(line[3:]), &s); err != nil {
				return nil, bad("bad quoted input")
			}
			g.Input = []byte(s)
		case strings.HasPrefix(line, "> "):
			g.Input = []byte(line[2:])
		case strings.HasPrefix(line, "< "):
			if name == "" || g.Input == nil {
				return nil, bad("envelope without a case name and input")
			}
			g.Envelope = []byte(line[2:])
			out[name] = g
			name = ""
		default:
			return nil, bad("unexpected line")
		}
	}
	return out, nil
}

// WriteGolden writes a method's golden calls in case order.
func WriteGolden(dir, method string, cases []Case, envelopes map[string][]byte) error {
	var b strings.Builder
	for _, c := range cases {
		if c.Method != method {
			continue
		}
		in := c.Bytes()
		if bytes.IndexByte(in, '\n') >= 0 {
			q, _ := json.Marshal(string(in))
			fmt.Fprintf(&b, "=== %s\n>q %s\n< %s\n", c.Name, q, envelopes[c.Name])
		} else {
			fmt.Fprintf(&b, "=== %s\n> %s\n< %s\n", c.Name, in, envelopes[c.Name])
		}
	}
	return os.WriteFile(GoldenPath(dir, method), []byte(b.String()), 0o644)
}

// Check asserts a case's want and contains on an envelope; it returns a
// description of the first mismatch, or "".
func Check(c Case, envelope []byte) string {
	var env struct {
		OK    json.RawMessage `json:"ok"`
		Error *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(envelope, &env); err != nil {
		return fmt.Sprintf("envelope is not JSON: %v: %s", err, envelope)
	}
	switch {
	case c.Want == "ok" && env.Error != nil:
		return fmt.Sprintf("want ok, got %s: %s", env.Error.Code, env.Error.Message)
	case c.Want == "ok" && env.OK == nil:
		return fmt.Sprintf("want ok, got %s", envelope)
	case c.Want != "ok" && (env.Error == nil || env.Error.Code != c.Want):
		return fmt.Sprintf("want error %s, got %s", c.Want, envelope)
	}
	for _, s := range c.Contains {
		if !bytes.Contains(envelope, []byte(s)) {
			return fmt.Sprintf("envelope lacks %q: %s", s, envelope)
		}
	}
	return ""
}
