package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lspseam/lspseam/internal/testenv"
)

// expectation is one row of testdata/workspaces/expectations.json.
type expectation struct {
	ID            string   `json:"id"`
	Workspace     string   `json:"workspace"`
	Operation     string   `json:"operation"`
	File          string   `json:"file"`
	Line          int      `json:"line"`
	Character     int      `json:"character"`
	Locations     []string `json:"locations"`
	HoverContains []string `json:"hoverContains"`
	ErrorCode     string   `json:"errorCode"`
	ErrorContains []string `json:"errorContains"`
	// Subject is the answer's first line: what it is for (the identifier
	// at the position). Every successful answer has one; rows that state it
	// check it exactly.
	Subject string `json:"subject"`
}

func loadExpectations(t *testing.T) []expectation {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "testdata/workspaces/expectations.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Queries []expectation `json:"queries"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Queries) < 40 {
		t.Fatalf("only %d expectations", len(doc.Queries))
	}
	return doc.Queries
}

func workspaceDir(name string) string {
	return filepath.Join(repoRoot, "testdata", "workspaces", name)
}

// checkAnswer compares a rendered answer (or error code) with a row.
func checkAnswer(t *testing.T, e expectation, text, errCode string) {
	t.Helper()
	if e.ErrorCode != "" {
		if errCode != e.ErrorCode {
			t.Errorf("%s: want error %s, got %q / %q", e.ID, e.ErrorCode, errCode, text)
		}
		for _, frag := range e.ErrorContains {
			if !strings.Contains(text, frag) {
				t.Errorf("%s: error message lacks %q: %q", e.ID, frag, text)
			}
		}
		return
	}
	if errCode != "" {
		t.Errorf("%s: unexpected error %s: %s", e.ID, errCode, text)
		return
	}
	subject, text, ok := splitSubject(text)
	switch {
	case !ok:
		t.Errorf("%s: the answer does not start by naming what it is for:\n%s", e.ID, text)
		return
	case e.Subject != "" && subject != e.Subject:
		t.Errorf("%s: first line %q, want %q", e.ID, subject, e.Subject)
	case !strings.Contains(subject, fmt.Sprintf("line %d, column %d", e.Line, e.Character)):
		t.Errorf("%s: first line %q does not name line %d, column %d", e.ID, subject, e.Line, e.Character)
	}
	if strings.Contains(text, "possibly incomplete") {
		t.Errorf("%s: answer marked incomplete:\n%s", e.ID, text)
	}
	if e.Operation == "hover" {
		for _, frag := range e.HoverContains {
			if !strings.Contains(text, frag) {
				t.Errorf("%s: hover lacks %q:\n%s", e.ID, frag, text)
			}
		}
		return
	}
	var got []string
	if !strings.HasPrefix(text, "No locations found.") {
		got = strings.Split(text, "\n")
	}
	want := make([]string, len(e.Locations))
	for i, l := range e.Locations {
		want[i] = expand(l)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s: %s %s:%d:%d\n got: %q\nwant: %q", e.ID, e.Operation, e.File, e.Line, e.Character, got, want)
	}
}

// splitSubject splits a rendered answer into its first line, which names
// what the answer is for (the identifier at the position, or that there is
// none), and the rest; ok is false when the first line is not one.
func splitSubject(text string) (subject, rest string, ok bool) {
	first, rest, found := strings.Cut(text, "\n")
	if !found || !(strings.HasPrefix(first, "`") || strings.HasPrefix(first, "No identifier at ")) {
		return "", text, false
	}
	return first, rest, true
}

