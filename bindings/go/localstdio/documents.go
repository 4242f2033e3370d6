package localstdio

import (
	"context"
	"hash/maphash"
	"os"
	"slices"

	"github.com/lspseam/lspseam/core"
)

// The open-document cache: documents a server holds open, verified against
// the disk.
//
// The seed opened the queried file for one query and closed it after, so
// the server always saw the bytes on disk. Keeping documents open is what
// makes a warm server fast (it keeps their analysis), but an open document
// is the client's word for its content: a server stops reading an open
// file from disk. So every open document is re-verified whenever it may
// have changed — the queried document at each query, and any open
// document the file watcher reports — and the server is told exactly what
// is on disk: unchanged bytes send nothing, changed bytes send didChange
// (full text, version + 1), a file that is gone or now rejected by the
// source rules is closed. At most maxOpenDocuments stay open; the least
// recently queried is closed first.
//
// A documentCache belongs to one instance and is used only while that
// instance's workspace turn is held, so it needs no lock.

type openDocument struct {
	path       string
	uri        string
	languageID string
	version    int
	hash       uint64 // of the text the server has
	used       uint64 // the cache's clock when last queried
	synced     uint64 // the diagnostics mark just before its last didOpen/didChange
	// fromDisk: the document has the bytes on disk it was opened with
	// (not a speculative or changed text); then floor is the report mark
	// when the last notification before its didOpen that may change what
	// the server knows of a file's content was sent
	// (Readiness.ReportsUnopened: a later report stands).
	fromDisk bool
	floor    uint64
	// contentEpoch is the store's content epoch after its last sync
	// (resync.go).
	contentEpoch uint64
}

type documentCache struct {
	max   int
	seed  maphash.Seed
	clock uint64
	// rules key the documents: one file is one document however its
	// canonical path is spelled (on macOS and Windows volumes, which
	// ignore case, Foo.go and foo.go are one file).
	rules core.PathRules
	// same reports whether two spellings under one key are one file
	// (sameFile; a volume may tell case apart after all).
	same func(a, b string) bool
	docs map[string]*openDocument // by rules.Key of the canonical path
}

func newDocumentCache(max int, rules core.PathRules) *documentCache {
	if max < 1 {
		max = 1
	}
	return &documentCache{max: max, seed: maphash.MakeSeed(), rules: rules, same: sameFile, docs: map[string]*openDocument{}}
}

// sameFile reports whether the paths a and b name one existing file.
func sameFile(a, b string) bool {
	ia, err := os.Stat(a)
	if err != nil {
		return false
	}
	ib, err := os.Stat(b)
	return err == nil && os.SameFile(ia, ib)
}

// get is the open document of the file at the canonical path p, or nil:
// the document under p's key, when it was opened by this spelling or its
// spelling names the same file (a case-sensitive volume on macOS, or a
// case-sensitive directory on Windows, keeps Foo.go and foo.go apart).
func (c *documentCache) get(p string) *openDocument {
	d := c.docs[c.rules.Key(p)]
	if d == nil || d.path == p || c.same(d.path, p) {
		return d
	}
	return nil
}

// other is the open document of another file whose path has p's key
// (see get), or nil.
func (c *documentCache) other(p string) *openDocument {
	if d := c.docs[c.rules.Key(p)]; d != nil && c.get(p) == nil {
		return d
	}
	return nil
}

// put records d as open.
func (c *documentCache) put(d *openDocument) { c.docs[c.rules.Key(d.path)] = d }

// remove forgets d.
func (c *documentCache) remove(d *openDocument) { delete(c.docs, c.rules.Key(d.path)) }

// paths lists the open documents' canonical paths, each as it was opened.
func (c *documentCache) paths() []string {
	out := make([]string, 0, len(c.docs))
	for _, d := range c.docs {
		out = append(out, d.path)
	}
	slices.Sort(out) // the same set, the same bytes (changesMemo)
	return out
}

func (c *documentCache) hashOf(text string) uint64 { return maphash.String(c.seed, text) }

// ensureOpen makes the server hold src's current bytes as an open
// document.
func (in *instance) ensureOpen(ctx context.Context, src Source, languageID string) error {
	c := in.docs
	c.clock++
	if d := c.get(src.Path); d != nil {
		d.used = c.clock
		return in.syncFromDisk(ctx, d, src.Text)
	}
	if d := c.other(src.Path); d != nil {
		// Two files that only a case-sensitive volume tells apart share
		// a key: the one open is closed, so each keeps its own text.
		if err := in.closeDocument(ctx, d); err != nil {
			return err
		}
	}
	for len(c.docs) >= c.max {
		if err := in.closeDocument(ctx, c.leastRecentlyUsed()); err != nil {
			return err
		}
	}
	d := &openDocument{path: src.Path, uri: src.URI, languageID: languageID, version: 1, used: c.clock, fromDisk: true}
	return in.openDocument(ctx, d, src.Text, c.hashOf(src.Text))
}

