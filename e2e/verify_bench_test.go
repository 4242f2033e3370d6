package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lspseam/lspseam/bindings/go/localstdio"
)

// BenchmarkEditDiagnostics measures what the post-edit diagnostics delta
// costs: the time from an `edit` call through `lspseam serve` (presets:
// gopls pulls, typescript-language-server pushes) to its answer with the
// delta, against the server's own time to report diagnostics for the same
// change, measured with a raw LSP client on its own server in the same
// run: didChange (full text), then for gopls the textDocument/diagnostic
// answer, for typescript-language-server the first publishDiagnostics for
// the document that reports the new content (the error there after the
// break, gone after the fix). The edit alternates between verify.json's
// break and its fix, so every call changes the file; the two sides take
// turns, with an idle gap, on warm servers. It reports the p50 of each and
// their ratio (target ≤ 1.5×); it asserts no time.
func BenchmarkEditDiagnostics(b *testing.B) {
	langs := map[string]verifyLang{}
	for _, l := range loadVerify(b) {
		langs[l.Workspace] = l
	}
	for _, c := range []struct {
		ws, server, languageID string
		args                   []string
		init                   map[string]any
		pull                   bool
	}{
		{ws: "go", server: "gopls", languageID: "go", init: map[string]any{"pullDiagnostics": true, "linksInHover": false}, pull: true},
		{ws: "ts", server: "typescript-language-server", languageID: "typescript", args: []string{"--stdio"}, init: map[string]any{"tsserver": map[string]any{"useClientFileWatcher": true}}},
	} {
		if _, err := os.Stat(filepath.Join(toolsBin, c.server)); err != nil {
			b.Fatalf("%s missing: run make servers (%v)", c.server, err)
		}
		l := langs[c.ws]
		// Each side edits its own copy of the fixture.
		serveWS, directWS := benchCopy(b, c.ws), benchCopy(b, c.ws)
		orig, err := os.ReadFile(filepath.Join(directWS, l.File))
		if err != nil {
			b.Fatal(err)
		}
		texts := [2]string{string(orig), strings.Replace(string(orig), l.Break.OldString, l.Break.NewString, 1)} // fixed, broken

		srv := benchServe(b)
		if a := benchToolCall(b, srv, "read", jsonArgs(map[string]any{"file_path": l.File}), serveWS); a.IsError {
			b.Fatalf("read: %s", a.StructuredContent)
		}
		serveBroken := false
		serveEdit := func() {
			a := benchToolCall(b, srv, "edit", editArgs(l.File, l.Break, serveBroken), serveWS)
			serveBroken = !serveBroken
			var r editResult
			json.Unmarshal(a.StructuredContent, &r)
			want := `"introduced":0,"resolved":1`
			if serveBroken {
				want = `"introduced":1,"resolved":0`
			}
			if a.IsError || r.Diagnostics == nil || !strings.Contains(string(a.StructuredContent), want) || len(r.Diagnostics.Stale) != 0 {
				b.Fatalf("edit (broken now: %v): %s", serveBroken, a.StructuredContent)
			}
		}

		w, _ := localstdio.CanonicalWorkspace(directWS)
		uri := localstdio.FileURI(filepath.Join(w.Path, l.File))
		d := startDiagClient(b, filepath.Join(toolsBin, c.server), c.args, w.Path)
		caps := map[string]any{
			"general":   map[string]any{"positionEncodings": []string{"utf-16"}},
			"window":    map[string]any{"workDoneProgress": true},
			"workspace": map[string]any{"workspaceFolders": true, "configuration": true},
			"textDocument": map[string]any{
				"publishDiagnostics": map[string]any{"versionSupport": true},
				"diagnostic":         map[string]any{"dynamicRegistration": false},
			},
		}
		d.call("initialize", map[string]any{"processId": os.Getpid(), "rootUri": w.URI, "workspaceFolders": []any{map[string]any{"uri": w.URI, "name": c.ws}},
			"capabilities": caps, "initializationOptions": c.init})
		d.notify("initialized", map[string]any{})
		version := 1
		d.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": c.languageID, "version": version, "text": texts[0]}})
		directBroken := false
		// reports says whether diagnostics show the broken state.
		reports := func(diags json.RawMessage, broken bool) bool {
			var list []struct {
				Message string `json:"message"`
			}
			json.Unmarshal(diags, &list)
			found := false
			for _, x := range list {
				found = found || x.Message == l.Problem.Message
			}
			return found == broken
		}
		directEdit := func() {
			directBroken = !directBroken
			version++
			mark := d.mark()
			next := texts[0]
			if directBroken {
				next = texts[1]
			}
			d.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": version},
				"contentChanges": []any{map[string]any{"text": next}}})
			if c.pull {
				var rep struct {
					Items json.RawMessage `json:"items"`
				}
				json.Unmarshal(d.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": uri}}), &rep)
				if !reports(rep.Items, directBroken) {
					b.Fatalf("gopls pulled (broken: %v): %s", directBroken, rep.Items)
				}
				return
			}
			if _, ok := d.awaitPublish(uri, mark, 30*time.Second, func(diags json.RawMessage) bool { return reports(diags, directBroken) }); !ok {
				b.Fatalf("%s: no publishDiagnostics for the change (broken: %v)", c.server, directBroken)
			}
		}

		b.Run(c.ws, func(b *testing.B) {
			// Two references for where the time goes: code_diagnostics of
			// the unchanged file through serve (the round trip and one
			// report of content the server already checked, as the edit
			// asks for the diagnostics before the change), and an atomic
			// write like the edit's (temporary file, fsync, rename) in
			// the workspace copy.
			serveDiag := func() {
				if a := benchToolCall(b, srv, "code_diagnostics", jsonArgs(map[string]any{"path": l.File}), serveWS); a.IsError || !strings.Contains(string(a.StructuredContent), `"status":"fresh"`) {
					b.Fatalf("code_diagnostics: %s", a.StructuredContent)
				}
			}
			scratch := filepath.Join(serveWS, "bench-write.txt")
			atomicWrite := func() {
				f, err := os.Create(scratch + ".tmp")
				if err == nil {
					_, err = f.Write(orig)
				}
				if err == nil {
					err = f.Sync()
				}
				if cerr := f.Close(); err == nil {
					err = cerr
				}
				if err == nil {
					err = os.Rename(scratch+".tmp", scratch)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			sides := []func(){serveEdit, directEdit, serveDiag, atomicWrite}
			for i := 0; i < 4; i++ { // warm both (an even count: back to the fixture's text)
				for _, f := range sides {
					f()
				}
			}
			times := timeAlternated(b, sides, 2, 100*time.Millisecond) // a break and its fix together
			s, r := percentile(times[0], 0.5), percentile(times[1], 0.5)
			b.ReportMetric(float64(s)/float64(r), "edit/server-p50")
			b.ReportMetric(float64(s.Microseconds())/1000, "edit-p50-ms")
			b.ReportMetric(float64(r.Microseconds())/1000, "server-p50-ms")
			b.ReportMetric(float64(percentile(times[0], 0.9).Microseconds())/1000, "edit-p90-ms")
			b.ReportMetric(float64(percentile(times[1], 0.9).Microseconds())/1000, "server-p90-ms")
			b.ReportMetric(float64(percentile(times[2], 0.5).Microseconds())/1000, "unchanged-diagnostics-p50-ms")
			b.ReportMetric(float64(percentile(times[3], 0.5).Microseconds())/1000, "atomic-write-p50-ms")
			os.Remove(scratch)
		})
		srv.shutdown(b)
	}
}

// benchCopy copies a fixture workspace into a temporary directory.
func benchCopy(b *testing.B, name string) string {
	base, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	dst := filepath.Join(base, name)
	if out, err := exec.Command("cp", "-r", workspaceDir(name), dst).CombinedOutput(); err != nil {
		b.Fatalf("cp: %v %s", err, out)
	}
	return dst
}

// benchServe starts `lspseam serve` on the presets.
func benchServe(b *testing.B) *serveClient {
	cmd := exec.Command(shimPath, "serve")
	cmd.Env = presetEnv()
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	c := &serveClient{cmd: cmd, stdin: stdin, wait: map[int]chan serveResponse{}, done: make(chan struct{})}
	go c.read(stdout)
	b.Cleanup(c.kill)
	return c
}

func benchToolCall(b *testing.B, c *serveClient, name string, args json.RawMessage, ws string) toolCallAnswer {
	var resp serveResponse
	select {
	case resp = <-c.send("tools/call", map[string]any{"name": name, "arguments": args, "workspaceRoot": ws}):
	case <-c.done:
		b.Fatal("serve exited")
	case <-time.After(120 * time.Second):
		b.Fatal("no answer from serve")
	}
	var a toolCallAnswer
	if resp.Error != nil || json.Unmarshal(resp.Result, &a) != nil {
		b.Fatalf("tools/call %s: %+v %s", name, resp.Error, resp.Result)
	}
	return a
}

// diagClient is a raw LSP client that also keeps the
// publishDiagnostics notifications: each numbered in arrival order.
type diagClient struct {
	in    io.WriteCloser
	mu    sync.Mutex
	next  int
	reply map[int]chan json.RawMessage
	seq   uint64
	pubs  []diagPublish
	cond  *sync.Cond
}

type diagPublish struct {
	seq         uint64
	uri         string
	diagnostics json.RawMessage
}

func startDiagClient(b *testing.B, command string, args []string, dir string) *diagClient {
	cmd := exec.Command(command, args...)
	cmd.Dir = dir
	cmd.Env = presetEnv()
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	c := &diagClient{in: in, reply: map[int]chan json.RawMessage{}}
	c.cond = sync.NewCond(&c.mu)
	go c.readLoop(bufio.NewReader(out))
	b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return c
}

func (c *diagClient) write(msg map[string]any) {
	msg["jsonrpc"] = "2.0"
	body, _ := json.Marshal(msg)
	c.mu.Lock()
	fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(body), body)
	c.mu.Unlock()
}

