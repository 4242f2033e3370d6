// Package jsonbound bounds client messages before a JSON parser sees them
// (issue 21, "nothing lost, nothing leaked"): `lspseam mcp` and `lspseam
// serve` read a message whose size or nesting is over their limit as a
// stream of bytes, never as a value, and answer it with an error addressed
// to its id. A Scanner follows the bytes of one message as they arrive,
// whatever its size: it keeps the nesting depth (so a message can be
// refused as soon as it goes too deep) and the raw bytes of the message's
// top-level "id" and "method", wherever they are in the message (the
// TypeScript MCP SDK writes the id last, after the arguments). It holds no
// more than those two.
package jsonbound

import "bytes"

// Limits every surface applies to one client message.
const (
	// MaxMessageBytes bounds one MCP message. It admits the largest
	// legitimate call: write's content of maxDocumentBytes (4,000,000)
	// even if the client escapes every non-ASCII character (\uXXXX, at
	// most 3 bytes of JSON per byte of UTF-8 text when it is CJK, 3 per
	// 4-byte character), with room for the envelope.
	MaxMessageBytes = 16 << 20
	// MaxDepth bounds the nesting of one message. The deepest legitimate
	// call is a replace batch's target in an edit in the params of a
	// tools/call: about 6 levels.
	MaxDepth = 64
	// maxIDBytes bounds the id (or method) a Scanner keeps; a longer one
	// is unusable.
	maxIDBytes = 1024
)

// phase is where a Scanner is in the top-level object's members.
type phase uint8

const (
	phaseOther       phase = iota // not in a top-level object, or inside a member's value
	phaseKey                      // expecting a member's key
	phaseInKey                    // inside a key string
	phaseColon                    // after a key, expecting ':'
	phaseValue                    // expecting a member's value
	phaseScalar                   // inside a kept member's number or literal
	phaseStringValue              // inside a kept member's string
)

// Scanner follows the bytes of one JSON message (Write) and reports its
// nesting (TooDeep) and its top-level id (ID) and method (Method). It does not validate the
// JSON: a message that is not JSON is for the parser to refuse once it is
// known to be small and shallow.
type Scanner struct {
	MaxDepth int // the nesting allowed; 0 means MaxDepth

	depth   int
	deepest int
	inStr   bool
	esc     bool
	phase   phase
	key     []byte // the current top-level key, up to 6 bytes
	keyLong bool
	member  int        // 1 + the kept member being read (memberID, memberMethod), or 0
	kept    [2]capture // the raw bytes of "id" and "method"
	off     int        // the bytes followed before the current Write
}

// The top-level members a Scanner keeps.
const (
	memberID = iota
	memberMethod
)

var keptKeys = [...]string{memberID: "id", memberMethod: "method"}

type capture struct {
	raw        []byte
	state      idState
	start, end int // the value's offsets in the message (end exclusive)
}

type idState uint8

const (
	idAbsent idState = iota
	idReading
	idRead
	idUnusable // an object, an array, or longer than maxIDBytes
)

// Reset readies the Scanner for the next message.
func (s *Scanner) Reset() {
	*s = Scanner{MaxDepth: s.MaxDepth, key: s.key[:0], kept: [2]capture{{raw: s.kept[0].raw[:0]}, {raw: s.kept[1].raw[:0]}}}
}

// TooDeep reports whether the message so far nests deeper than MaxDepth.
func (s *Scanner) TooDeep() bool { return s.deepest > s.maxDepth() }

// Depth is the deepest nesting seen so far.
func (s *Scanner) Depth() int { return s.deepest }

func (s *Scanner) maxDepth() int {
	if s.MaxDepth > 0 {
		return s.MaxDepth
	}
	return MaxDepth
}

// ID returns the raw bytes of the message's top-level "id" member (a
// string with its quotes, a number, a literal), and false when the
// message so far has none, or one that is an object, an array or too long
// to be an id. The bytes are the Scanner's until the next Reset.
func (s *Scanner) ID() ([]byte, bool) { return s.get(memberID) }

// Method returns the message's top-level "method" as ID does the id
// (raw: a string keeps its quotes and escapes).
func (s *Scanner) Method() ([]byte, bool) { return s.get(memberMethod) }

// IDSpan returns where the id's bytes are in the message (end exclusive),
// once the id has been read whole.
func (s *Scanner) IDSpan() (start, end int, ok bool) {
	c := &s.kept[memberID]
	return c.start, c.end, c.state == idRead
}

