package toolbox

import (
	"container/list"
	"encoding/json"
	"hash/maphash"
	"sync"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// symbolCache keeps servers' textDocument/documentSymbol answers by
// server, document and content: an outline is a function of the
// document's text, so an answer for the same bytes is reused instead of
// asked again (a by-name call asks for the target file's symbols and, to
// name each location's enclosing symbol, the result files'). A changed
// file has another key, so a cached outline is never stale; the least
// recently used entries go beyond maxSymbolOutlines. Beside the raw
// answer an entry keeps its flattening by the core (outline.go), so a
// query never hands the core a whole outline again.
//
// A symbolCache is safe for concurrent use.
type symbolCache struct {
	seed maphash.Seed

	mu      sync.Mutex
	order   *list.List // of *symbolEntry, most recent first
	entries map[symbolKey]*list.Element
}

// maxSymbolOutlines bounds the cache (outlines are a few kB each).
const maxSymbolOutlines = 512

type symbolKey struct {
	server, uri string
	text        uint64 // maphash of the document's text
}

type symbolEntry struct {
	key     symbolKey
	symbols json.RawMessage // nil: not kept (only the outline is)
	// outline is the core's flattening of symbols (outline.go), nil until
	// a query needed it.
	outline []lspseam.OutlineEntry
}

func newSymbolCache() *symbolCache {
	return &symbolCache{seed: maphash.MakeSeed(), order: list.New(), entries: map[symbolKey]*list.Element{}}
}

func (c *symbolCache) key(server, uri, text string) symbolKey {
	return symbolKey{server, uri, maphash.String(c.seed, text)}
}

func (c *symbolCache) get(k symbolKey) (json.RawMessage, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[k]
	if !ok || e.Value.(*symbolEntry).symbols == nil {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*symbolEntry).symbols, true
}

// getOutline returns the flattened outline kept for k.
func (c *symbolCache) getOutline(k symbolKey) ([]lspseam.OutlineEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[k]
	if !ok || e.Value.(*symbolEntry).outline == nil {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*symbolEntry).outline, true
}

// putOutline keeps the flattened outline of k's symbols.
func (c *symbolCache) putOutline(k symbolKey, outline []lspseam.OutlineEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[k]; ok {
		e.Value.(*symbolEntry).outline = outline
		c.order.MoveToFront(e)
		return
	}
	c.add(&symbolEntry{key: k, outline: outline})
}

func (c *symbolCache) put(k symbolKey, symbols json.RawMessage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[k]; ok {
		e.Value.(*symbolEntry).symbols = symbols
		c.order.MoveToFront(e)
		return
	}
	c.add(&symbolEntry{key: k, symbols: symbols})
}

// add puts a new entry first, dropping the least recently used beyond
// the bound. Under mu.
func (c *symbolCache) add(e *symbolEntry) {
	c.entries[e.key] = c.order.PushFront(e)
	for c.order.Len() > maxSymbolOutlines {
		last := c.order.Back()
		delete(c.entries, last.Value.(*symbolEntry).key)
		c.order.Remove(last)
	}
}
