package core

import (
	"fmt"
	"strconv"
	"strings"
)

// ConfigProblem is one problem of an invalid configuration, in the
// Problems of its LSP_CONFIG_INVALID. Path names the member the problem is
// about the way the message does — a.b for an object's field, a.b["key"]
// for a key of a string map, a.b[2] for an array item, the offending
// field itself for an unknown or repeated one — and is "" for the config
// as a whole. A member that is missing is named by its own path, which a
// file does not have: a host that maps paths to the lines of the file it
// read (lspseam's YAML loader) names the line of the nearest enclosing
// member it finds.
type ConfigProblem struct {
	Path    string `json:"path"`
	Message string `json:"message"`
	// Line is the one-based line of the file the config was read from,
	// filled in by the host that read it; the core never sets it.
	Line int `json:"line,omitempty"`
}

func (p ConfigProblem) appendJSON(b []byte) []byte {
	b = append(b, `{"path":`...)
	b = appendString(b, p.Path)
	b = append(b, `,"message":`...)
	b = appendString(b, p.Message)
	if p.Line > 0 {
		b = append(b, `,"line":`...)
		b = appendInt(b, int64(p.Line))
	}
	return append(b, '}')
}

// maxConfigProblems bounds what one validation reports: a file that is
// wrong everywhere gets the first twenty problems, enough to start on.
const maxConfigProblems = 20

// configProblems collects a validation's problems in the order found.
type configProblems struct{ list []ConfigProblem }

func (c *configProblems) add(path, format string, args ...any) {
	if len(c.list) < maxConfigProblems {
		c.list = append(c.list, ConfigProblem{Path: path, Message: fmt.Sprintf(format, args...)})
	}
}

// err is the LSP_CONFIG_INVALID naming every problem.
func (c *configProblems) err() *Error { return ConfigInvalid("", c.list) }

// ConfigInvalid is the LSP_CONFIG_INVALID of a config's problems, the one
// wording every host uses: "invalid lspseam config" and where (" in
// FILE", or ""), then each problem's message, after "line N: " when the
// host found its line; Problems carries them.
func ConfigInvalid(where string, problems []ConfigProblem) *Error {
	msgs := make([]string, len(problems))
	for i, p := range problems {
		msgs[i] = p.Message
		if p.Line > 0 {
			msgs[i] = "line " + strconv.Itoa(p.Line) + ": " + p.Message
		}
	}
	e := Errorf(CodeConfigInvalid, "invalid lspseam config%s: %s", where, strings.Join(msgs, "; "))
	e.Problems = problems
	return e
}
