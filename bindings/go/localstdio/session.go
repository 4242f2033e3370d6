package localstdio

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// Sessions: the catalog's tools (toolbox.Toolbox) send several requests in
// one turn. A session is the same turn a query takes — queued behind
// earlier work on the (workspace, root), the server caught up with the
// disk and started if needed — handed to the tool for as long as it runs.

// Session implements lspseam.SessionProvider.
func (p *Provider) Session(ctx context.Context, q lspseam.ProviderQuery, fn func(context.Context, lspseam.Session) error) error {
	return p.withTurn(ctx, q, "the tool", func(ctx context.Context, s *slot) error {
		defer p.armIdle(s)
		if _, notice, err := p.prepare(ctx, s, q.FilePath); err != nil {
			return err
		} else {
			sess := &session{p: p, s: s, in: s.inst, languageID: q.LanguageID, notice: notice}
			err = fn(ctx, sess)
			sess.in = nil // fn's session ends with the turn
			if err != nil && ctx.Err() != nil {
				if s.inst != nil && s.inst.isDead() {
					s.inst.awaitStopped()
				}
				return p.ctxErr(ctx, "the tool's requests")
			}
			return err
		}
	})
}

// session is one tool's turn on an instance. It is used by one
// goroutine, but for Request, which several may call at once
// (lspseam.Session): the notes its answers leave are under mu.
type session struct {
	p          *Provider
	s          *slot
	in         *instance // nil once the turn is over
	languageID string    // the tool's file's language
	waited     bool      // the readiness wait is done
	first      string    // the tool's own file (the first opened)

	mu     sync.Mutex
	notice string
	// noticeOfImplementations: notice is projectScopeNotice's for an
	// implementation search, which leaves out what only a search of uses
	// lacks (Vue templates); a search of uses asks again.
	noticeOfImplementations bool
	// unconfirmed: an answer of this session was read before the loading
	// signal the instance awaited (see awaitLog), and why it may be partial.
	unconfirmed string
	// searchPrepared: the server was readied for this session's searches
	// (modulesearch.go), and moduleNotice is what that found.
	searchPrepared bool
	moduleNotice   string
	// unsearched: the source files notice says the server did not search,
	// when that is all it says (projectscope.go's searchScope).
	unsearched []string
	// gaps: the component files its searches did not read, search by
	// search (componentgaps.go).
	gaps componentGaps
	// stale: why a report Diagnostics answered is not fresh, when the
	// wait ended before the server showed it had applied the changes on
	// disk (catchupreports.go).
	stale string
}

func (ss *session) Server() string       { return ss.p.server.ID }
func (ss *session) WorkspaceURI() string { return ss.s.ws.URI }

// Notice is why the session's answers may be partial: the readiness
// wait's reason, an answer read before an awaited loading signal, or, when
// nothing was asked, that signal still awaited; and why a report
// Diagnostics answered may be out of date (stale).
func (ss *session) Notice() string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return joinNotices(ss.partialNotice(), ss.gaps.notice(), ss.stale)
}

// UnsearchedFiles implements lspseam.UnsearchedFilesLister: the files
// the notice says the server did not search, when the notice is that
// alone — not a readiness doubt, an answer read before the loading
// signal, or a stale report.
func (ss *session) UnsearchedFiles() ([]string, bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.notice == "" || ss.unsearched == nil || ss.unconfirmed != "" || ss.stale != "" || ss.gaps.notice() != "" {
		return nil, false
	}
	return slices.Clone(ss.unsearched), true
}

// partialNotice is Notice's but for stale (with mu held).
func (ss *session) partialNotice() string {
	switch {
	case ss.notice != "":
		return ss.notice
	case ss.unconfirmed != "":
		return ss.unconfirmed
	case ss.in != nil:
		return ss.in.loadUnconfirmed()
	}
	return ""
}

func (ss *session) Methods() map[string]bool  { return ss.inst().neg.Methods }
func (ss *session) Policy() lspseam.Readiness { return ss.inst().neg.Readiness }

func (ss *session) inst() *instance {
	if ss.in == nil {
		panic("lspseam: a Session was used after its tool returned")
	}
	return ss.in
}

func (ss *session) Read(path string) (lspseam.SourceFile, error) {
	src, err := ReadSource(ss.s.ws, path, ss.p.server.Config.MaxDocumentBytes)
	return lspseam.SourceFile(src), err
}

func (ss *session) Open(ctx context.Context, path string) (lspseam.SourceFile, error) {
	in := ss.inst()
	src, err := ReadSource(ss.s.ws, path, ss.p.server.Config.MaxDocumentBytes)
	if err != nil {
		return lspseam.SourceFile{}, err
	}
	lang, _ := in.server.Config.LanguageOf(src.Path)
	if lang == "" {
		if !ss.waited { // the tool's own file: its language was routed
			lang = ss.languageID
		} else {
			return lspseam.SourceFile{}, lspseam.Errorf(lspseam.CodeUnavailable, "language server %q is not configured for %s", ss.p.server.ID, path)
		}
	}
	began, ended := in.progress.counts()
	opened := time.Now()
	if err := in.ensureOpen(ctx, src, lang); err != nil {
		return lspseam.SourceFile{}, err
	}
	if !ss.waited {
		ss.waited = true
		ss.first = src.Path
		incomplete, err := in.awaitReady(ctx, src.Path, opened, began, ended)
		if err != nil {
			return lspseam.SourceFile{}, err
		}
		ss.mu.Lock()
		if ss.notice == "" {
			ss.notice = incomplete
		}
		ss.mu.Unlock()
	}
	return lspseam.SourceFile(src), nil
}

