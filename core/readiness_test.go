package core

import (
	"regexp"
	"testing"
)

// TestPyrightReadyLog: the signal matches what pyright logs when it has
// enumerated the project's files, and not what it logs before.
func TestPyrightReadyLog(t *testing.T) {
	re := regexp.MustCompile(pyrightEnumerated)
	for msg, want := range map[string]bool{
		"Found 162 source files":                   true,
		"Found 1 source file":                      true,
		"No source files found.":                   true,
		"Searching for source files":               false, // the start, at log level Trace
		"Found 2 files to analyze":                 false, // the command line's
		"Loading pyproject.toml file at /w/x.toml": false,
		"Enumeration of workspace source files is taking longer than 10 seconds.": false,
	} {
		if got := re.MatchString(msg); got != want {
			t.Errorf("%q: matched %v, want %v", msg, got, want)
		}
	}
}