func (s *Scanner) get(m int) ([]byte, bool) {
	c := &s.kept[m]
	if c.state == idReading && s.phase == phaseScalar && s.member == m+1 {
		return c.raw, len(c.raw) > 0 // a number at the end of a truncated message
	}
	return c.raw, c.state == idRead
}

// Write follows p, the next bytes of the message. It never fails.
func (s *Scanner) Write(p []byte) (int, error) {
	for i := 0; i < len(p); i++ {
		c := p[i]
		if s.inStr {
			capturing := s.phase == phaseInKey || s.phase == phaseStringValue
			if !capturing && !s.esc {
				// Skip to the string's next quote or backslash: the
				// bulk of a big message is string content.
				j := bytes.IndexAny(p[i:], `"\`)
				if j < 0 {
					s.off += len(p)
					return len(p), nil
				}
				i += j
				c = p[i]
			}
			switch {
			case s.esc:
				s.esc = false
			case c == '\\':
				s.esc = true
			case c == '"':
				s.inStr = false
			}
			switch s.phase {
			case phaseInKey:
				if !s.inStr {
					s.member = 0
					for m, k := range keptKeys {
						if !s.keyLong && string(s.key) == k {
							s.member = m + 1
						}
					}
					s.phase = phaseColon
				} else if len(s.key) < 6 {
					s.key = append(s.key, c)
				} else {
					s.keyLong = true
				}
			case phaseStringValue:
				s.keep(c)
				if !s.inStr {
					s.endID(s.off + i + 1)
				}
			}
			continue
		}
		switch c {
		case ' ', '\t', '\r', '\n':
			if s.phase == phaseScalar {
				s.endID(s.off + i)
			}
		case '"':
			s.inStr = true
			switch {
			case s.depth == 1 && s.phase == phaseKey:
				s.phase, s.key, s.keyLong = phaseInKey, s.key[:0], false
			case s.depth == 1 && s.phase == phaseValue && s.member > 0:
				s.startID(phaseStringValue, c, s.off+i)
			case s.depth == 1 && s.phase == phaseValue:
				s.phase = phaseOther
			}
		case '{', '[':
			if s.depth == 1 && s.phase == phaseValue {
				if s.member > 0 && s.kept[s.member-1].state == idAbsent {
					s.kept[s.member-1].state = idUnusable
				}
				s.phase = phaseOther
			}
			s.depth++
			s.deepest = max(s.deepest, s.depth)
			if s.depth == 1 && c == '{' {
				s.phase = phaseKey
			}
		case '}', ']':
			if s.phase == phaseScalar {
				s.endID(s.off + i)
			}
			if s.depth > 0 {
				s.depth--
			}
			if s.depth == 1 {
				s.phase = phaseOther // a member's value ended
			}
		case ':':
			if s.depth == 1 && s.phase == phaseColon {
				s.phase = phaseValue
			}
		case ',':
			if s.phase == phaseScalar {
				s.endID(s.off + i)
			}
			if s.depth == 1 {
				s.phase, s.member = phaseKey, 0
			}
		default:
			switch {
			case s.phase == phaseScalar:
				s.keep(c)
			case s.depth == 1 && s.phase == phaseValue && s.member > 0:
				s.startID(phaseScalar, c, s.off+i)
			case s.depth == 1 && s.phase == phaseValue:
				s.phase = phaseOther
			}
		}
	}
	s.off += len(p)
	return len(p), nil
}

func (s *Scanner) startID(p phase, c byte, at int) {
	k := &s.kept[s.member-1]
	if k.state != idAbsent { // a second "id": the first one counts
		s.phase, s.member = phaseOther, 0
		return
	}
	s.phase = p
	k.state, k.start = idReading, at
	k.raw = append(k.raw[:0], c)
}

func (s *Scanner) keep(c byte) {
	k := &s.kept[s.member-1]
	if k.state != idReading {
		return
	}
	if len(k.raw) >= maxIDBytes {
		k.state = idUnusable
		return
	}
	k.raw = append(k.raw, c)
}

func (s *Scanner) endID(at int) {
	if s.member > 0 && s.kept[s.member-1].state == idReading {
		s.kept[s.member-1].state, s.kept[s.member-1].end = idRead, at
	}
	s.phase, s.member = phaseOther, 0
}
