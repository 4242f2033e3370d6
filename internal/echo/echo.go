// Package echo bounds what a message repeats of its caller's input (issue
// 21): an error about a 1 MB argument names the argument, it does not
// carry it back, so an answer or a log line stays small whatever the
// input. bindings/go/localstdio's shownPath does the same for source
// paths; the surfaces (cmd/shim) call Clip wherever they echo a client's
// method, id or argument.
package echo

import (
	"strconv"
	"unicode/utf8"
)

// Max is how many bytes of an input a message repeats.
const Max = 200

// Clip is s as a message shows it: whole when it is at most Max bytes,
// else its first Max bytes (cut on a character boundary) and its length.
func Clip(s string) string {
	if len(s) <= Max {
		return s
	}
	cut := Max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "… (" + strconv.Itoa(len(s)) + " bytes)"
}