// openDocument sends didOpen for d at its version with text, whose hash is
// h, and records d as open.
func (in *instance) openDocument(ctx context.Context, d *openDocument, text string, h uint64) error {
	open := didOpenParams{TextDocument: textDocumentItem{URI: d.uri, LanguageID: d.languageID, Version: d.version, Text: text}}
	synced, floor := in.diags.mark(), in.diags.changedMark()
	// A didOpen of the bytes on disk changes no content the server knows.
	if err := in.send(ctx, "textDocument/didOpen", open, d.fromDisk); err != nil {
		return err
	}
	d.hash = h
	d.synced, d.floor = synced, floor
	d.contentEpoch = in.diags.contentEpochNow()
	in.docs.put(d)
	return nil
}

func (c *documentCache) leastRecentlyUsed() *openDocument {
	var lru *openDocument
	for _, d := range c.docs {
		if lru == nil || d.used < lru.used {
			lru = d
		}
	}
	return lru
}

// syncDocument tells the server about new bytes of an open document, if
// they differ from what it has.
func (in *instance) syncDocument(ctx context.Context, d *openDocument, text string) error {
	h := in.docs.hashOf(text)
	if h == d.hash {
		return nil
	}
	if in.neg.ChangeSync == 0 {
		// The server takes no didChange: close and reopen.
		if err := in.closeDocument(ctx, d); err != nil {
			return err
		}
		d.version++
		d.fromDisk = false // text may be a speculative one
		return in.openDocument(ctx, d, text, h)
	}
	change := didChangeParams{
		TextDocument:   versionedTextDocumentIdentifier{URI: d.uri, Version: d.version + 1},
		ContentChanges: []contentChange{{Text: text}},
	}
	synced := in.diags.mark()
	if err := in.notify(ctx, "textDocument/didChange", change); err != nil {
		return err
	}
	d.version++
	d.hash = h
	d.synced = synced
	d.fromDisk = false
	d.contentEpoch = in.diags.contentEpochNow()
	return nil
}

// reverify re-reads an open document the watcher reported and brings the
// server up to date: didChange when its bytes changed, didClose when it is
// gone or no longer passes the source rules.
func (in *instance) reverify(ctx context.Context, path string) error {
	d := in.docs.get(path)
	if d == nil {
		return nil
	}
	src, err := ReadSource(in.ws, path, in.server.Config.MaxDocumentBytes)
	if err != nil {
		in.log.Debug("open document closed", "path", path, "reason", err)
		return in.closeDocument(ctx, d)
	}
	return in.syncFromDisk(ctx, d, src.Text)
}

// syncFromDisk is syncDocument with text read from the disk: a server
// that asks to be told of saves (Negotiation.Save) hears didSave after the
// didChange, as from an editor that saved the file — clangd rebuilds the
// open files that include a header only on its save.
func (in *instance) syncFromDisk(ctx context.Context, d *openDocument, text string) error {
	version := d.version
	if err := in.syncDocument(ctx, d, text); err != nil {
		return err
	}
	if !in.neg.Save || d.version == version || in.neg.ChangeSync == 0 {
		return nil
	}
	return in.notify(ctx, "textDocument/didSave", didSaveParams{TextDocument: textDocumentIdentifier{URI: d.uri}})
}

// closeDocument sends didClose and forgets the document. When ctx has
// already ended, the close is still written within killGraceMs, so the
// server's view stays consistent with the cache.
func (in *instance) closeDocument(ctx context.Context, d *openDocument) error {
	in.docs.remove(d)
	in.diags.forget(d.uri)
	if ctx.Err() != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.Background(), in.killGrace())
		defer cancel()
	}
	return in.notify(ctx, "textDocument/didClose", didCloseParams{TextDocument: textDocumentIdentifier{URI: d.uri}})
}

// The document notifications' params.
type (
	textDocumentItem struct {
		URI        string `json:"uri"`
		LanguageID string `json:"languageId"`
		Version    int    `json:"version"`
		Text       string `json:"text"`
	}
	textDocumentIdentifier struct {
		URI string `json:"uri"`
	}
	versionedTextDocumentIdentifier struct {
		URI     string `json:"uri"`
		Version int    `json:"version"`
	}
	contentChange struct {
		Text string `json:"text"`
	}
	didOpenParams struct {
		TextDocument textDocumentItem `json:"textDocument"`
	}
	didChangeParams struct {
		TextDocument   versionedTextDocumentIdentifier `json:"textDocument"`
		ContentChanges []contentChange                 `json:"contentChanges"`
	}
	didCloseParams struct {
		TextDocument textDocumentIdentifier `json:"textDocument"`
	}
	didSaveParams struct {
		TextDocument textDocumentIdentifier `json:"textDocument"`
	}
)
