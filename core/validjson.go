package core

// Checking JSON without gjson, for the fast paths (locscan.go,
// fastcall.go): a value they skip must be checked as parseInput would have
// checked it, since an input they take is never validated otherwise.
//
// validValue accepts exactly what gjson's validator accepts — RFC 8259's
// grammar, strings of any bytes but control characters (no UTF-8 check) —
// with one loop and an explicit stack of open containers rather than a
// call per value. FuzzValidJSON checks it against gjson.ValidBytes.

// What validValue expects next.
const (
	expectValue = iota // a value (at the start, after '[', ',' in an array, or ':')
	expectKey          // a member's key (after '{' with members, or ',' in an object)
	afterValue         // a ',' or the container's close
)

// validValue passes over the JSON value at i (after optional whitespace)
// and reports where it ends and whether it is valid.
func validValue(data string, i int) (int, bool) {
	var open [64]byte // '{' or '[' per open container; deeper nesting grows it
	stack := open[:0]
	state := expectValue
	for {
		i = skipWS(data, i)
		switch state {
		case expectKey:
			if i >= len(data) || data[i] != '"' {
				return i, false
			}
			var ok bool
			if i, ok = validString(data, i+1); !ok {
				return i, false
			}
			i = skipWS(data, i)
			if i >= len(data) || data[i] != ':' {
				return i, false
			}
			i++
			state = expectValue
		case afterValue:
			if len(stack) == 0 {
				return i, true
			}
			if i >= len(data) {
				return i, false
			}
			top := stack[len(stack)-1]
			switch c := data[i]; {
			case c == ',':
				i++
				if top == '{' {
					state = expectKey
				} else {
					state = expectValue
				}
			case c == '}' && top == '{', c == ']' && top == '[':
				i++
				stack = stack[:len(stack)-1]
			default:
				return i, false
			}
		default: // expectValue
			if i >= len(data) {
				return i, false
			}
			start := i
			var ok bool
			switch c := data[i]; c {
			case '{', '[':
				i = skipWS(data, i+1)
				if i < len(data) && data[i] == c+2 { // '}' is '{'+2, ']' is '['+2
					i++
					state = afterValue
					continue
				}
				stack = append(stack, c)
				if c == '{' {
					state = expectKey
				}
				continue
			case '"':
				i, ok = validString(data, i+1)
			case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
				i, ok = validNumber(data, i)
			case 't':
				i += 4
				ok = i <= len(data) && data[start:i] == "true"
			case 'f':
				i += 5
				ok = i <= len(data) && data[start:i] == "false"
			case 'n':
				i += 4
				ok = i <= len(data) && data[start:i] == "null"
			}
			if !ok {
				return start, false
			}
			state = afterValue
		}
	}
}

// stringStop marks the bytes a string's loop must stop at: control
// characters (not allowed in a JSON string), '"' and '\\'.
var stringStop = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

func skipWS(data string, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// validString passes over a string's contents from i (after the opening
// quote) to after its closing quote.
func validString(data string, i int) (int, bool) {
	for i < len(data) {
		if !stringStop[data[i]] {
			i++
			continue
		}
		switch c := data[i]; {
		case c == '"':
			return i + 1, true
		case c == '\\':
			i++
			if i == len(data) {
				return i, false
			}
			switch data[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if i+4 >= len(data) || !isHex(data[i+1]) || !isHex(data[i+2]) || !isHex(data[i+3]) || !isHex(data[i+4]) {
					return i, false
				}
				i += 5
			default:
				return i, false
			}
		case c < 0x20:
			return i, false
		default:
			i++
		}
	}
	return i, false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// validNumber passes over a number starting at i:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func validNumber(data string, i int) (int, bool) {
	if data[i] == '-' {
		i++
		if i == len(data) || data[i] < '0' || data[i] > '9' {
			return i, false
		}
	}
	if data[i] == '0' {
		i++
	} else {
		for i < len(data) && '0' <= data[i] && data[i] <= '9' {
			i++
		}
	}
	if i < len(data) && data[i] == '.' {
		i++
		if i == len(data) || data[i] < '0' || data[i] > '9' {
			return i, false
		}
		for i < len(data) && '0' <= data[i] && data[i] <= '9' {
			i++
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i == len(data) || data[i] < '0' || data[i] > '9' {
			return i, false
		}
		for i < len(data) && '0' <= data[i] && data[i] <= '9' {
			i++
		}
	}
	return i, true
}
