package core

import (
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// The LSP requests behind the catalog's tools (docs/design.md, "LSP
// mapping"), and what to tell a model when its server lacks one: the ABI
// method codeRequest builds one request from a resolved position (or a
// file's text, for inlay hints), checked against the methods the server
// negotiated (Negotiation.Methods, initialize.go).

// LSP methods the catalog uses, with the server capability behind each
// and, for a server without it, what a model can use instead.
var codeMethods = []struct {
	method, capability, instead string
}{
	{"textDocument/documentSymbol", "documentSymbolProvider", "target by line with matchText instead of symbol, and read the file for its outline"},
	{"workspace/symbol", "workspaceSymbolProvider", "search the files for the name, or list one file's symbols with code_symbols and path alone"},
	{"textDocument/definition", "definitionProvider", "search the files for the name's declaration"},
	{"textDocument/typeDefinition", "typeDefinitionProvider", "use code_hover for the type's name, then kind definition on it"},
	{"textDocument/declaration", "declarationProvider", "use kind definition"},
	{"textDocument/implementation", "implementationProvider", "use code_symbols with the member's name as query (and path any file of the language) to list same-named members of other types"},
	{"textDocument/references", "referencesProvider", "search the files for the name"},
	{"textDocument/hover", "hoverProvider", "use code_navigate with kind definition and includeBody to read the declaration"},
	{"textDocument/signatureHelp", "signatureHelpProvider", "use code_hover on the called function's name"},
	{"textDocument/prepareCallHierarchy", "callHierarchyProvider", "use code_navigate with kind references for callers, or kind definition with includeBody to read what it calls"},
	{"textDocument/prepareTypeHierarchy", "typeHierarchyProvider", "for supertypes, code_navigate with kind definition and includeBody on the type shows the parents it declares; for subtypes, search the files for the type's name in class, extends or implements declarations"},
	{"textDocument/inlayHint", "inlayHintProvider", "use code_hover on a name to see its type"},
	{"textDocument/diagnostic", "diagnosticProvider", "diagnostics come from the server's publishDiagnostics notifications instead"},
	{"textDocument/rename", "renameProvider", "edit each reference yourself: code_navigate with kind references lists them"},
	{"textDocument/formatting", "documentFormattingProvider", "run the language's formatter yourself, or leave the formatting as it is"},
	{"textDocument/rangeFormatting", "documentRangeFormattingProvider", "format the whole file (leave out range)"},
	{"textDocument/codeAction", "codeActionProvider", "make the change yourself with edit or code_replace"},
	{"workspace/willRenameFiles", "workspace.fileOperations.willRename", "the file is renamed without updating what imports it: search the files for its old name"},
}

// CodeMethodSupported reports whether a negotiated server offers method.
// Methods the catalog does not list are not checked (true).
func CodeMethodSupported(methods map[string]bool, method string) bool {
	for _, m := range codeMethods {
		if m.method == method {
			return methods[method]
		}
	}
	return true
}

// UnsupportedMethod is LSP_UNSUPPORTED_OPERATION for a server without
// method, naming what to use instead. server names it ("" when unknown).
func UnsupportedMethod(method, server string) *Error {
	who := "the language server"
	if server != "" {
		who = "language server " + strconv.Quote(clip(server, 80))
	}
	for _, m := range codeMethods {
		if m.method == method {
			err := Errorf(CodeUnsupportedOperation, "%s does not offer %s (no %s in its capabilities); %s", who, method, m.capability, m.instead)
			err.Instead = m.instead
			return err
		}
	}
	return Errorf(CodeUnsupportedOperation, "%s does not offer %s", who, clip(method, 80))
}

// NavigateMethod maps code_navigate's kind to its LSP method.
func NavigateMethod(kind string) (string, bool) {
	switch kind {
	case "definition", "typeDefinition", "declaration", "implementation", "references":
		return "textDocument/" + kind, true
	}
	return "", false
}

// HierarchyMethods maps code_hierarchy's kind to its prepare method and
// its expansion method.
func HierarchyMethods(kind string) (prepare, expand string, ok bool) {
	switch kind {
	case "callers":
		return "textDocument/prepareCallHierarchy", "callHierarchy/incomingCalls", true
	case "callees":
		return "textDocument/prepareCallHierarchy", "callHierarchy/outgoingCalls", true
	case "supertypes":
		return "textDocument/prepareTypeHierarchy", "typeHierarchy/supertypes", true
	case "subtypes":
		return "textDocument/prepareTypeHierarchy", "typeHierarchy/subtypes", true
	}
	return "", "", false
}

// CodeRequestInput is what a catalog request is built from.
type CodeRequestInput struct {
	Method   string
	URI      string
	Position Position   // positional methods
	Query    string     // workspace/symbol
	Text     string     // textDocument/inlayHint: the file, for its range
	Lines    *LineRange // textDocument/inlayHint, rangeFormatting: one-based lines; nil = all
	NewName  string     // textDocument/rename
	// textDocument/codeAction: the file's diagnostics (those in the range
	// go into the request's context) and the kinds asked for.
	Diagnostics RawJSON
	Only        []string
}

// CodeRequestValue is one request: its method and params.
type CodeRequestValue struct {
	Method string
	Params RawJSON
}

func (r CodeRequestValue) appendJSON(b []byte) []byte {
	b = append(b, `{"method":`...)
	b = appendString(b, r.Method)
	b = append(b, `,"params":`...)
	b = r.Params.appendJSON(b)
	return append(b, '}')
}

// CodeRequest builds the params of one catalog request.
func CodeRequest(in CodeRequestInput) (CodeRequestValue, *Error) {
	req := CodeRequestValue{Method: in.Method}
	td := func(b []byte) []byte {
		b = append(b, `{"textDocument":{"uri":`...)
		return appendString(b, in.URI)
	}
	pos := func(b []byte) []byte {
		b = td(b)
		b = append(b, `},"position":`...)
		return in.Position.appendJSON(b)
	}
	if in.Method != "workspace/symbol" {
		if _, ok := WorkspacePath(in.URI); !ok {
			return req, Errorf(CodeInvalidArgument, "uri must be a file: URI, got %q", clip(in.URI, 200))
		}
	}
	var b []byte
	switch in.Method {
	case "textDocument/documentSymbol":
		b = append(td(b), "}}"...)
	case "workspace/symbol":
		b = append(b, `{"query":`...)
		b = appendString(b, in.Query)
		b = append(b, '}')
	case "textDocument/references":
		b = append(pos(b), `,"context":{"includeDeclaration":true}}`...)
	case "textDocument/definition", "textDocument/typeDefinition", "textDocument/declaration", "textDocument/implementation",
		"textDocument/hover", "textDocument/signatureHelp", "textDocument/prepareCallHierarchy", "textDocument/prepareTypeHierarchy":
		b = append(pos(b), '}')
	case "textDocument/prepareRename":
		b = append(pos(b), '}')
	case "textDocument/rename":
		b = append(pos(b), `,"newName":`...)
		b = appendString(b, in.NewName)
		b = append(b, '}')
	case "textDocument/formatting", "textDocument/rangeFormatting":
		b = append(td(b), '}')
		if in.Method == "textDocument/rangeFormatting" {
			r, err := inlayRange(in.Text, in.Lines)
			if err != nil {
				return req, err
			}
			b = append(b, `,"range":`...)
			b = r.appendJSON(b)
		}
		tab, spaces := detectIndent(in.Text)
		b = append(b, `,"options":{"tabSize":`...)
		b = appendInt(b, int64(tab))
		b = append(b, `,"insertSpaces":`...)
		b = appendBool(b, spaces)
		b = append(b, `,"trimTrailingWhitespace":true,"insertFinalNewline":true,"trimFinalNewlines":true}}`...)
	case "textDocument/codeAction":
		r, err := inlayRange(in.Text, in.Lines)
		if err != nil {
			return req, err
		}
		b = append(td(b), `},"range":`...)
		b = r.appendJSON(b)
		b = append(b, `,"context":{"diagnostics":[`...)
		n := 0
		gjson.Parse(string(in.Diagnostics)).ForEach(func(_, d gjson.Result) bool {
			dr, problem := rangeOf(get(d, "range"), at{index: -1}, "range")
			if problem == "" && !positionLess(dr.End, r.Start) && !positionLess(r.End, dr.Start) {
				if n > 0 {
					b = append(b, ',')
				}
				b = append(b, d.Raw...)
				n++
			}
			return true
		})
		b = append(b, ']')
		if len(in.Only) > 0 {
			b = append(b, `,"only":`...)
			b = appendStrings(b, in.Only)
		}
		b = append(b, `,"triggerKind":1}}`...)
	case "textDocument/inlayHint":
		r, err := inlayRange(in.Text, in.Lines)
		if err != nil {
			return req, err
		}
		b = append(td(b), `},"range":`...)
		b = r.appendJSON(b)
		b = append(b, '}')
	default:
		return req, Errorf(CodeInvalidArgument, "codeRequest builds the catalog's requests only, not %q", clip(in.Method, 80))
	}
	req.Params = RawJSON(b)
	return req, nil
}

// inlayRange is the zero-based range of lines (whole lines, the last one
// to its end in UTF-16 code units), clamped to the file.
func inlayRange(text string, lines *LineRange) (Range, *Error) {
	all := SplitLines(text)
	if len(all) == 0 {
		all = []string{""} // an empty file is one empty line
	}
	last := len(all) - 1
	start, end := 0, last
	if lines != nil {
		if lines.StartLine > int64(len(all)) {
			return Range{}, Errorf(CodeInvalidArgument, "range.startLine %d is past the end of the file, which has %d lines", lines.StartLine, len(all))
		}
		start = int(lines.StartLine - 1)
		end = int(min(lines.EndLine-1, int64(last)))
	}
	return Range{
		Start: Position{Line: uint32(start)},
		End:   Position{Line: uint32(end), Character: uint32(columnOfByteOffset(all[end], len(all[end])))},
	}, nil
}

// codeRequestCall: {method, uri, position?, query?, text?, range?,
// methods?, server?} → {method, params}. With methods (the negotiation's
// map), a method the server lacks is LSP_UNSUPPORTED_OPERATION naming what
// to use instead.
func codeRequestCall(in gjson.Result) (jsonAppender, *Error) {
	ri, err := decodeCodeRequest(in, nil)
	if err != nil {
		return nil, err
	}
	return wrap(CodeRequest(ri))
}

// decodeCodeRequest reads codeRequest's input and checks its method
// against the negotiation's methods. at, when set, is the position
// (resolveTarget's request: the target it resolved), and the input's is
// not read.
func decodeCodeRequest(in gjson.Result, at *Position) (CodeRequestInput, *Error) {
	m := get(in, "method")
	if m.Type != gjson.String {
		return CodeRequestInput{}, Errorf(CodeInvalidArgument, "method must be an LSP method name, got %s", describe(m))
	}
	if ms := get(in, "methods"); ms.Exists() && ms.Type != gjson.Null {
		if !ms.IsObject() {
			return CodeRequestInput{}, Errorf(CodeInvalidArgument, "methods must be the negotiation's {method: bool} map, got %s", describe(ms))
		}
		have := map[string]bool{}
		ms.ForEach(func(k, v gjson.Result) bool {
			have[k.Str] = v.Type == gjson.True
			return true
		})
		if !CodeMethodSupported(have, m.Str) {
			return CodeRequestInput{}, UnsupportedMethod(m.Str, get(in, "server").String())
		}
	}
	ri := CodeRequestInput{Method: m.Str, URI: get(in, "uri").String(), Query: get(in, "query").String(), Text: get(in, "text").String(), NewName: get(in, "newName").String()}
	if d := get(in, "diagnostics"); d.IsArray() {
		ri.Diagnostics = RawJSON(d.Raw)
	}
	get(in, "only").ForEach(func(_, k gjson.Result) bool {
		ri.Only = append(ri.Only, k.String())
		return true
	})
	if at != nil {
		ri.Position = *at
	} else if p := get(in, "position"); p.Exists() {
		line, ok1 := integer(get(p, "line"), 0, maxUint31)
		char, ok2 := integer(get(p, "character"), 0, maxUint31)
		if !ok1 || !ok2 {
			return CodeRequestInput{}, Errorf(CodeInvalidArgument, "position must be {line, character} (zero-based), got %s", describe(p))
		}
		ri.Position = Position{Line: uint32(line), Character: uint32(char)}
	}
	if r := get(in, "range"); r.Exists() && r.Type != gjson.Null {
		lr, problem := decodeLineRange(r)
		if problem != "" {
			return CodeRequestInput{}, Errorf(CodeInvalidArgument, "%s", problem)
		}
		ri.Lines = &lr
	}
	return ri, nil
}

// detectIndent guesses a file's indentation for formatting options: tabs
// when indented lines start with one, else the most common step between
// the indentation of consecutive lines (2, 4, …; ties to the smaller;
// block-comment continuation lines, " * …", do not count), and 4 spaces
// for a file with no indentation.
func detectIndent(text string) (tabSize int, insertSpaces bool) {
	steps := map[int]int{}
	tabs, prev := 0, 0
	for _, line := range SplitLines(text) {
		body := strings.TrimLeft(line, " \t")
		if body == "" || strings.HasPrefix(body, "*") {
			continue
		}
		if strings.HasPrefix(line, "\t") {
			tabs++
			continue
		}
		n := len(line) - len(strings.TrimLeft(line, " "))
		if d := n - prev; d > 0 && d <= 8 {
			steps[d]++
		} else if d < 0 && -d <= 8 {
			steps[-d]++
		}
		prev = n
	}
	best, count := 0, 0
	for d := 1; d <= 8; d++ {
		if steps[d] > count {
			best, count = d, steps[d]
		}
	}
	if tabs > count {
		return 4, false
	}
	if best == 0 {
		return 4, true
	}
	return best, true
}
