package core

import (
	"math"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
	"unsafe"
)

// Helpers shared by the decoders of every method: reading JSON inputs with
// gjson and describing what was wrong with them in words a caller can act
// on.

// maxUint31 is LSP's uinteger bound (2^31-1); it also bounds timers so they
// fit every host's scheduler (JavaScript's setTimeout among them).
const maxUint31 = math.MaxInt32

// maxSafeInteger is the largest integer every JSON host (JavaScript
// included) represents exactly.
const maxSafeInteger = 1<<53 - 1

// describe says what a JSON value is, for error messages.
func describe(v gjson.Result) string {
	if !v.Exists() {
		return "missing"
	}
	switch v.Type {
	case gjson.Null:
		return "null"
	case gjson.False, gjson.True:
		return v.Raw
	case gjson.Number:
		return clip(v.Raw, 40)
	case gjson.String:
		return "a string (" + strconv.Quote(clip(v.Str, 40)) + ")"
	}
	if v.IsArray() {
		return "an array"
	}
	return "an object"
}

// clip shortens s to at most n bytes without splitting a UTF-8 sequence.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// integer reads v as an integer in [min, max]. JSON Schema's "integer"
// includes integral numbers written with a fraction or exponent (1.0, 1e2),
// so those are accepted; 1.5 is not. ok is false when v is not such a
// number.
func integer(v gjson.Result, min, max int64) (n int64, ok bool) {
	if v.Type != gjson.Number {
		return 0, false
	}
	raw := v.Raw
	if !strings.ContainsAny(raw, ".eE") {
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || n < min || n > max {
			return 0, false
		}
		return n, true
	}
	f, err := strconv.ParseFloat(raw, 64)
	if err != nil || f != math.Trunc(f) || f < float64(min) || f > float64(max) {
		return 0, false
	}
	return int64(f), true
}

// get reads a fixed, plain field name (no gjson path syntax) from an object.
func get(obj gjson.Result, name string) gjson.Result { return obj.Get(name) }

// objectKeys returns an object's keys in document order and the first key
// that appears twice ("" when none does). JSON allows duplicate keys but
// their meaning differs between parsers, so core rejects them where a key
// names something (servers, extensions, arguments).
func objectKeys(obj gjson.Result) (keys []string, duplicate string, hasDuplicate bool) {
	seen := map[string]bool{}
	obj.ForEach(func(k, _ gjson.Result) bool {
		if seen[k.Str] && !hasDuplicate {
			duplicate, hasDuplicate = k.Str, true
		}
		seen[k.Str] = true
		keys = append(keys, k.Str)
		return true
	})
	return keys, duplicate, hasDuplicate
}

// parseInput checks that an ABI input is one valid JSON value.
func parseInput(input []byte) (gjson.Result, *Error) {
	if !gjson.ValidBytes(input) {
		return gjson.Result{}, Errorf(CodeInvalidArgument, "the input is not valid JSON; pass one JSON value (an object for every method)")
	}
	return gjson.Parse(inputView(input)), nil
}

// inputView is an ABI input as a string without copying it.
//
// A view, not a copy: gjson.ParseBytes would copy the whole input (a
// fifth of render's allocated bytes). Call retains nothing of its input
// past its return — the core keeps no state, and the envelope is a new
// buffer — so the caller may reuse the bytes afterwards.
func inputView(input []byte) string {
	return unsafe.String(unsafe.SliceData(input), len(input))
}

// requireObject checks that an ABI input is a JSON object.
func requireObject(v gjson.Result, what string) *Error {
	if !v.IsObject() {
		return Errorf(CodeInvalidArgument, "%s must be a JSON object, got %s", what, describe(v))
	}
	return nil
}
