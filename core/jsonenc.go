package core

import (
	"strconv"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// This file is core's JSON encoder. core writes its own JSON instead of
// using encoding/json because the output must be byte-for-byte stable
// across the native and WebAssembly builds and across Go releases, and
// because reflection-based encoding is the dominant cost of large results
// inside the module (see BenchmarkTranslateRender). The rules are fixed:
// object fields in declaration order, no insignificant whitespace, no HTML
// escaping, invalid UTF-8 replaced by the character U+FFFD (unescaped, so
// decoding and re-encoding gives the same bytes), embedded raw JSON
// compacted.

// jsonAppender is implemented by every value an ABI method returns.
type jsonAppender interface {
	appendJSON(b []byte) []byte
}

// jsonSizer is implemented by values whose encoded size is far from their
// input's, so Call sizes the envelope from it instead.
type jsonSizer interface {
	jsonSize() int
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, "\uFFFD"...) // the character itself, so re-encoding is stable
			i += size
			start = i
			continue
		}
		// U+2028 and U+2029 are valid JSON but break JavaScript source
		// embedding; escape them as encoding/json does.
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func appendUint(b []byte, v uint32) []byte { return strconv.AppendUint(b, uint64(v), 10) }

func appendInt(b []byte, v int64) []byte { return strconv.AppendInt(b, v, 10) }

func appendBool(b []byte, v bool) []byte { return strconv.AppendBool(b, v) }

// appendArray encodes a list of values; nil is [].
func appendArray[T jsonAppender](b []byte, items []T) []byte {
	b = append(b, '[')
	for i, item := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = item.appendJSON(b)
	}
	return append(b, ']')
}

// appendStrings encodes a list of strings; nil is [].
func appendStrings(b []byte, list []string) []byte {
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

// appendKey appends `,"key":` (without the comma for the first field).
func appendKey(b []byte, key string, first bool) []byte {
	if !first {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, key...)
	return append(b, '"', ':')
}

// RawJSON is a JSON value carried through core untouched but compacted.
// The zero value encodes as null.
type RawJSON string

func (r RawJSON) appendJSON(b []byte) []byte {
	if r == "" {
		return append(b, "null"...)
	}
	return appendCompact(b, gjson.Parse(string(r)))
}

// MarshalJSON lets Go hosts embed RawJSON in their own encoding/json values.
func (r RawJSON) MarshalJSON() ([]byte, error) { return r.appendJSON(nil), nil }

// UnmarshalJSON keeps the bytes as they are.
func (r *RawJSON) UnmarshalJSON(data []byte) error {
	*r = RawJSON(data)
	return nil
}

// appendCompact re-encodes a parsed gjson value in canonical compact form:
// strings re-escaped by appendString, numbers verbatim, object field order
// and duplicates preserved as received.
func appendCompact(b []byte, v gjson.Result) []byte {
	switch v.Type {
	case gjson.Null:
		return append(b, "null"...)
	case gjson.False:
		return append(b, "false"...)
	case gjson.True:
		return append(b, "true"...)
	case gjson.Number:
		return append(b, v.Raw...)
	case gjson.String:
		return appendString(b, v.Str)
	}
	// JSON: object or array.
	if v.IsArray() {
		b = append(b, '[')
		first := true
		v.ForEach(func(_, item gjson.Result) bool {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = appendCompact(b, item)
			return true
		})
		return append(b, ']')
	}
	b = append(b, '{')
	first := true
	v.ForEach(func(key, item gjson.Result) bool {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendString(b, key.Str)
		b = append(b, ':')
		b = appendCompact(b, item)
		return true
	})
	return append(b, '}')
}
