package localstdio

import (
	"context"
	"sync"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// commandRequestsMemo remembers the core's requests for a file's
// diagnostics through the server's diagnostics command
// (CommandDiagnosticsRequests). They depend on the command and the file's
// URI alone, and a change of many files asks for every file's diagnostics
// before it and after: a 59-file rename on typescript-language-server
// asked the module for the same requests 118 times, 12 ms of its 308 ms
// under the server's load (BenchmarkMultiFileApply). The module is pure,
// so a remembered answer is the answer.
//
// Safe for concurrent use: Session.Check asks for several files at once.
type commandRequestsMemo struct {
	mu     sync.Mutex
	byFile map[commandFile][]lspseam.LSPRequest
}

type commandFile struct{ command, uri string }

// commandRequestsMemoSize bounds the memo: three small requests a file,
// forgotten all at once when full (a workspace's files come back).
const commandRequestsMemoSize = 2048

// requests is c.CommandDiagnosticsRequests(ctx, command, uri), from memory
// when asked before. The requests are shared: callers only read them.
func (m *commandRequestsMemo) requests(ctx context.Context, c *lspseam.Core, command, uri string) ([]lspseam.LSPRequest, error) {
	key := commandFile{command, uri}
	m.mu.Lock()
	reqs, ok := m.byFile[key]
	m.mu.Unlock()
	if ok {
		return reqs, nil
	}
	reqs, err := c.CommandDiagnosticsRequests(ctx, command, uri)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	if m.byFile == nil || len(m.byFile) >= commandRequestsMemoSize {
		m.byFile = map[commandFile][]lspseam.LSPRequest{}
	}
	m.byFile[key] = reqs
	m.mu.Unlock()
	return reqs, nil
}
