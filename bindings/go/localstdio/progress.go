package localstdio

import (
	"encoding/json"
	"regexp"
	"sort"
	"sync"
	"time"
)

// Work-done progress: servers announce loading and indexing with
// window/workDoneProgress/create and $/progress begin … end. lspseam
// advertises window.workDoneProgress so it can tell when a server is
// still loading the project, and wait for that to finish before asking a
// question whose answer depends on it (see readiness in provider.go).

type progressTracker struct {
	mu     sync.Mutex
	active map[string]string // token → title of work in progress
	// announced holds the tokens the server created
	// (window/workDoneProgress/create) that have neither begun nor
	// ended: work it has announced, whose title is not known yet
	// (workUnderWay, progressreports.go).
	announced map[string]bool
	// startedBy numbers each piece of work announced or begun, by token,
	// in the order they were (starts counts them): which work began
	// after a mark (underWaySince).
	startedBy map[string]int
	starts    int
	began     int           // how many pieces of work ever began
	ended     int           // how many ended
	logs      []keptLog     // the last maxKeptLogs window/logMessage texts
	logSeq    int           // how many log messages ever arrived
	changed   chan struct{} // closed and replaced on every change
	// readyLog is the readiness policy's loading signal (nil before the
	// negotiation, or when the policy has none); lastReady numbers the
	// latest log message it matched (0: none yet). A message is matched
	// when it arrives, so no later flood of messages can hide it.
	readyLog  *regexp.Regexp
	lastReady int
	// lastEnd is when the latest piece of work that began ended (zero:
	// none yet): a server's reports may follow the end of its work
	// (catchupreports.go).
	lastEnd time.Time
}

// maxKeptLogs bounds the log messages kept for the readiness signal's
// first look (messages that arrived before the negotiation named it).
const maxKeptLogs = 256

type keptLog struct {
	seq  int
	text string
}

func newProgressTracker() *progressTracker {
	return &progressTracker{active: map[string]string{}, changed: make(chan struct{})}
}

func tokenKey(raw json.RawMessage) string { return string(raw) }

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
		if !p.announced[tokenKey(n.Token)] {
			p.started(tokenKey(n.Token))
		}
		delete(p.announced, tokenKey(n.Token))
	case "end":
		if _, ok := p.active[tokenKey(n.Token)]; ok {
			p.ended++
			p.lastEnd = time.Now()
		}
		delete(p.active, tokenKey(n.Token))
		delete(p.announced, tokenKey(n.Token))
		delete(p.startedBy, tokenKey(n.Token))
	default:
		return
	}
	p.notifyLocked()
}

// announce records a window/workDoneProgress/create request: work the
// server will report on under its token. It is recorded as the request
// is read, before it is answered, so a report read before it is never
// taken for one the server has finished with (workUnderWay, progressreports.go).
func (p *progressTracker) announce(params *json.RawMessage) {
	if params == nil {
		return
	}
	var n struct {
		Token json.RawMessage `json:"token"`
	}
	if json.Unmarshal(*params, &n) != nil || len(n.Token) == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.active[tokenKey(n.Token)]; ok {
		return
	}
	if p.announced == nil {
		p.announced = map[string]bool{}
	}
	if len(p.announced) >= maxAnnounced {
		return // a server that announces without ever beginning: what is held already keeps the reports interim
	}
	p.announced[tokenKey(n.Token)] = true
	p.started(tokenKey(n.Token))
	p.notifyLocked()
}

// started numbers the work under key, announced or begun (with mu held).
func (p *progressTracker) started(key string) {
	if p.startedBy == nil {
		p.startedBy = map[string]int{}
	}
	p.starts++
	p.startedBy[key] = p.starts
}

// workMark returns a mark for underWaySince: the work started so far.
func (p *progressTracker) workMark() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.starts
}

// underWaySince reports whether work announced or begun after mark has
// not ended.
func (p *progressTracker) underWaySince(mark int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, n := range p.startedBy {
		if n > mark {
			return true
		}
	}
	return false
}

// maxAnnounced bounds the announced tokens kept.
const maxAnnounced = 1024

// underWay reports whether any work the server announced or began has
// not ended, and returns a channel closed at the next change.
func (p *progressTracker) underWay() (bool, <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.active) > 0 || len(p.announced) > 0, p.changed
}

func (p *progressTracker) notifyLocked() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// logMessage records a window/logMessage text, and reports whether it
// is the loading signal.
func (p *progressTracker) logMessage(params *json.RawMessage) (ready bool) {
	if params == nil {
		return false
	}
	var m struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(*params, &m) != nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.logSeq++
	if p.readyLog != nil && p.readyLog.MatchString(m.Message) {
		p.lastReady = p.logSeq
		ready = true
	}
	if p.readyLog == nil {
		if len(p.logs) == maxKeptLogs {
			p.logs = append(p.logs[:0], p.logs[1:]...)
		}
		p.logs = append(p.logs, keptLog{seq: p.logSeq, text: clip(m.Message, 300)})
	}
	p.notifyLocked()
	return ready
}

// watchReadyLog sets the loading signal: a log message matching re. The
// messages kept from before are looked at once, then no more are kept.
func (p *progressTracker) watchReadyLog(re *regexp.Regexp) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.readyLog = re
	for _, l := range p.logs {
		if re.MatchString(l.text) {
			p.lastReady = l.seq
		}
	}
	p.logs = nil
}

// keptLogs returns the texts of the log messages kept (those that
// arrived before watchReadyLog).
func (p *progressTracker) keptLogs() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	texts := make([]string, len(p.logs))
	for i, l := range p.logs {
		texts[i] = l.text
	}
	return texts
}

// readySeen reports whether the loading signal was logged.
func (p *progressTracker) readySeen() bool { return p.readySeenAfter(0) }

// logMark returns a mark for readySeenAfter: the messages so far.
func (p *progressTracker) logMark() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.logSeq
}

// readySeenAfter reports whether the loading signal was logged after mark.
func (p *progressTracker) readySeenAfter(mark int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lastReady > mark
}

// workEnded is when the latest piece of work that began ended (zero:
// none has).
func (p *progressTracker) workEnded() time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lastEnd
}

// counts returns how much work began and ended so far.
func (p *progressTracker) counts() (began, ended int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.began, p.ended
}

// snapshot returns the titles of work in progress and a channel closed at
// the next change.
func (p *progressTracker) snapshot() (titles []string, changed <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, t := range p.active {
		titles = append(titles, t)
	}
	sort.Strings(titles)
	return titles, p.changed
}
