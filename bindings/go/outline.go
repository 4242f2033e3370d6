package lspseam

import (
	"context"
)

// Outlines on the query path (core/outline.go): a file's document symbols
// are flattened by the core once per version of the file and kept
// (symbolCache); a query then hands the core only the entries and lines
// it can use, never the whole file and outline.

// OutlineEntry is one entry of a flattened outline (FlattenSymbols):
// the name as written, its LSP SymbolKind, the qualified name of the
// symbol it is in, its whole range and the range of its name (placed on
// the text).
type OutlineEntry struct {
	Name           string `json:"name"`
	Kind           int    `json:"kind"`
	Container      string `json:"container,omitempty"`
	Range          Range  `json:"range"`
	SelectionRange Range  `json:"selectionRange"`
}

// FlattenSymbols flattens a server's textDocument/documentSymbol result
// for the file whose text is given: the entries in document order. It
// reads the whole text (each name is placed on it); call it once per
// version of a file.
func (c *Core) FlattenSymbols(ctx context.Context, symbols []byte, text string) ([]OutlineEntry, error) {
	var v struct {
		Symbols []OutlineEntry `json:"symbols"`
	}
	in := struct {
		Symbols rawOrNull `json:"symbols"`
		Text    string    `json:"text"`
	}{rawOrNull(symbols), text}
	return v.Symbols, c.Invoke(ctx, "flattenSymbols", in, &v)
}

// rawOrNull is raw JSON, null when empty.
type rawOrNull []byte

func (r rawOrNull) MarshalJSON() ([]byte, error) {
	if len(r) == 0 {
		return []byte("null"), nil
	}
	return r, nil
}
