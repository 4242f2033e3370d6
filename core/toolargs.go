package core

import (
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// The model-facing tool: its definition (name, description, JSON Schema)
// and the validation of the arguments a model sends.

// ToolName is the name the tool is registered under.
const ToolName = "lsp"

// CoordinateConvention is appended to every argument error (the tool
// description states it briefly), so a model that got coordinates wrong
// learns the rule in full from the error itself.
const CoordinateConvention = "line and character are one-based (the first line is 1, the first column is 1, as read tools number them); " +
	"character counts UTF-16 code units, so an emoji or other character outside the Basic Multilingual Plane counts as 2. " +
	`Point at any character of the identifier. Example: {"operation":"goToDefinition","file_path":"shapes/area.go","line":12,"character":6}`

// ToolDescription is the prompt guidance shipped with the tool. It states
// the coordinates more briefly than CoordinateConvention, which the
// argument errors carry in full.
const ToolDescription = "The language server's definition, references (declaration included), implementations or hover (type, docs) of the identifier at a position: " +
	"for what text search gets wrong (same names, aliases, interfaces, inferred types).\n" +
	"line and character are one-based (as read numbers lines; character in UTF-16 units), anywhere in the identifier; file_path is relative to the workspace root. " +
	"Check the answer's first line: the identifier found.\n" +
	`Example: {"operation":"goToDefinition","file_path":"shapes/area.go","line":12,"character":6}`

// ToolDefinitionValue is what toolDefinition returns.
type ToolDefinitionValue struct {
	Name        string  `json:"name"`
	Description string  `json:"description"`
	InputSchema RawJSON `json:"inputSchema"`
}

func (t ToolDefinitionValue) appendJSON(b []byte) []byte {
	b = append(b, `{"name":`...)
	b = appendString(b, t.Name)
	b = append(b, `,"description":`...)
	b = appendString(b, t.Description)
	b = append(b, `,"inputSchema":`...)
	b = t.InputSchema.appendJSON(b)
	return append(b, '}')
}

// toolInputSchema is the JSON Schema of the tool's arguments. It is written
// out by hand so its bytes are part of the reviewed contract.
const toolInputSchema = `{
  "type": "object",
  "properties": {
    "operation": {"type": "string", "enum": ["goToDefinition", "findReferences", "goToImplementation", "hover"]},
    "file_path": {"type": "string"},
    "line": {"type": "integer", "minimum": 1},
    "character": {"type": "integer", "minimum": 1}
  },
  "required": ["operation", "file_path", "line", "character"]
}`

// ToolDefinition returns the tool's name, description and input schema.
func ToolDefinition() ToolDefinitionValue {
	return ToolDefinitionValue{Name: ToolName, Description: ToolDescription, InputSchema: RawJSON(toolInputSchema)}
}

// ToolCall is a validated tool call, in seam coordinates (zero-based).
type ToolCall struct {
	Operation Operation `json:"operation"`
	FilePath  string    `json:"filePath"`
	Position  Position  `json:"position"`
}

func (c ToolCall) appendJSON(b []byte) []byte {
	b = append(b, `{"operation":`...)
	b = appendString(b, string(c.Operation))
	b = append(b, `,"filePath":`...)
	b = appendString(b, c.FilePath)
	b = append(b, `,"position":`...)
	b = c.Position.appendJSON(b)
	return append(b, '}')
}

var toolArgNames = []string{"operation", "file_path", "line", "character"}

// ParseToolArgs validates a model's raw arguments (a JSON object) and
// converts its one-based coordinates to a zero-based ToolCall. Every
// problem is reported at once, followed by the coordinate convention, so a
// model can correct its call in one step.
func ParseToolArgs(args gjson.Result) (ToolCall, *Error) {
	if !args.IsObject() {
		return ToolCall{}, argError([]string{"the arguments must be a JSON object with operation, file_path, line and character, got " + describe(args)})
	}
	// An overlong file_path is refused alone (arglimits.go).
	if over := overlongArgs(args); len(over) > 0 {
		return ToolCall{}, argError(over)
	}
	var problems []string
	args.ForEach(func(k, _ gjson.Result) bool {
		known := false
		for _, name := range toolArgNames {
			if k.Str == name {
				known = true
			}
		}
		if !known {
			problems = append(problems, "unknown argument "+strconv.Quote(clip(k.Str, 40))+" (the arguments are operation, file_path, line and character)")
		}
		return true
	})
	var call ToolCall
	op := get(args, "operation")
	switch {
	case op.Type == gjson.String && Operation(op.Str).valid():
		call.Operation = Operation(op.Str)
	case op.Type == gjson.String && suggestOperation(op.Str) != "":
		// The likely intent goes first, before every other problem and the
		// convention, so a model reads the fix before the rules.
		problems = append([]string{"did you mean " + string(suggestOperation(op.Str)) + "? operation must be one of goToDefinition, findReferences, goToImplementation, hover; got " + describe(op)}, problems...)
	default:
		problems = append(problems, "operation must be one of goToDefinition, findReferences, goToImplementation, hover; got "+describe(op))
	}
	fp := get(args, "file_path")
	switch {
	case fp.Type != gjson.String:
		problems = append(problems, "file_path must be a non-empty string, got "+describe(fp))
	case strings.TrimSpace(fp.Str) == "":
		problems = append(problems, "file_path must be a non-empty string, got an empty one")
	case strings.IndexByte(fp.Str, 0) >= 0:
		problems = append(problems, "file_path must not contain a NUL character")
	default:
		call.FilePath = fp.Str
	}
	for _, c := range []struct {
		name string
		dst  *uint32
	}{{"line", &call.Position.Line}, {"character", &call.Position.Character}} {
		v := get(args, c.name)
		n, ok := integer(v, 1, maxOneBased)
		if !ok {
			problems = append(problems, c.name+" must be a positive integer (one-based), got "+describe(v))
			continue
		}
		*c.dst = toZeroBased(n)
	}
	if len(problems) > 0 {
		return ToolCall{}, argError(problems)
	}
	return call, nil
}

// operationWords maps the distinctive word of each operation, and the
// short forms models and other tools use for it, to the operation.
var operationWords = []struct {
	word string
	op   Operation
}{
	{"definition", OpDefinition}, {"def", OpDefinition}, {"godef", OpDefinition},
	{"references", OpReferences}, {"reference", OpReferences}, {"refs", OpReferences}, {"usages", OpReferences},
	{"implementation", OpImplementation}, {"implementations", OpImplementation}, {"impl", OpImplementation},
	{"hover", OpHover},
}

// suggestOperation returns the operation a wrong operation name most
// likely meant, or "": the same name in another case or with separators
// (GoToDefinition, go_to_definition), a name that contains an operation's
// distinctive word (definition, textDocument/references, findRefs), or one
// within a small edit distance of an operation or its word (goToDefinitoin,
// hovr).
func suggestOperation(name string) Operation {
	if len(name) > 64 {
		return ""
	}
	key := make([]byte, 0, len(name))
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'A' && c <= 'Z':
			key = append(key, c+'a'-'A')
		case c >= 'a' && c <= 'z':
			key = append(key, c)
		}
	}
	if len(key) < 3 {
		return ""
	}
	k := string(key)
	for _, op := range Operations {
		if k == strings.ToLower(string(op)) {
			return op
		}
	}
	// The longest distinctive word inside the name wins (implementations
	// before impl); a word must be at least 4 letters to be searched for
	// inside a longer name, so "def" only matches on its own or at the end.
	best, bestLen := Operation(""), 0
	for _, w := range operationWords {
		if len(w.word) <= bestLen {
			continue
		}
		if k == w.word || strings.HasSuffix(k, w.word) || (len(w.word) >= 4 && strings.Contains(k, w.word)) {
			best, bestLen = w.op, len(w.word)
		}
	}
	if best != "" {
		return best
	}
	bestDist := 3
	for _, op := range Operations {
		if d := editDistance(k, strings.ToLower(string(op))); d < bestDist {
			best, bestDist = op, d
		}
	}
	for _, w := range operationWords {
		if len(w.word) < 5 && w.word != "hover" {
			continue
		}
		limit := 2
		if len(k) <= 5 {
			limit = 1
		}
		if d := editDistance(k, w.word); d <= limit && d < bestDist {
			best, bestDist = w.op, d
		}
	}
	return best
}

