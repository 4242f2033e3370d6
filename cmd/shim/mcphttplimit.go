package main

import (
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The bound on open HTTP sessions (`--max-sessions`).
//
// Each session holds its own MCP server, previews, observations and
// pages (about 0.2 MB), and a client that initializes and never closes
// leaves it until --session-timeout: a tester's 300 abandoned sessions
// took `mcp --http` from 34 to 93 MB. So at most max sessions are open; a
// new one closes the least recently used session with no request in
// flight (its client's next request gets 404 and it initializes again,
// as after a timeout), and when every session is busy the new one is
// refused with 503 rather than one being cut off mid-call.

// defaultMaxHTTPSessions is --max-sessions' default: far more agents
// than one machine's language servers serve well, and a bound on the
// memory abandoned sessions hold (~13 MB).
const defaultMaxHTTPSessions = 64

// sessionUse is what the bound needs of a live session.
type sessionUse struct {
	last time.Time // its last request's start
	busy int       // its requests in flight
}

// using marks a request of the session named id (the Mcp-Session-Id
// header; "" none) in flight until the returned function is called.
func (s *mcpHTTPSessions) using(id string) func() {
	if id == "" {
		return func() {}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for ss, u := range s.live {
		if ss.ID() == id {
			u.last = time.Now()
			u.busy++
			return func() {
				s.mu.Lock()
				u.busy--
				s.mu.Unlock()
			}
		}
	}
	return func() {}
}

// makeRoom makes room for a new session under the bound: it closes the
// least recently used idle session if the bound is reached. ok is false
// when every session is busy; msg then says what to do.
func (s *mcpHTTPSessions) makeRoom() (msg string, ok bool) {
	if s.max <= 0 {
		return "", true
	}
	s.mu.Lock()
	if len(s.live) < s.max {
		s.mu.Unlock()
		return "", true
	}
	var oldest *mcp.ServerSession
	for ss, u := range s.live {
		if u.busy == 0 && (oldest == nil || u.last.Before(s.live[oldest].last)) {
			oldest = ss
		}
	}
	var idle time.Duration
	if oldest != nil {
		idle = time.Since(s.live[oldest].last)
		delete(s.live, oldest) // its Wait would remove it; counted out now
	}
	s.mu.Unlock()
	if oldest == nil {
		return strconv.Itoa(s.max) + " sessions are open and each has a request in flight (--max-sessions " + strconv.Itoa(s.max) + "): try again when one is answered, close sessions you no longer use, or start lspseam mcp with a larger --max-sessions", false
	}
	oldest.Close()
	s.host.log.Info("closed the least recently used HTTP session to open a new one within --max-sessions", "session", oldest.ID(), "idle", idle.Round(time.Second).String(), "max", s.max)
	return "", true
}
