package core

import (
	"strconv"

	"github.com/tidwall/gjson"
)

// Outlines: a file's document symbols flattened and placed once, so that
// a query passes the core only the entries it needs.
//
// Flattening reads the server's whole documentSymbol answer and places
// each name on the file's text (symbols.go): it must see the whole
// document. A host that asks about a file again and again (every by-name
// call reads the target file's outline and the outline of each file in
// its answer) calls flattenSymbols once per version of the file, keeps
// the entries, and hands resolveTarget, planSnippets and codeLocations
// only those a query can use: the symbols whose name could be the target
// (a substring of the query), or whose lines hold a location. A subset
// that keeps the entries' order answers exactly as the whole outline does
// (EnclosingSymbol and SymbolAt only look at symbols holding the
// position; a symbol target only at the symbols of its name), except a
// name found in none of them: the nearest names need every symbol, so
// the host asks again with the whole outline on LSP_TARGET_NOT_FOUND.

// Outline is flattenSymbols' answer: the file's symbols, flattened and
// placed, in document order.
type Outline struct {
	Symbols []Symbol
}

func (o Outline) appendJSON(b []byte) []byte {
	b = append(b, `{"symbols":`...)
	b = appendArray(b, o.Symbols)
	return append(b, '}')
}

// appendJSON writes an outline entry: {name, kind, container?, range,
// selectionRange}.
func (s Symbol) appendJSON(b []byte) []byte {
	b = append(b, `{"name":`...)
	b = appendString(b, s.Name)
	b = append(b, `,"kind":`...)
	b = strconv.AppendInt(b, int64(s.Kind), 10)
	if s.Container != "" {
		b = append(b, `,"container":`...)
		b = appendString(b, s.Container)
	}
	b = append(b, `,"range":`...)
	b = s.Range.appendJSON(b)
	b = append(b, `,"selectionRange":`...)
	b = s.Selection.appendJSON(b)
	return append(b, '}')
}

// flattenSymbolsCall: {symbols, text} → Outline. symbols is the server's
// raw textDocument/documentSymbol result, text the file's whole text.
func flattenSymbolsCall(in gjson.Result) (jsonAppender, *Error) {
	f := fields(in, "symbols", "text")
	if f[1].Type != gjson.String {
		return nil, Errorf(CodeInvalidArgument, "text must be the file's text as a string, got %s", describe(f[1]))
	}
	syms, err := FlattenSymbols(f[0], f[1].Str)
	if err != nil {
		return nil, err
	}
	return Outline{Symbols: syms}, nil
}

// decodeOutline reads outline entries (flattenSymbols' symbols, or any
// subset of them in the same order): through scanOutline when it can,
// else through gjson, which also explains a malformed entry.
func decodeOutline(v gjson.Result, where string) ([]Symbol, *Error) {
	if out, ok := scanOutline(v.Raw); ok {
		return out, nil
	}
	return decodeOutlineGeneral(v, where)
}

// decodeOutlineGeneral is decodeOutline through gjson.
func decodeOutlineGeneral(v gjson.Result, where string) ([]Symbol, *Error) {
	if !v.IsArray() {
		return nil, Errorf(CodeInvalidArgument, "%s must be an array of flattenSymbols entries {name, kind, container?, range, selectionRange}, got %s", where, describe(v))
	}
	out := []Symbol{}
	var problem string
	i := 0
	v.ForEach(func(_, e gjson.Result) bool {
		w := at{where, i}
		i++
		if !e.IsObject() {
			problem = w.String() + " must be an object {name, kind, container?, range, selectionRange}, got " + describe(e)
			return false
		}
		f := fields(e, "name", "kind", "container", "range", "selectionRange")
		var s Symbol
		if f[0].Type != gjson.String {
			problem = w.field("name") + " must be a string, got " + describe(f[0])
			return false
		}
		s.Name = f[0].Str
		k, ok := integer(f[1], 1, maxUint31)
		if !ok {
			problem = w.field("kind") + " must be a SymbolKind number, got " + describe(f[1])
			return false
		}
		s.Kind = SymbolKind(k)
		if f[2].Exists() && f[2].Type != gjson.Null {
			if f[2].Type != gjson.String {
				problem = w.field("container") + " must be a string, got " + describe(f[2])
				return false
			}
			s.Container = f[2].Str
		}
		if s.Range, problem = rangeOf(f[3], w, "range"); problem != "" {
			return false
		}
		if s.Selection, problem = rangeOf(f[4], w, "selectionRange"); problem != "" {
			return false
		}
		out = append(out, s)
		return true
	})
	if problem != "" {
		return nil, &Error{Code: CodeInvalidArgument, Message: problem}
	}
	return out, nil
}

// decodeLineChunks reads [{start, lines}]: chunks of a file's lines from
// a zero-based start, without terminators.
func decodeLineChunks(v gjson.Result, where string) (fileChunks, *Error) {
	if !v.IsArray() {
		return nil, Errorf(CodeInvalidArgument, "%s must be an array of {start, lines}, got %s", where, describe(v))
	}
	var out fileChunks
	var err *Error
	i := 0
	v.ForEach(func(_, c gjson.Result) bool {
		f := fields(c, "start", "lines")
		start, ok := integer(f[0], 0, maxUint31)
		if !c.IsObject() || !ok || (!f[1].IsArray() && f[1].Type != gjson.Null) {
			err = Errorf(CodeInvalidArgument, "%s[%d] must be {start, lines}: start a zero-based line number, lines an array of strings; got %s", where, i, describe(c))
			return false
		}
		chunk := LineChunk{Start: uint32(start)}
		f[1].ForEach(func(_, l gjson.Result) bool {
			if l.Type != gjson.String {
				err = Errorf(CodeInvalidArgument, "%s[%d].lines must hold strings, got %s", where, i, describe(l))
				return false
			}
			chunk.Lines = append(chunk.Lines, l.Str)
			return true
		})
		out = append(out, chunk)
		i++
		return err == nil
	})
	return out, err
}

// members reads an object's members of the given names in one pass (the
// first of a duplicated name), as fields does for up to six: a get per
// name walks the object from its start each time, past every large value
// before the name.
func members(v gjson.Result, names ...string) []gjson.Result {
	out := make([]gjson.Result, len(names))
	v.ForEach(func(k, val gjson.Result) bool {
		for i, name := range names {
			if k.Str == name && !out[i].Exists() {
				out[i] = val
			}
		}
		return true
	})
	return out
}
