package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/lspseam/lspseam/bindings/go/localstdio"
	"github.com/lspseam/lspseam/internal/gocorpus"
)

// TestLineTargetSendsItsLine: a target by line and matchText in a
// 2,000-line file is resolved from that line and the outline entries
// holding it, not the whole file (issue 23: the core gets only the bytes
// it needs); a matchText not on the line is explained as before, from
// the whole text (the nearest lines that hold it), asked for only then.
func TestLineTargetSendsItsLine(t *testing.T) {
	cb := newCatalogBench(t)
	ws, _ := localstdio.CanonicalWorkspace(cb.large)
	var text string
	for _, f := range cb.corp.Files {
		if f.Path == gocorpus.LargeFile {
			text = f.Text
		}
	}
	line, _ := cb.symbolPos(t, gocorpus.LargeFile, "(*Command).Execute")
	ctx := context.Background()
	resolveInputs := func(args string) (answer string, isError bool, inputs []int) {
		t.Helper()
		calls := cb.traced(func() {
			r := cb.tb.Call(ctx, "code_navigate", json.RawMessage(args), ws.Path)
			answer, isError = r.Text, r.IsError
		})
		for _, c := range calls {
			if c.Method == "resolveTarget" {
				inputs = append(inputs, c.InputBytes)
			}
		}
		return answer, isError, inputs
	}
	target := func(matchText string) string {
		return fmt.Sprintf(`{"target":{"path":%q,"line":%d,"matchText":%q},"kind":"definition","includeBody":true}`, gocorpus.LargeFile, line+1, matchText)
	}

	answer, isError, inputs := resolveInputs(target("Execute"))
	if isError || !strings.Contains(answer, "func (c *Command) Execute(args []string) error {") {
		t.Fatalf("definition by line: %s", answer)
	}
	if len(inputs) != 1 || inputs[0] > len(text)/10 {
		t.Errorf("resolveTarget was called with %v input bytes for a %d-byte file; want one call with its line, not the file", inputs, len(text))
	}

	answer, isError, inputs = resolveInputs(target("NoSuchText"))
	if !isError || !strings.Contains(answer, "It is nowhere in the file") {
		t.Fatalf("matchText not in the file: %s", answer)
	}
	if len(inputs) != 2 || inputs[1] < len(text) {
		t.Errorf("a failed line target made resolveTarget calls of %v input bytes; want its line, then the whole %d-byte text for the explanation", inputs, len(text))
	}
	answer, isError, _ = resolveInputs(target("Name"))
	if !isError || !strings.Contains(answer, "is not on line") || !strings.Contains(answer, "line") {
		t.Fatalf("matchText on other lines: %s", answer)
	}
}
