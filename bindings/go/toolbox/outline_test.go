package toolbox

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/internal/testenv"
)

// outlineSession answers documentSymbol with one function. With barrier,
// it answers only once every one of want requests has arrived: a caller
// that asks one after another never gets its first answer (it waits until
// ctx ends). It counts the requests in flight at once.
type outlineSession struct {
	lspseam.Session // the methods the test does not use panic
	concurrent      bool
	barrier         bool
	want            int
	mu              sync.Mutex
	arrived         int
	inFlight, most  int
	all             chan struct{}
}

func (s *outlineSession) Server() string { return "outline" }

func (s *outlineSession) Policy() lspseam.Readiness {
	return lspseam.Readiness{ConcurrentRequests: s.concurrent}
}

func (s *outlineSession) Request(ctx context.Context, method string, _ json.RawMessage) (json.RawMessage, error) {
	if method != "textDocument/documentSymbol" {
		return nil, lspseam.Errorf(lspseam.CodeUnsupportedOperation, "only documentSymbol, got %s", method)
	}
	s.mu.Lock()
	s.inFlight++
	s.most = max(s.most, s.inFlight)
	if s.arrived++; s.arrived == s.want {
		close(s.all)
	}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.inFlight--
		s.mu.Unlock()
	}()
	if s.barrier {
		select {
		case <-s.all:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return json.RawMessage(`[{"name":"F","kind":12,"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":9}},"selectionRange":{"start":{"line":0,"character":5},"end":{"line":0,"character":6}}}]`), nil
}

var outlineFiles = []lspseam.SourceFile{
	{Path: "a.go", URI: "file:///ws/a.go", Text: "func F() {}\n"},
	{Path: "b.go", URI: "file:///ws/b.go", Text: "func F() {} // b\n"},
	{Path: "c.go", URI: "file:///ws/c.go", Text: "func F() {} // c\n"},
}

// The outlines of an answer's files are asked of a server whose policy
// allows it together (one that answers only when all the requests are
// in answers them all), and come back in the files' order.
func TestFileOutlinesAskTogether(t *testing.T) {
	tb := newOutlineToolbox(t)
	s := &outlineSession{concurrent: true, barrier: true, want: len(outlineFiles), all: make(chan struct{})}
	ctx, cancel := context.WithTimeout(context.Background(), testenv.StepBudget(t))
	defer cancel()
	outs, errs := tb.fileOutlines(ctx, s, outlineFiles)
	for i, f := range outlineFiles {
		if errs[i] != nil {
			t.Fatalf("%s: %v (were the outlines asked one after another?)", f.Path, errs[i])
		}
		if len(outs[i]) != 1 || outs[i][0].Name != "F" {
			t.Errorf("%s: outline %+v", f.Path, outs[i])
		}
	}
}

// Any other server is asked one outline at a time: intelephense, asked
// several at once, left a member out of one in about half the runs.
func TestFileOutlinesOneAtATimeUnlessAllowed(t *testing.T) {
	tb := newOutlineToolbox(t)
	s := &outlineSession{want: len(outlineFiles), all: make(chan struct{})}
	outs, errs := tb.fileOutlines(context.Background(), s, outlineFiles)
	for i, f := range outlineFiles {
		if errs[i] != nil || len(outs[i]) != 1 {
			t.Fatalf("%s: %+v, %v", f.Path, outs[i], errs[i])
		}
	}
	if s.arrived != len(outlineFiles) || s.most != 1 {
		t.Errorf("%d requests, at most %d at once; want %d, one at a time", s.arrived, s.most, len(outlineFiles))
	}
}

func newOutlineToolbox(t *testing.T) *Toolbox {
	t.Helper()
	c := newTestCore(t)
	tb, err := NewToolbox(context.Background(), c, lspseam.NewService(c), "code")
	if err != nil {
		t.Fatal(err)
	}
	return tb
}
