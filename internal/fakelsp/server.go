package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

const (
	codeInternalError    = -32603
	codeMethodNotFound   = -32601
	codeRequestCancelled = -32800

	maxIncomingBody = 1 << 30
)

// defaultNullMethods are answered with a null result when not scripted.
var defaultNullMethods = map[string]bool{
	"textDocument/definition":     true,
	"textDocument/references":     true,
	"textDocument/implementation": true,
	"textDocument/hover":          true,
}

// message is any JSON-RPC message received from the client.
type message struct {
	JSONRPC string          `json:"jsonrpc,omitempty"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   json.RawMessage `json:"error,omitempty"`
}

func (m *message) hasID() bool { return len(m.ID) > 0 && string(m.ID) != "null" }

type outRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
}

type outResult struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
}

type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

type outError struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   rpcError        `json:"error"`
}

// inflight is a scripted client request that has not been answered yet.
type inflight struct {
	ch   chan struct{}
	once sync.Once
}

func (i *inflight) done() <-chan struct{} {
	if i == nil {
		return nil // never fires
	}
	return i.ch
}

func (i *inflight) cancel() { i.once.Do(func() { close(i.ch) }) }

// pending is a server->client request waiting for the client's response.
type pending struct {
	method string
	ch     chan message
}

type server struct {
	sc  *Script
	log *logger
	in  *bufio.Reader

	outMu sync.Mutex
	out   io.Writer
	errMu sync.Mutex
	err   io.Writer

	stopped atomic.Bool

	mu               sync.Mutex
	open             map[string]*document // by URI
	inflight         map[string]*inflight
	pending          map[string]*pending
	nextID           int
	replies          map[*Action]int // how many times each action with results replied
	initReceived     bool
	initResponded    bool
	shutdownReceived bool
}

func newServer(sc *Script, lg *logger, in *bufio.Reader, out, errOut io.Writer) *server {
	return &server{
		sc: sc, log: lg, in: in, out: out, err: errOut,
		open:     map[string]*document{},
		inflight: map[string]*inflight{},
		pending:  map[string]*pending{},
		replies:  map[*Action]int{},
	}
}

// idKey normalizes a JSON-RPC id (number or string) for map lookups.
func idKey(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

// readFrame reads one Content-Length framed body. It returns io.EOF only
// when the input ends cleanly between messages.
func readFrame(r *bufio.Reader) ([]byte, error) {
	length := -1
	first := true
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			if first && line == "" && errors.Is(err, io.EOF) {
				return nil, io.EOF
			}
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, fmt.Errorf("reading header: %w", err)
		}
		first = false
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("malformed header line %q", line)
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 || n > maxIncomingBody {
				return nil, fmt.Errorf("bad Content-Length %q", strings.TrimSpace(value))
			}
			length = n
		}
	}
	if length < 0 {
		return nil, errors.New("missing Content-Length header")
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("reading body: %w", err)
	}
	return body, nil
}

// run is the reading loop; it never returns.
func (s *server) run() {
	for {
		if s.stopped.Load() {
			s.stopForever()
		}
		body, err := readFrame(s.in)
		if errors.Is(err, io.EOF) {
			s.log.event("eof")
			if s.sc.IgnoreShutdown {
				s.log.event("ignored", kv("what", "stdin closed"))
				blockForever()
			}
			s.exit(0, "stdin closed")
		}
		if err != nil {
			s.violation("invalid framing from client", kv("error", err.Error()))
			s.exit(1, "invalid framing from client")
		}
		if s.stopped.Load() {
			s.log.event("unread", kv("bytes", len(body)))
			s.stopForever()
		}
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			s.violation("invalid JSON from client", kv("error", err.Error()), kv("body", truncate(string(body), 200)))
			continue
		}
		switch {
		case m.Method == "" && m.hasID():
			s.onResponse(&m)
		case m.Method == "":
			s.log.event("recv", kv("kind", "unknown"), kv("body", json.RawMessage(body)))
			s.violation("message without method or id")
		case m.hasID():
			s.onRequest(&m)
		default:
			s.onNotification(&m)
		}
	}
}

func (s *server) stopForever() {
	s.log.event("stopReading")
	blockForever()
}

func blockForever() {
	for {
		time.Sleep(time.Hour)
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

func (s *server) violation(what string, fields ...field) {
	s.log.event("violation", append([]field{kv("violation", what)}, fields...)...)
}

func (s *server) exit(code int, reason string) {
	s.log.event("exit", kv("code", code), kv("reason", reason))
	os.Exit(code)
}

func (s *server) onResponse(m *message) {
	key := idKey(m.ID)
	s.mu.Lock()
	p := s.pending[key]
	delete(s.pending, key)
	s.mu.Unlock()
	var to any
	if p != nil {
		to = p.method
	}
	s.log.event("recv", kv("kind", "response"), kv("id", m.ID), kv("result", m.Result), kv("error", m.Error), kv("responseTo", to))
	if p == nil {
		s.violation("response for an unknown request id", kv("id", m.ID))
		return
	}
	p.ch <- *m
}

// checkState logs protocol-order violations.
func (s *server) checkState(m *message) {
	s.mu.Lock()
	initResponded, shutdown := s.initResponded, s.shutdownReceived
	s.mu.Unlock()
	if m.Method == "exit" || m.Method == "$/cancelRequest" {
		return
	}
	if m.Method != "initialize" && !initResponded {
		s.violation("message before initialize response", kv("method", m.Method), kv("id", m.ID))
	}
	if shutdown {
		s.violation("message after shutdown", kv("method", m.Method), kv("id", m.ID))
	}
}

func documentURI(params json.RawMessage) string {
	var p struct {
		TextDocument struct {
			URI string `json:"uri"`
		} `json:"textDocument"`
	}
	_ = json.Unmarshal(params, &p)
	return p.TextDocument.URI
}

func (s *server) openList() []string {
	l := make([]string, 0, len(s.open))
	for u := range s.open {
		l = append(l, u)
	}
	sort.Strings(l)
	return l
}

func (s *server) actionFor(method string) *Action {
	if method == "initialize" && s.sc.Initialize != nil {
		return s.sc.Initialize
	}
	return s.sc.Methods[method]
}

func (s *server) onRequest(m *message) {
	s.log.event("recv", kv("kind", "request"), kv("method", m.Method), kv("id", m.ID), kv("params", m.Params))
	s.checkState(m)
	if strings.HasPrefix(m.Method, "textDocument/") {
		if uri := documentURI(m.Params); uri != "" {
			s.mu.Lock()
			isOpen, open := s.open[uri] != nil, s.openList()
			s.mu.Unlock()
			if !isOpen {
				s.violation("request for a document that is not open", kv("method", m.Method), kv("id", m.ID), kv("uri", uri), kv("open", open))
			}
		}
	}
	switch m.Method {
	case "initialize":
		s.mu.Lock()
		twice := s.initReceived
		s.initReceived = true
		s.mu.Unlock()
		if twice {
			s.violation("initialize received twice", kv("id", m.ID))
		}
	case "shutdown":
		s.mu.Lock()
		s.shutdownReceived = true
		s.mu.Unlock()
	}

	if a := s.actionFor(m.Method); a != nil {
		infl := &inflight{ch: make(chan struct{})}
		key := idKey(m.ID)
		s.mu.Lock()
		_, dup := s.inflight[key]
		s.inflight[key] = infl
		s.mu.Unlock()
		if dup {
			s.violation("duplicate request id in flight", kv("id", m.ID))
		}
		go func() {
			defer func() {
				s.mu.Lock()
				if s.inflight[key] == infl {
					delete(s.inflight, key)
				}
				s.mu.Unlock()
			}()
			s.perform(m, a, infl)
		}()
		return
	}

	switch {
	case m.Method == "initialize":
		s.reply(m, s.initializeResult())
	case m.Method == "shutdown":
		if s.sc.IgnoreShutdown {
			s.log.event("ignored", kv("what", "shutdown"), kv("id", m.ID))
			return
		}
		s.reply(m, nil)
	case defaultNullMethods[m.Method]:
		s.reply(m, nil)
	default:
		s.replyError(m, codeMethodNotFound, "method not found: "+m.Method, nil)
	}
}

func (s *server) onNotification(m *message) {
	s.log.event("recv", kv("kind", "notification"), kv("method", m.Method), kv("params", m.Params))
	s.checkState(m)
	switch m.Method {
	case "textDocument/didOpen":
		s.didOpen(m)
	case "textDocument/didChange":
		s.didChange(m)
	case "textDocument/didClose":
		s.didClose(m)
	case "$/cancelRequest":
		s.cancel(m)
	}
	if a := s.actionFor(m.Method); a != nil {
		if a.hasWaits() {
			go s.perform(m, a, nil)
		} else {
			s.perform(m, a, nil)
		}
		return
	}
	if m.Method == "exit" {
		if s.sc.IgnoreShutdown {
			s.log.event("ignored", kv("what", "exit"))
			return
		}
		s.exit(0, "exit notification")
	}
}

// document is an open document as the client described it.
type document struct {
	version int
	text    string
}

// documentParams reads the document fields of didOpen/didChange.
func documentParams(params json.RawMessage) (uri string, version int, text *string) {
	var p struct {
		TextDocument struct {
			URI     string  `json:"uri"`
			Version int     `json:"version"`
			Text    *string `json:"text"`
		} `json:"textDocument"`
		ContentChanges []struct {
			Range json.RawMessage `json:"range"`
			Text  string          `json:"text"`
		} `json:"contentChanges"`
	}
	_ = json.Unmarshal(params, &p)
	text = p.TextDocument.Text
	for _, c := range p.ContentChanges {
		if len(c.Range) == 0 { // a full-text change
			t := c.Text
			text = &t
		}
	}
	return p.TextDocument.URI, p.TextDocument.Version, text
}

func (s *server) didOpen(m *message) {
	uri, version, text := documentParams(m.Params)
	s.mu.Lock()
	already := s.open[uri] != nil
	d := &document{version: version}
	if text != nil {
		d.text = *text
	}
	s.open[uri] = d
	s.mu.Unlock()
	if already {
		s.violation("document opened twice", kv("uri", uri))
	}
	if a := s.sc.OnDidOpen; a != nil {
		s.perform(m, a, nil)
	}
}

func (s *server) didChange(m *message) {
	uri, version, text := documentParams(m.Params)
	s.mu.Lock()
	d := s.open[uri]
	var was int
	if d != nil {
		was = d.version
		if version > d.version {
			d.version = version
		}
		if text != nil {
			d.text = *text
		}
	}
	s.mu.Unlock()
	switch {
	case d == nil:
		s.violation("change of a document that is not open", kv("uri", uri))
	case version <= was:
		s.violation("document version did not increase", kv("uri", uri), kv("version", version), kv("was", was))
	}
}

func (s *server) didClose(m *message) {
	uri := documentURI(m.Params)
	s.mu.Lock()
	wasOpen := s.open[uri] != nil
	delete(s.open, uri)
	s.mu.Unlock()
	if !wasOpen {
		s.violation("close of a document that is not open", kv("uri", uri))
	}
}

func (s *server) cancel(m *message) {
	var p struct {
		ID json.RawMessage `json:"id"`
	}
	_ = json.Unmarshal(m.Params, &p)
	s.mu.Lock()
	infl := s.inflight[idKey(p.ID)]
	s.mu.Unlock()
	switch {
	case infl == nil:
		s.log.event("cancelIgnored", kv("id", p.ID), kv("reason", "not in flight"))
	case s.sc.IgnoreCancel:
		s.log.event("cancelIgnored", kv("id", p.ID), kv("reason", "ignoreCancel"))
	default:
		infl.cancel()
	}
}

// perform runs a scripted action for a request (infl != nil) or a
// notification (infl == nil).
func (s *server) perform(m *message, a *Action, infl *inflight) {
	done := infl.done()
	isRequest := m.hasID()
	for _, st := range a.Before {
		if !s.step(st, done) {
			s.replyCancelled(m)
			return
		}
	}
	if a.DelayMs > 0 && !sleep(a.DelayMs, done) {
		s.replyCancelled(m)
		return
	}
	if a.StderrBytes > 0 {
		s.flood(a.StderrBytes)
	}
	switch a.Action {
	case "", "reply", "none":
		if isRequest {
			s.reply(m, s.resultFor(m, a))
		}
	case "error":
		if isRequest {
			code, msg := codeInternalError, a.Message
			if a.Code != nil {
				code = *a.Code
			}
			if msg == "" {
				msg = "fakelsp: scripted error"
			}
			s.replyError(m, code, msg, a.Data)
		}
	case "hang":
		s.log.event("hang", kv("method", m.Method), kv("id", m.ID))
		if !isRequest {
			return
		}
		<-done // blocks forever when the request cannot be cancelled
		s.replyCancelled(m)
		return
	case "crash":
		s.die(a, 1, "crash action")
	case "exit":
		s.die(a, 0, "exit action")
	case "garbage":
		raw := "Content-Length: abc\r\n\r\n{{{"
		if a.Raw != nil {
			raw = *a.Raw
		}
		s.writeRaw([]byte(raw))
		s.log.event("send", kv("kind", "garbage"), kv("inReplyTo", m.Method), kv("id", m.ID), kv("bytes", len(raw)))
	case "truncated":
		partial := `{"jsonrpc":"2.0","id":` + idOrNull(m) + `,"result":`
		if a.Raw != nil {
			partial = *a.Raw
		}
		declared := len(partial) + 100
		s.writeRaw([]byte(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", declared, partial)))
		s.log.event("send", kv("kind", "truncated"), kv("inReplyTo", m.Method), kv("id", m.ID), kv("declared", declared), kv("bytes", len(partial)))
		s.exit(0, "truncated action")
	case "oversized":
		size := a.Size
		if size == 0 {
			size = defaultOversizedBytes
		}
		prefix, suffix := `{"jsonrpc":"2.0","id":`+idOrNull(m)+`,"result":"`, `"}`
		if !isRequest {
			prefix, suffix = `{"jsonrpc":"2.0","method":"fakelsp/oversized","params":{"fill":"`, `"}}`
		}
		fill := max(int(size)-len(prefix)-len(suffix), 0)
		body := make([]byte, 0, len(prefix)+fill+len(suffix))
		body = append(body, prefix...)
		body = append(body, bytes.Repeat([]byte{'x'}, fill)...)
		body = append(body, suffix...)
		s.send(body, kv("kind", "oversized"), kv("inReplyTo", m.Method), kv("id", m.ID))
	case "invalidJSON":
		body := "this is not JSON {" + idOrNull(m)
		if a.Raw != nil {
			body = *a.Raw
		}
		s.send([]byte(body), kv("kind", "invalidJSON"), kv("inReplyTo", m.Method), kv("id", m.ID))
	case "stopReading":
		s.stopped.Store(true)
		s.log.event("stopReadingRequested", kv("method", m.Method), kv("id", m.ID))
	}
	for _, st := range a.After {
		if !s.step(st, nil) {
			return
		}
	}
}

func idOrNull(m *message) string {
	if !m.hasID() {
		return "null"
	}
	return idKey(m.ID)
}

func (s *server) die(a *Action, code int, reason string) {
	if a.ExitCode != nil {
		code = *a.ExitCode
	}
	if a.Stderr != "" {
		s.errMu.Lock()
		_, _ = io.WriteString(s.err, a.Stderr)
		s.errMu.Unlock()
	}
	s.exit(code, reason)
}

func sleep(ms int64, done <-chan struct{}) bool {
	t := time.NewTimer(time.Duration(ms) * time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-done:
		return false
	}
}

// step runs one before/after step; it returns false when the request was
// cancelled while the step waited.
func (s *server) step(st Step, done <-chan struct{}) bool {
	switch {
	case st.ServerRequest != "":
		_, ok := s.serverRequest(st.ServerRequest, st.Params, done)
		return ok
	case st.Notification != "":
		s.notify(st.Notification, st.Params)
	case st.WorkDoneProgress != "":
		token := st.Token
		if len(token) == 0 {
			token = json.RawMessage(`"fakelsp"`)
		}
		value := map[string]any{"kind": st.WorkDoneProgress}
		if st.Message != "" {
			value["message"] = st.Message
		}
		if st.Percentage != nil {
			value["percentage"] = *st.Percentage
		}
		if st.WorkDoneProgress == "begin" {
			create, _ := json.Marshal(map[string]any{"token": token})
			if _, ok := s.serverRequest("window/workDoneProgress/create", create, done); !ok {
				return false
			}
			title := st.Title
			if title == "" {
				title = "fakelsp"
			}
			value["title"] = title
		}
		params, _ := json.Marshal(map[string]any{"token": token, "value": value})
		s.notify("$/progress", params)
	case st.SleepMs > 0:
		return sleep(st.SleepMs, done)
	case st.WaitFile != "":
		return waitFile(st.WaitFile, done)
	}
	return true
}

// waitFile waits until path exists; false when the request was cancelled
// first.
func waitFile(path string, done <-chan struct{}) bool {
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		if _, err := os.Stat(path); err == nil {
			return true
		}
		select {
		case <-tick.C:
		case <-done:
			return false
		}
	}
}

func (s *server) serverRequest(method string, params json.RawMessage, done <-chan struct{}) (message, bool) {
	s.mu.Lock()
	s.nextID++
	id := json.RawMessage(strconv.Itoa(s.nextID))
	p := &pending{method: method, ch: make(chan message, 1)}
	s.pending[idKey(id)] = p
	s.mu.Unlock()
	body, _ := json.Marshal(outRequest{JSONRPC: "2.0", ID: id, Method: method, Params: params})
	s.send(body, kv("kind", "request"), kv("method", method), kv("id", id))
	// A cancelled wait leaves the entry in pending so that a late response
	// is still matched (and logged with responseTo) rather than reported as
	// a violation.
	select {
	case r := <-p.ch:
		return r, true
	case <-done:
		return message{}, false
	}
}

func (s *server) notify(method string, params json.RawMessage) {
	body, _ := json.Marshal(outRequest{JSONRPC: "2.0", Method: method, Params: params})
	s.send(body, kv("kind", "notification"), kv("method", method))
}

func (s *server) initializeResult() json.RawMessage {
	var info any = map[string]string{"name": "fakelsp", "version": "0.1.0"}
	if len(s.sc.ServerInfo) > 0 {
		info = s.sc.ServerInfo
	}
	b, _ := json.Marshal(map[string]any{"capabilities": s.sc.Capabilities, "serverInfo": info})
	return b
}

func (s *server) resultFor(m *message, a *Action) json.RawMessage {
	if len(a.Results) > 0 {
		s.mu.Lock()
		n := s.replies[a]
		s.replies[a]++
		s.mu.Unlock()
		return a.Results[min(n, len(a.Results)-1)]
	}
	if len(a.Result) == 0 {
		if m.Method == "initialize" {
			return s.initializeResult()
		}
		return nil
	}
	switch idKey(a.Result) {
	case `"$echoPosition"`:
		return echoPosition(m)
	case `"$echoText"`:
		return s.echoText(m)
	}
	return a.Result
}

// echoPosition answers with one Location at the request's uri and
// position (a Hover naming them for textDocument/hover).
func echoPosition(m *message) json.RawMessage {
	var p struct {
		TextDocument struct {
			URI string `json:"uri"`
		} `json:"textDocument"`
		Position *struct {
			Line      int `json:"line"`
			Character int `json:"character"`
		} `json:"position"`
	}
	if err := json.Unmarshal(m.Params, &p); err != nil || p.Position == nil {
		return nil
	}
	rng := map[string]any{"start": p.Position, "end": p.Position}
	var v any = []any{map[string]any{"uri": p.TextDocument.URI, "range": rng}}
	if m.Method == "textDocument/hover" {
		v = map[string]any{
			"contents": map[string]string{
				"kind":  "plaintext",
				"value": fmt.Sprintf("%s:%d:%d", p.TextDocument.URI, p.Position.Line, p.Position.Character),
			},
			"range": rng,
		}
	}
	b, _ := json.Marshal(v)
	return b
}

// echoText answers a hover with the text the server holds for the
// request's document: what the client last sent in didOpen/didChange.
func (s *server) echoText(m *message) json.RawMessage {
	uri := documentURI(m.Params)
	s.mu.Lock()
	d := s.open[uri]
	s.mu.Unlock()
	if d == nil {
		return nil
	}
	b, _ := json.Marshal(map[string]any{"contents": map[string]string{"kind": "plaintext", "value": d.text}})
	return b
}

func (s *server) markAnswered(m *message) {
	if m.Method == "initialize" {
		s.mu.Lock()
		s.initResponded = true
		s.mu.Unlock()
	}
}

func (s *server) reply(m *message, result json.RawMessage) {
	if len(result) == 0 {
		result = json.RawMessage("null")
	}
	body, err := json.Marshal(outResult{JSONRPC: "2.0", ID: m.ID, Result: result})
	if err != nil {
		s.replyError(m, codeInternalError, "fakelsp: scripted result is not JSON: "+err.Error(), nil)
		return
	}
	s.markAnswered(m)
	s.send(body, kv("kind", "response"), kv("inReplyTo", m.Method), kv("id", m.ID))
}

func (s *server) replyError(m *message, code int, msg string, data json.RawMessage) {
	body, _ := json.Marshal(outError{JSONRPC: "2.0", ID: m.ID, Error: rpcError{Code: code, Message: msg, Data: data}})
	s.markAnswered(m)
	s.send(body, kv("kind", "error"), kv("inReplyTo", m.Method), kv("id", m.ID), kv("code", code))
}

func (s *server) replyCancelled(m *message) {
	if !m.hasID() {
		return
	}
	s.log.event("cancelled", kv("method", m.Method), kv("id", m.ID))
	s.replyError(m, codeRequestCancelled, "Request cancelled", nil)
}

// send writes one framed message and logs it.
func (s *server) send(body []byte, fields ...field) {
	frame := make([]byte, 0, len(body)+32)
	frame = fmt.Appendf(frame, "Content-Length: %d\r\n\r\n", len(body))
	frame = append(frame, body...)
	// Logged before the write: a message sent from outside the read loop
	// (a notification whose steps wait) would otherwise be logged after
	// the client's reaction to it, which the read loop logs as it arrives.
	s.log.event("send", append(fields, kv("bytes", len(body)))...)
	if err := s.writeRaw(frame); err != nil {
		s.log.event("sendFailed", kv("bytes", len(body)), kv("error", err.Error()))
	}
}

func (s *server) writeRaw(b []byte) error {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	_, err := s.out.Write(b)
	return err
}

// flood writes exactly n bytes of filler lines ("xxx...x\n") to stderr.
func (s *server) flood(n int64) {
	line := append(bytes.Repeat([]byte{'x'}, 79), '\n')
	chunk := bytes.Repeat(line, 64*1024/len(line))
	s.errMu.Lock()
	for left := n; left > 0; {
		c := chunk
		if int64(len(c)) > left {
			c = c[:left]
		}
		if _, err := s.err.Write(c); err != nil {
			break
		}
		left -= int64(len(c))
	}
	s.errMu.Unlock()
	s.log.event("stderr", kv("bytes", n))
}
