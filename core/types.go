package core

// The seam's vocabulary. Positions and ranges here are zero-based with
// UTF-16 code-unit columns, exactly as in LSP; only the model-facing tool
// (ParseToolArgs, Render, Present) speaks one-based coordinates. See
// position.go.

// Operation is one of the four semantic queries. The union is closed: no
// other LSP method can reach a server through the seam.
type Operation string

const (
	OpDefinition     Operation = "goToDefinition"
	OpReferences     Operation = "findReferences"
	OpImplementation Operation = "goToImplementation"
	OpHover          Operation = "hover"
)

// Operations lists every operation in the order the schema documents them.
var Operations = []Operation{OpDefinition, OpReferences, OpImplementation, OpHover}

func (op Operation) valid() bool {
	switch op {
	case OpDefinition, OpReferences, OpImplementation, OpHover:
		return true
	}
	return false
}

// Position is a zero-based line and UTF-16 code-unit column.
type Position struct {
	Line      uint32 `json:"line"`
	Character uint32 `json:"character"`
}

func (p Position) appendJSON(b []byte) []byte {
	b = append(b, `{"line":`...)
	b = appendUint(b, p.Line)
	b = append(b, `,"character":`...)
	b = appendUint(b, p.Character)
	return append(b, '}')
}

// Range is a zero-based, end-exclusive span.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

func (r Range) appendJSON(b []byte) []byte {
	b = append(b, `{"start":`...)
	b = r.Start.appendJSON(b)
	b = append(b, `,"end":`...)
	b = r.End.appendJSON(b)
	return append(b, '}')
}

// Location is a range in a document named by URI.
type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

func (l Location) appendJSON(b []byte) []byte { return l.appendJSONURI(b, false) }

// appendJSONURI encodes l; plainURI says its URI is known to need no
// escaping (see plainURIResult), so it is copied as it is.
func (l Location) appendJSONURI(b []byte, plainURI bool) []byte {
	b = append(b, `{"uri":`...)
	if plainURI {
		b = append(b, '"')
		b = append(b, l.URI...)
		b = append(b, '"')
	} else {
		b = appendString(b, l.URI)
	}
	b = append(b, `,"range":`...)
	b = l.Range.appendJSON(b)
	return append(b, '}')
}

// Hover is normalized hover text (Markdown) and the optional range the
// server said it applies to.
type Hover struct {
	Contents string `json:"contents"`
	Range    *Range `json:"range,omitempty"`
}

func (h *Hover) appendJSON(b []byte) []byte {
	if h == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"contents":`...)
	b = appendString(b, h.Contents)
	if h.Range != nil {
		b = append(b, `,"range":`...)
		b = h.Range.appendJSON(b)
	}
	return append(b, '}')
}

// ResultKind tells which half of the closed Result union is set.
type ResultKind string

const (
	KindLocations ResultKind = "locations"
	KindHover     ResultKind = "hover"
)

// Result is the seam's answer to one query: navigation operations give
// locations (possibly none), hover gives normalized contents or nil.
//
// WorkspaceURI is the provider's canonical workspace file: URI. Providers set
// it on navigation results so consumers relativize locations in the
// provider's namespace (symlinks resolved), not in their own; Translate
// leaves it empty because it does not know the workspace.
//
// Incomplete, when set, says why the answer may be partial — typically
// that the server was still loading the project when the caller's budget
// ran out — and Render shows it to the model. Empty means the provider had
// no reason to doubt the answer.
//
// Subject, when set, names what the answer is for — the identifier at the
// queried position, or that there is none (see subject.go) — and Render
// makes it the first line of the text. Providers copy it from the request
// RequestInText built; Translate leaves it empty.
type Result struct {
	Kind         ResultKind `json:"kind"`
	Locations    []Location `json:"locations,omitempty"`
	Hover        *Hover     `json:"hover,omitempty"`
	WorkspaceURI string     `json:"workspaceUri,omitempty"`
	Incomplete   string     `json:"incomplete,omitempty"`
	Subject      string     `json:"subject,omitempty"`
}

func (r Result) appendJSON(b []byte) []byte { return r.appendJSONURIs(b, false) }

// plainURIResult is a Result whose location URIs are all known to need no
// escaping in JSON (ASCII without quotes, backslashes or control
// characters: what the fast path read, when it saw no other byte), so
// they are copied instead of checked byte by byte a second time.
type plainURIResult struct{ Result }

func (r plainURIResult) appendJSON(b []byte) []byte { return r.appendJSONURIs(b, true) }

func (r Result) appendJSONURIs(b []byte, plainURIs bool) []byte {
	b = append(b, `{"kind":`...)
	b = appendString(b, string(r.Kind))
	if r.Kind == KindHover {
		b = append(b, `,"hover":`...)
		b = r.Hover.appendJSON(b)
	} else {
		b = append(b, `,"locations":[`...)
		for i, l := range r.Locations {
			if i > 0 {
				b = append(b, ',')
			}
			b = l.appendJSONURI(b, plainURIs)
		}
		b = append(b, ']')
	}
	if r.WorkspaceURI != "" {
		b = append(b, `,"workspaceUri":`...)
		b = appendString(b, r.WorkspaceURI)
	}
	if r.Incomplete != "" {
		b = append(b, `,"incomplete":`...)
		b = appendString(b, r.Incomplete)
	}
	if r.Subject != "" {
		b = append(b, `,"subject":`...)
		b = appendString(b, r.Subject)
	}
	return append(b, '}')
}

// MarshalJSON encodes a Result exactly as the ABI does: an empty location
// list is [] and a missing hover is null.
func (r Result) MarshalJSON() ([]byte, error) { return r.appendJSON(nil), nil }