// TestQueryColdServers runs every row through `lspseam query`, one process
// per query: every answer comes from a freshly started server, so this is
// also the readiness test (a cold answer must equal the warm one).
//
// clangd keeps its background index in the workspace (.cache/clangd), and
// a fresh clangd loads what an earlier one wrote there instead of indexing:
// on the shared fixture its answers would be complete even if the query
// were sent before it had indexed anything. So each C row runs on its own
// copy of the fixture (with a compilation database, without an index):
// every clangd starts from nothing, as on a user's first query, and an
// answer sent before indexing ended misses the other files (cross-file
// definitions fall back to header declarations, references miss files).
func TestQueryColdServers(t *testing.T) {
	cfg := writeConfig(t)
	rows := loadExpectations(t)
	byWorkspace := map[string][]expectation{}
	for _, e := range rows {
		byWorkspace[e.Workspace] = append(byWorkspace[e.Workspace], e)
	}
	for ws, rows := range byWorkspace {
		t.Run(ws, func(t *testing.T) {
			t.Parallel()
			for _, e := range rows {
				dir := workspaceDir(ws)
				if ws == "c" {
					dir = copyFixture(t, ws)
					freshC.prepare(t, dir)
				}
				start := time.Now()
				cmd := exec.Command(shimPath, "query", "--config", cfg, "--workspace", dir, "--format", "json",
					e.Operation, fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Character))
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				code := exitCode(t, err)
				var answer struct {
					OK *struct {
						Text string `json:"text"`
					} `json:"ok"`
					Error *struct {
						Code    string `json:"code"`
						Message string `json:"message"`
					} `json:"error"`
				}
				if err := json.Unmarshal(out, &answer); err != nil {
					t.Fatalf("%s: stdout is not one JSON line: %q (stderr %s)", e.ID, out, stderr.String())
				}
				switch {
				case answer.OK != nil && code == 0:
					checkAnswer(t, e, answer.OK.Text, "")
				case answer.Error != nil && code == 1:
					checkAnswer(t, e, answer.Error.Message, answer.Error.Code)
				default:
					t.Errorf("%s: exit %d with %s", e.ID, code, out)
				}
				t.Logf("%s: %v", e.ID, time.Since(start).Round(time.Millisecond))
			}
		})
	}
}

// zeroBasedErrors is e with its error fragments as serve states them:
// serve takes zero-based positions and its position errors quote the
// numbers as sent ("line 98" for the row's one-based line 99) and say
// "zero-based"; the rows are written one-based, as a model sends them.
func zeroBasedErrors(e expectation) expectation {
	number := regexp.MustCompile(`\b(line|character) (\d+)\b`)
	frags := make([]string, len(e.ErrorContains))
	for i, f := range e.ErrorContains {
		f = strings.ReplaceAll(f, "one-based", "zero-based")
		frags[i] = number.ReplaceAllStringFunc(f, func(m string) string {
			sub := number.FindStringSubmatch(m)
			n, _ := strconv.Atoi(sub[2])
			return sub[1] + " " + strconv.Itoa(n-1)
		})
	}
	e.ErrorContains = frags
	return e
}

// TestServeWarmServers runs every row through one `lspseam serve` process,
// so later rows hit warm servers, with all workspaces' queries in flight at
// once.
func TestServeWarmServers(t *testing.T) {
	cfg := writeConfig(t)
	rows := loadExpectations(t)
	c := startServe(t, cfg)
	var wg sync.WaitGroup
	for _, e := range rows {
		wg.Add(1)
		go func(e expectation) {
			defer wg.Done()
			res, rpcErr := c.query(e, workspaceDir(e.Workspace))
			if rpcErr != nil {
				checkAnswer(t, zeroBasedErrors(e), rpcErr.Data.Message, rpcErr.Data.Code)
				return
			}
			text, err := renderResult(res, workspaceDir(e.Workspace))
			if err != nil {
				t.Errorf("%s: %v", e.ID, err)
				return
			}
			checkAnswer(t, e, text, "")
		}(e)
	}
	wg.Wait()
	c.shutdown(t)
}

