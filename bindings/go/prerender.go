package lspseam

import (
	"context"
	"sync"
)

// Rendering in the provider: a caller that will render a Query's result
// (the lsp tool: query, then render) asks for it with WithRendering, and a
// provider that supports it translates and renders in one call into the
// module (Core.TranslateRender) instead of leaving a second call to the
// caller. Each call into the module costs 250–350 µs when it follows a
// pause such as waiting for the language server, so this saves one per
// answer. The request rides on the context, as the queued hook does, so
// Provider.Query and Result keep their shapes: a provider that ignores it
// is still correct, and the caller renders as before.

type renderingKey struct{}

// Rendering is where a provider leaves the text of the result it
// returns, for the caller of Query that asked with WithRendering.
type Rendering struct {
	limits Limits

	mu           sync.Mutex
	rendered     Rendered
	workspaceURI string
	result       *Result // the result it was rendered from (nil: none yet)
}

// WithRendering returns a context that asks the provider answering a
// Query to render its result within limits, and the Rendering it leaves
// the text in.
func WithRendering(ctx context.Context, limits Limits) (context.Context, *Rendering) {
	r := &Rendering{limits: limits}
	return context.WithValue(ctx, renderingKey{}, r), r
}

// RenderingOf is the Rendering a Query's caller asked for (nil: none).
// Providers call it to decide between Translate and TranslateRender.
func RenderingOf(ctx context.Context) *Rendering {
	r, _ := ctx.Value(renderingKey{}).(*Rendering)
	return r
}

// Limits are the limits the caller will render with.
func (r *Rendering) Limits() Limits { return r.limits }

// Set records the text of res as rendered for workspaceURI. A provider
// calls it with the Result it returns, unchanged after rendering.
func (r *Rendering) Set(res Result, workspaceURI string, rendered Rendered) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.result, r.workspaceURI, r.rendered = &res, workspaceURI, rendered
}

// For is the text the provider rendered for res and workspaceURI; ok is
// false when it rendered none, or for another workspace or result (the
// caller then calls Render).
func (r *Rendering) For(res Result, workspaceURI string) (Rendered, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.result == nil || r.workspaceURI != workspaceURI || !sameResult(*r.result, res) {
		return Rendered{}, false
	}
	return r.rendered, true
}

// sameResult reports whether b is the Result a was (a copy of it, not
// changed since): the same scalars, and the same location and hover
// storage, which a provider hands over without copying.
func sameResult(a, b Result) bool {
	if a.Kind != b.Kind || a.WorkspaceURI != b.WorkspaceURI || a.Incomplete != b.Incomplete || a.Subject != b.Subject ||
		a.Hover != b.Hover || len(a.Locations) != len(b.Locations) {
		return false
	}
	return len(a.Locations) == 0 || &a.Locations[0] == &b.Locations[0]
}