func (c *diagClient) notify(method string, params any) {
	c.write(map[string]any{"method": method, "params": params})
}

func (c *diagClient) readLoop(br *bufio.Reader) {
	for {
		body, err := readFrame(br)
		if err != nil {
			return
		}
		var m struct {
			ID     *json.RawMessage `json:"id"`
			Method string           `json:"method"`
			Params json.RawMessage  `json:"params"`
			Result json.RawMessage  `json:"result"`
		}
		json.Unmarshal(body, &m)
		switch {
		case m.ID != nil && m.Method == "workspace/configuration":
			var p struct {
				Items []any `json:"items"`
			}
			json.Unmarshal(m.Params, &p)
			c.write(map[string]any{"id": m.ID, "result": make([]any, len(p.Items))})
		case m.ID != nil && m.Method != "": // any other server request: null
			c.write(map[string]any{"id": m.ID, "result": nil})
		case m.ID != nil:
			id, _ := strconv.Atoi(string(*m.ID))
			c.mu.Lock()
			ch := c.reply[id]
			delete(c.reply, id)
			c.mu.Unlock()
			if ch != nil {
				ch <- m.Result
			}
		case m.Method == "textDocument/publishDiagnostics":
			var p struct {
				URI         string          `json:"uri"`
				Diagnostics json.RawMessage `json:"diagnostics"`
			}
			json.Unmarshal(m.Params, &p)
			c.mu.Lock()
			c.seq++
			c.pubs = append(c.pubs, diagPublish{c.seq, p.URI, p.Diagnostics})
			if len(c.pubs) > 64 {
				c.pubs = c.pubs[len(c.pubs)-64:]
			}
			c.cond.Broadcast()
			c.mu.Unlock()
		}
	}
}

func (c *diagClient) call(method string, params any) json.RawMessage {
	c.mu.Lock()
	c.next++
	id := c.next
	ch := make(chan json.RawMessage, 1)
	c.reply[id] = ch
	c.mu.Unlock()
	c.write(map[string]any{"id": id, "method": method, "params": params})
	select {
	case r := <-ch:
		return r
	case <-time.After(60 * time.Second):
		panic("no answer to " + method)
	}
}

// mark is the number of the latest publication.
func (c *diagClient) mark() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seq
}

// awaitPublish waits for a publication for uri, after mark, that ok
// accepts.
func (c *diagClient) awaitPublish(uri string, mark uint64, limit time.Duration, ok func(json.RawMessage) bool) (json.RawMessage, bool) {
	deadline := time.Now().Add(limit)
	timer := time.AfterFunc(limit, func() { c.mu.Lock(); c.cond.Broadcast(); c.mu.Unlock() })
	defer timer.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	seen := mark
	for {
		for _, p := range c.pubs {
			if p.seq > seen {
				seen = p.seq
				if p.uri == uri && ok(p.diagnostics) {
					return p.diagnostics, true
				}
			}
		}
		if time.Now().After(deadline) {
			return nil, false
		}
		c.cond.Wait()
	}
}
