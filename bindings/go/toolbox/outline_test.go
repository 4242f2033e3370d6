package toolbox

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/internal/testenv"
)

// barrierSession answers documentSymbol only once every one of want
// requests has arrived: a caller that asks one after another never gets
// its first answer (it waits until ctx ends).
type barrierSession struct {
	lspseam.Session // the methods the test does not use panic
	want            int
	mu              sync.Mutex
	arrived         int
	all             chan struct{}
}

func (s *barrierSession) Server() string { return "barrier" }

func (s *barrierSession) Request(ctx context.Context, method string, _ json.RawMessage) (json.RawMessage, error) {
	if method != "textDocument/documentSymbol" {
		return nil, lspseam.Errorf(lspseam.CodeUnsupportedOperation, "only documentSymbol, got %s", method)
	}
	s.mu.Lock()
	if s.arrived++; s.arrived == s.want {
		close(s.all)
	}
	s.mu.Unlock()
	select {
	case <-s.all:
		return json.RawMessage(`[{"name":"F","kind":12,"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":9}},"selectionRange":{"start":{"line":0,"character":5},"end":{"line":0,"character":6}}}]`), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// TestFileOutlinesAskTogether: the outlines of an answer's files are
// asked of the server together (a server that answers only when all the
// requests are in answers them all), and come back in the files' order.
func TestFileOutlinesAskTogether(t *testing.T) {
	tb := newOutlineToolbox(t)
	files := []lspseam.SourceFile{
		{Path: "a.go", URI: "file:///ws/a.go", Text: "func F() {}\n"},
		{Path: "b.go", URI: "file:///ws/b.go", Text: "func F() {} // b\n"},
		{Path: "c.go", URI: "file:///ws/c.go", Text: "func F() {} // c\n"},
	}
	s := &barrierSession{want: len(files), all: make(chan struct{})}
	ctx, cancel := context.WithTimeout(context.Background(), testenv.StepBudget(t))
	defer cancel()
	outs, errs := tb.fileOutlines(ctx, s, files)
	for i := range files {
		if errs[i] != nil {
			t.Fatalf("%s: %v (were the outlines asked one after another?)", files[i].Path, errs[i])
		}
		if len(outs[i]) != 1 || outs[i][0].Name != "F" {
			t.Errorf("%s: outline %+v", files[i].Path, outs[i])
		}
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
