package localstdio

import (
	"context"
	"encoding/json"
	"sync"
)

// Work-done progress: servers announce loading and indexing with
// window/workDoneProgress/create and $/progress begin … end. lspseam
// advertises window.workDoneProgress so it can tell when a server is
// still loading the project, and wait for that to finish before asking a
// question whose answer depends on it (see readiness in provider.go).

type progressTracker struct {
	mu      sync.Mutex
	active  map[string]string // token → title of work in progress
	began   int               // how many pieces of work ever began
	changed chan struct{}     // closed and replaced on every change
}

func newProgressTracker() *progressTracker {
	return &progressTracker{active: map[string]string{}, changed: make(chan struct{})}
}

func tokenKey(raw json.RawMessage) string { return string(raw) }

// create notes a token the server created (work may begin on it).
func (p *progressTracker) create(params json.RawMessage) {}

// update applies a $/progress notification.
func (p *progressTracker) update(params *json.RawMessage) {
	if params == nil {
		return
	}
	var n struct {
		Token json.RawMessage `json:"token"`
		Value struct {
			Kind  string `json:"kind"`
			Title string `json:"title"`
		} `json:"value"`
	}
	if json.Unmarshal(*params, &n) != nil || len(n.Token) == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch n.Value.Kind {
	case "begin":
		p.active[tokenKey(n.Token)] = n.Value.Title
		p.began++
	case "end":
		delete(p.active, tokenKey(n.Token))
	default:
		return
	}
	close(p.changed)
	p.changed = make(chan struct{})
}

// snapshot returns the titles of work in progress, how much work ever
// began, and a channel closed at the next change.
func (p *progressTracker) snapshot() (titles []string, began int, changed <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, t := range p.active {
		titles = append(titles, t)
	}
	return titles, p.began, p.changed
}

// waitIdle waits until no work is in progress or ctx ends; it reports
// whether the server is idle.
func (p *progressTracker) waitIdle(ctx context.Context) bool {
	for {
		titles, _, changed := p.snapshot()
		if len(titles) == 0 {
			return true
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return false
		}
	}
}
