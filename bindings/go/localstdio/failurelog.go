package localstdio

import (
	"encoding/json"
	"regexp"
	"sync"
	"sync/atomic"

	"github.com/sourcegraph/jsonrpc2"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// A server that stays up after what answers for it died: the readiness
// policy's FailureLog (core/readiness.go) is a message it writes then
// (typescript-language-server: "[tsserver] Exited. Code: … Signal: …"
// when its tsserver child dies), after which it answers every request
// with nothing. Such a message is the server's crash: the instance is
// invalidated — the one path a process exit takes — so the request in
// flight fails with LSP_SERVER_FAILED naming the message and the next
// query starts a fresh server. The message is matched on the read loop,
// in order with the answers: one read before it stands, one read after
// it fails even when it reached its caller before the connection closed.

type failureLog struct {
	re   atomic.Pointer[regexp.Regexp] // nil before the negotiation, or when the policy has none
	seen atomic.Bool                   // a message matched
	// after holds the ids of the responses read once seen was set.
	after sync.Map
}

// watch sets the policy's pattern.
func (f *failureLog) watch(re *regexp.Regexp) { f.re.Store(re) }

// matches reports whether text is the failure message.
func (f *failureLog) matches(text string) bool {
	re := f.re.Load()
	return re != nil && re.MatchString(text)
}

// received notes a response read on the read loop.
func (f *failureLog) received(id jsonrpc2.ID) {
	if f.seen.Load() {
		f.after.Store(id, true)
	}
}

// readAfter reports (once) whether the response to id was read after the
// failure message.
func (f *failureLog) readAfter(id jsonrpc2.ID) bool {
	_, ok := f.after.LoadAndDelete(id)
	return ok
}

// serverMessage looks at a window/logMessage or window/showMessage the
// server sent (on the read loop): the failure message invalidates the
// instance.
func (in *instance) serverMessage(method string, params *json.RawMessage) {
	if params == nil || in.failures.re.Load() == nil {
		return
	}
	var m struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(*params, &m) != nil || !in.failures.matches(m.Message) {
		return
	}
	in.failed(method, m.Message)
}

// failed invalidates the instance for the failure message text, sent as
// method.
func (in *instance) failed(method, text string) {
	in.failures.seen.Store(true)
	verb := "logged"
	if method == "window/showMessage" {
		verb = "showed"
	}
	in.log.Warn("language server reported that it can no longer answer", "method", method, "message", clip(text, 300))
	in.invalidate(lspseam.Errorf(lspseam.CodeServerFailed,
		"language server %q can no longer answer: it %s %q, which means what answers for it stopped (its answers since would be empty, not true); it was stopped, and the next call starts it again — ask again",
		in.server.ID, verb, clip(text, 300)))
}

// failureInKeptLogs looks for the failure message among the log messages
// that arrived before the negotiation named the pattern (a backend that
// died while the server started).
func (in *instance) failureInKeptLogs() {
	for _, text := range in.progress.keptLogs() {
		if in.failures.matches(text) {
			in.failed("window/logMessage", text)
			return
		}
	}
}