func argError(problems []string) *Error {
	return Errorf(CodeInvalidArgument, "invalid lsp arguments: %s. %s", strings.Join(problems, "; "), CoordinateConvention)
}

// Card is the transport-neutral presentation of a tool call for a UI.
type Card struct {
	Card      string         `json:"card"`
	Kind      string         `json:"kind"`
	Title     string         `json:"title"`
	Locations []CardLocation `json:"locations"`
}

// CardLocation is a file and one-based line a UI can focus.
type CardLocation struct {
	Path string `json:"path"`
	Line uint64 `json:"line"`
}

func (c Card) appendJSON(b []byte) []byte {
	b = append(b, `{"card":`...)
	b = appendString(b, c.Card)
	b = append(b, `,"kind":`...)
	b = appendString(b, c.Kind)
	b = append(b, `,"title":`...)
	b = appendString(b, c.Title)
	b = append(b, `,"locations":[`...)
	for i, l := range c.Locations {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"path":`...)
		b = appendString(b, l.Path)
		b = append(b, `,"line":`...)
		b = strconv.AppendUint(b, l.Line, 10)
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

// Present derives the presentation card from the model's arguments alone
// (no result is needed, so a UI can show the call while it runs). The card
// has no column, so it focuses the line; the title keeps the cursor.
func Present(args gjson.Result) (Card, *Error) {
	call, err := ParseToolArgs(args)
	if err != nil {
		return Card{}, err
	}
	line, char := toOneBased(call.Position.Line), toOneBased(call.Position.Character)
	return Card{
		Card:  "generic",
		Kind:  "search",
		Title: "LSP " + string(call.Operation) + " " + call.FilePath + ":" + strconv.FormatUint(line, 10) + ":" + strconv.FormatUint(char, 10),
		Locations: []CardLocation{{
			Path: call.FilePath,
			Line: line,
		}},
	}, nil
}