func (ss *session) Request(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	in := ss.inst()
	if method == "textDocument/references" || method == "textDocument/implementation" {
		ss.mu.Lock()
		prepare := !ss.searchPrepared
		ss.searchPrepared = true
		ss.mu.Unlock()
		if prepare {
			n := in.prepareModuleSearch(ctx)
			ss.mu.Lock()
			ss.moduleNotice = n
			ss.mu.Unlock()
		}
	}
	var raw json.RawMessage
	early := in.earlyAnswers.Load()
	if err := in.call(ctx, method, params, &raw); err != nil {
		return nil, err
	}
	// What the answer says of the session is noted one request at a time:
	// the instance's readiness state is the turn's, and requests of one
	// turn may run at once.
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if reason := in.answerUnconfirmed(early); reason != "" && ss.unconfirmed == "" {
		ss.unconfirmed = reason
	}
	if raw == nil {
		return nil, lspseam.Errorf(lspseam.CodeMalformedResponse, "language server %q answered %s with neither a result nor an error", in.server.ID, method)
	}
	// A search from the tool's own file covers what the server loaded for
	// it (projectscope.go); so does a rename, which edits the uses the
	// server finds the same way, and a call or type hierarchy, whose
	// callers and subtypes are found the same way.
	search, implementations := searchMethod(method)
	// A search of a name only its own file can use (moduleprivate.go)
	// covers every use: it leaves the notice to the session's other
	// searches.
	if search && ss.first != "" && !in.privateSearchRequest(params) {
		fresh := ss.notice == "" || (ss.noticeOfImplementations && !implementations)
		var gaps []componentGap
		if fresh {
			scope := in.projectScope(ctx, ss.first, implementations)
			ss.notice, ss.unsearched, gaps = scope.notice, scope.unsearched, scope.gaps
			ss.noticeOfImplementations = implementations && ss.notice != ""
			if ss.notice == "" {
				ss.notice = ss.moduleNotice
			}
		}
		ss.gaps.searched(gaps, fresh)
	}
	// An answer read from the server's index alone (a symbol search, a
	// function's callees, a type's supertypes) covers what it indexed:
	// without a build description clangd's is the open files alone (it
	// answered "no symbols match" for a function of another .c file,
	// unmarked). Whether other files use this one is no matter to them;
	// tsserver's projects are searched one by one (tsserverprojects.go).
	if indexMethod(method) && ss.first != "" && ss.notice == "" {
		scope := in.indexScope(ctx, ss.first)
		ss.notice, ss.unsearched = scope.notice, scope.unsearched
	}
	return raw, nil
}

// searchMethod says whether method's answer is a search of the uses or
// the implementations of a symbol by the server's view of the project
// (implementations: of implementations or subtypes, which a Vue template
// cannot hold). Measured with clangd 14 and no compile_commands.json: the
// callers of a function answered 3 of 23, as its references did, but
// unmarked (findings s26 #4).
func searchMethod(method string) (search, implementations bool) {
	switch method {
	case "textDocument/references", "textDocument/rename", "callHierarchy/incomingCalls":
		return true, false
	case "textDocument/implementation", "typeHierarchy/subtypes":
		return true, true
	}
	return false, false
}

// indexMethod says whether method's answer names symbols of the whole
// project as the server indexed it, beyond the file asked about.
func indexMethod(method string) bool {
	switch method {
	case "workspace/symbol", "callHierarchy/outgoingCalls", "typeHierarchy/supertypes":
		return true
	}
	return false
}

// DocumentVersions implements lspseam.Session.
func (ss *session) DocumentVersions() map[string]int64 {
	docs := ss.inst().docs.docs
	out := make(map[string]int64, len(docs))
	for _, d := range docs {
		out[d.uri] = int64(d.version)
	}
	return out
}

// OpenDocuments implements lspseam.Session.
func (ss *session) OpenDocuments() []string { return ss.inst().docs.paths() }

// Running implements lspseam.SessionProvider.
func (p *Provider) Running(q lspseam.ProviderQuery) bool {
	ws, err := CanonicalWorkspace(q.WorkspaceRoot)
	if err != nil {
		return false
	}
	root := projectRoot(ws, q.FilePath, p.server.Config.RootMarkers)
	p.mu.Lock()
	s := p.slots[ws.Path+"\x00"+root.Path]
	p.mu.Unlock()
	if s == nil || !s.turns.tryAcquire() {
		return s != nil // busy: a query holds it, so a server is (being) started
	}
	defer s.turns.release()
	return s.inst != nil && !s.inst.isDead()
}

// ProjectRoot implements lspseam.SessionProvider: the directory of
// q.FilePath's server (see roots.go).
func (p *Provider) ProjectRoot(q lspseam.ProviderQuery) string {
	ws, err := CanonicalWorkspace(q.WorkspaceRoot)
	if err != nil {
		return ""
	}
	return projectRoot(ws, q.FilePath, p.server.Config.RootMarkers).Path
}