// serveClient is a minimal client of `lspseam serve`.
type serveClient struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	mu     sync.Mutex
	nextID int
	wait   map[int]chan serveResponse
	done   chan struct{}
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"data"`
}

type serveResponse struct {
	ID     int             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

func startServe(t testing.TB, cfg string) *serveClient {
	t.Helper()
	c := launchServe(t, os.Stderr, "--config", cfg)
	t.Cleanup(c.kill)
	return c
}

// launchServe starts `lspseam serve` with args, its log going to stderr.
// The caller arranges for kill at cleanup.
func launchServe(t testing.TB, stderr io.Writer, args ...string) *serveClient {
	t.Helper()
	cmd := exec.Command(shimPath, append([]string{"serve"}, args...)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &serveClient{cmd: cmd, stdin: stdin, wait: map[int]chan serveResponse{}, done: make(chan struct{})}
	go c.read(stdout)
	return c
}

// kill ends the serve process and waits for its output to end.
func (c *serveClient) kill() {
	c.cmd.Process.Kill()
	<-c.done
	c.cmd.Wait()
}

func (c *serveClient) read(r io.Reader) {
	defer close(c.done)
	br := bufio.NewReader(r)
	for {
		body, err := readFrame(br)
		if err != nil {
			return
		}
		var resp serveResponse
		if json.Unmarshal(body, &resp) != nil {
			continue
		}
		c.mu.Lock()
		ch := c.wait[resp.ID]
		delete(c.wait, resp.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- resp
		}
	}
}

func (c *serveClient) send(method string, params any) chan serveResponse {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nextID++
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.nextID, "method": method, "params": params})
	return c.sendLocked(c.nextID, body)
}

// sendBody writes a message body as it is (it may be malformed) and
// returns the channel for the response with id.
func (c *serveClient) sendBody(id int, body string) chan serveResponse {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sendLocked(id, []byte(body))
}

func (c *serveClient) sendLocked(id int, body []byte) chan serveResponse {
	ch := c.expectLocked(id)
	fmt.Fprintf(c.stdin, "Content-Length: %d\r\n\r\n%s", len(body), body)
	return ch
}

// expect returns a channel for the next response with id, for a request
// already sent.
func (c *serveClient) expect(id int) chan serveResponse {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.expectLocked(id)
}

func (c *serveClient) expectLocked(id int) chan serveResponse {
	ch := make(chan serveResponse, 1)
	c.wait[id] = ch
	return ch
}

// awaitResponse returns the response on ch; the watchdog only turns a
// shim that never answers into a failure.
func awaitResponse(t testing.TB, ch chan serveResponse) serveResponse {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(testenv.StepBudget(t)):
		t.Fatal("no answer from serve")
	}
	return serveResponse{}
}

func (c *serveClient) query(e expectation, ws string) (json.RawMessage, *rpcError) {
	ch := c.send("lsp/query", map[string]any{
		"operation": e.Operation, "filePath": e.File, "workspaceRoot": ws,
		"position": map[string]int{"line": e.Line - 1, "character": e.Character - 1},
	})
	select {
	case resp := <-ch:
		return resp.Result, resp.Error
	case <-c.done:
		return nil, &rpcError{Message: "serve exited"}
	}
}

func (c *serveClient) shutdown(t testing.TB) {
	t.Helper()
	select {
	case <-c.send("shutdown", nil):
	case <-time.After(testenv.StepBudget(t)):
		t.Fatal("serve did not answer shutdown")
	}
	c.mu.Lock()
	fmt.Fprintf(c.stdin, "Content-Length: %d\r\n\r\n%s", len(`{"jsonrpc":"2.0","method":"exit"}`), `{"jsonrpc":"2.0","method":"exit"}`)
	c.mu.Unlock()
	exited := make(chan error, 1)
	go func() { exited <- c.cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("serve exited with %v", err)
		}
	case <-time.After(testenv.StepBudget(t)):
		t.Fatal("serve did not exit after exit")
	}
}

// readFrame reads one Content-Length framed message body.
func readFrame(br *bufio.Reader) ([]byte, error) {
	length := -1
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
			length, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	if length < 0 {
		return nil, io.ErrUnexpectedEOF
	}
	body := make([]byte, length)
	_, err := io.ReadFull(br, body)
	return body, err
}
