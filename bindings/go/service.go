package lspseam

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
)

// QueryRequest is one seam query. Position is zero-based (UTF-16 columns);
// WorkspaceRoot comes from the session (a harness's working directory),
// never from the model. PositionTerms is the coordinates a position error
// restates: empty or ZeroBasedTerms, the numbers as sent; OneBasedTerms
// when Position was converted from a model's one-based line and column
// (the lsp tool), whose errors must say the model's numbers back.
type QueryRequest struct {
	Operation     Operation     `json:"operation"`
	FilePath      string        `json:"filePath"`
	Position      Position      `json:"position"`
	WorkspaceRoot string        `json:"workspaceRoot"`
	PositionTerms PositionTerms `json:"positionTerms,omitempty"`
}

// ProviderQuery is a QueryRequest routed to a provider, with the language
// id its registration maps the file's extension to.
type ProviderQuery struct {
	QueryRequest
	LanguageID string `json:"languageId"`
}

// Provider answers queries for the extensions it was registered with.
//
// Query may be called concurrently; a provider serializes whatever must be
// serialized. It must return promptly once ctx is done, with an
// LSP_CANCELLED or LSP_TIMEOUT *Error. Navigation results should carry the
// provider's canonical workspace URI in Result.WorkspaceURI.
type Provider interface {
	Query(ctx context.Context, q ProviderQuery) (Result, error)
}

// ProviderFunc adapts a function to Provider.
type ProviderFunc func(ctx context.Context, q ProviderQuery) (Result, error)

// Query calls f.
func (f ProviderFunc) Query(ctx context.Context, q ProviderQuery) (Result, error) { return f(ctx, q) }

// Registration is what RegisterProvider reserves: an id, the extensions it
// serves ("ts" or ".TS" both mean .ts) and the provider behind them.
type Registration struct {
	ID                  string
	ExtensionToLanguage map[string]string
	// FileNameToLanguage claims whole base names (Dockerfile,
	// CMakeLists.txt), which win over extensions.
	FileNameToLanguage map[string]string
	Provider           Provider
}

// Service is the provider registry. It is safe for concurrent use; its
// lock is never held while a provider runs.
type Service struct {
	core *Core

	mu       sync.Mutex
	closed   bool
	entries  map[string]*entry    // by provider id
	specs    []ProviderSpec       // normalized, for selection; replaced on change
	selected map[string]Selection // the core's selections by selectionKey; reset on change
	// retired are providers their host shut down (RetireProviders), by
	// id: a file only they owned answers LSP_DISPOSED, not "no language
	// server is configured". Kept free of overlaps, so the core can
	// select among them.
	retired map[string]retiredProvider
}

// retiredProvider is what a retired provider owned and why it is gone.
type retiredProvider struct {
	spec ProviderSpec
	why  string
}

// SelectionKey is the key Selection's answers are kept by: under the
// providers registered now, every path with the same key has the same
// Selection. A caller selecting for many paths (a walk of a workspace)
// asks Selection once per key.
func (s *Service) SelectionKey(filePath string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return selectionKey(filePath, s.specs)
}

// selectionKey partitions paths so that every path with the same key has
// the same selection: a base name some provider claims whole (Dockerfile)
// keys itself; otherwise the key is the final extension — the base name's
// suffix from its last dot, lowercased, or a marker for a base name
// without a dot or whose only dot comes first (a dotfile: no extension).
// It only keys a cache of the core's answers; the core alone decides.
func selectionKey(filePath string, specs []ProviderSpec) string {
	base := filePath
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	for _, sp := range specs {
		if _, claimed := sp.FileNameToLanguage[base]; claimed {
			return "\x02" + base
		}
	}
	dot := strings.LastIndexByte(base, '.')
	switch {
	case dot < 0:
		return "\x01"
	case dot == 0:
		return "\x00"
	}
	return strings.ToLower(base[dot:])
}

type entry struct {
	spec     ProviderSpec
	provider Provider
}

// NewService returns an empty registry that uses core for normalization
// and selection. The caller keeps ownership of core.
func NewService(core *Core) *Service {
	return &Service{core: core, entries: map[string]*entry{}}
}

// RegisterProvider atomically reserves reg's id and every normalized
// extension. Invalid input (LSP_INVALID_ARGUMENT) or any overlap with a
// registered provider (LSP_CONFLICT) publishes nothing. The returned
// function releases every reservation; it is idempotent, and queries
// already routed to the provider run to completion.
func (s *Service) RegisterProvider(ctx context.Context, reg Registration) (dispose func(), err error) {
	return s.RegisterProviders(ctx, reg)
}

// RegisterProviders is RegisterProvider for several registrations at
// once, all or nothing: the set is checked against the registered
// providers and against itself in one core call. A host registering a
// table of servers uses it: checked one by one, each registration
// re-checks every one before it, and on a cold start the core answers
// those calls on its slow bridge (32 presets took 1.8 s; together, one
// call). The returned function releases every one of them.
func (s *Service) RegisterProviders(ctx context.Context, regs ...Registration) (dispose func(), err error) {
	for _, reg := range regs {
		if reg.Provider == nil {
			return nil, Errorf(CodeInvalidArgument, "registration %q has no Provider", reg.ID)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, serviceDisposed()
	}
	if len(regs) == 0 {
		return func() {}, nil
	}
	candidate := append([]ProviderSpec(nil), s.specs...)
	for _, reg := range regs {
		candidate = append(candidate, ProviderSpec{ID: reg.ID, ExtensionToLanguage: reg.ExtensionToLanguage, FileNameToLanguage: reg.FileNameToLanguage})
	}
	normalized, err := s.core.CheckProviders(ctx, candidate)
	if err != nil {
		return nil, err
	}
	if len(normalized) != len(candidate) {
		return nil, Errorf(CodeInternal, "checkProviders returned %d providers for %d", len(normalized), len(candidate))
	}
	added := make([]*entry, len(regs))
	for i, reg := range regs {
		added[i] = &entry{spec: normalized[len(s.specs)+i], provider: reg.Provider}
		s.entries[reg.ID] = added[i]
		// A retired provider's files that a new one claims are its now.
		for id, r := range s.retired {
			if id == reg.ID || overlaps(r.spec, added[i].spec) {
				delete(s.retired, id)
			}
		}
	}
	s.specs = normalized
	s.selected = nil
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			gone := map[string]bool{}
			for i, reg := range regs {
				if s.entries[reg.ID] == added[i] {
					delete(s.entries, reg.ID)
					gone[reg.ID] = true
				}
			}
			if len(gone) == 0 {
				return
			}
			s.dropSpecsLocked(gone)
		})
	}, nil
}

// RetireProviders unregisters the providers with these ids, as their
// registration's dispose does, and remembers what they owned: a later
// query or session for a file only they owned answers LSP_DISPOSED,
// naming the provider and why (a host shutting its servers down:
// localstdio's Host.Close), instead of LSP_UNAVAILABLE's "no language
// server is configured … use a text search". A provider registered later
// for those files answers them again. Unknown ids are ignored.
func (s *Service) RetireProviders(ids []string, why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	gone := map[string]bool{}
	for _, id := range ids {
		e := s.entries[id]
		if e == nil {
			continue
		}
		delete(s.entries, id)
		gone[id] = true
		if s.retired == nil {
			s.retired = map[string]retiredProvider{}
		}
		// The newest retirement of a file wins: an older one that
		// overlaps it is forgotten.
		for old, r := range s.retired {
			if old == id || overlaps(r.spec, e.spec) {
				delete(s.retired, old)
			}
		}
		s.retired[id] = retiredProvider{spec: e.spec, why: why}
	}
	if len(gone) == 0 {
		return
	}
	s.dropSpecsLocked(gone)
}

// dropSpecsLocked removes the specs of the providers gone and forgets
// the selection made from them, with s.mu held.
func (s *Service) dropSpecsLocked(gone map[string]bool) {
	specs := make([]ProviderSpec, 0, len(s.specs))
	for _, sp := range s.specs {
		if !gone[sp.ID] {
			specs = append(specs, sp)
		}
	}
	s.specs = specs
	s.selected = nil
}

// overlaps reports whether two normalized providers claim a common
// extension or file name.
func overlaps(a, b ProviderSpec) bool {
	for ext := range a.ExtensionToLanguage {
		if _, ok := b.ExtensionToLanguage[ext]; ok {
			return true
		}
	}
	for name := range a.FileNameToLanguage {
		if _, ok := b.FileNameToLanguage[name]; ok {
			return true
		}
	}
	return false
}

// retiredOwner is, for a file no registered provider owns, the
// LSP_DISPOSED of the retired provider that owned it (nil when none did).
func (s *Service) retiredOwner(ctx context.Context, filePath string) error {
	s.mu.Lock()
	specs := make([]ProviderSpec, 0, len(s.retired))
	for _, r := range s.retired {
		specs = append(specs, r.spec)
	}
	retired := s.retired
	s.mu.Unlock()
	if len(specs) == 0 {
		return nil
	}
	sel, err := s.core.SelectProvider(ctx, filePath, specs)
	if err != nil {
		return nil
	}
	r, ok := retired[sel.ID]
	if !ok {
		return nil
	}
	return retiredError(sel.ID, r.why, filePath)
}

func retiredError(id, why, filePath string) error {
	return Errorf(CodeDisposed, "the %q language server provider for %s was shut down (%s); no further queries are accepted for this file until a provider is registered for it again", id, filePath, why)
}

// Query selects the provider that owns the file's final extension and
// calls it. Errors: LSP_DISPOSED after Close, LSP_WORKSPACE_REQUIRED without
// a workspace root, LSP_INVALID_ARGUMENT for a bad operation or path,
// LSP_UNAVAILABLE when no provider owns the extension, and whatever the
// provider returns.
func (s *Service) Query(ctx context.Context, req QueryRequest) (Result, error) {
	switch {
	case req.Operation != OpDefinition && req.Operation != OpReferences && req.Operation != OpImplementation && req.Operation != OpHover:
		if err := s.checkOpen(req.WorkspaceRoot); err != nil {
			return Result{}, err
		}
		return Result{}, Errorf(CodeInvalidArgument, "operation must be one of goToDefinition, findReferences, goToImplementation, hover; got %q", req.Operation)
	}
	e, sel, err := s.route(ctx, req.FilePath, req.WorkspaceRoot)
	if err != nil {
		return Result{}, err
	}
	return e.provider.Query(ctx, ProviderQuery{QueryRequest: req, LanguageID: sel.LanguageID})
}

// checkOpen is the registry's first checks: not closed, a workspace root.
func (s *Service) checkOpen(workspaceRoot string) error {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	switch {
	case closed:
		return serviceDisposed()
	case strings.TrimSpace(workspaceRoot) == "":
		return Errorf(CodeWorkspaceRequired, "lsp needs the session's workspace root (the harness's working directory); none was given")
	}
	return nil
}

// route selects the provider that owns filePath's final extension.
func (s *Service) route(ctx context.Context, filePath, workspaceRoot string) (*entry, Selection, error) {
	if err := s.checkOpen(workspaceRoot); err != nil {
		return nil, Selection{}, err
	}
	if strings.TrimSpace(filePath) == "" {
		return nil, Selection{}, Errorf(CodeInvalidArgument, "filePath must be a non-empty path")
	}
	s.mu.Lock()
	specs := s.specs
	key := selectionKey(filePath, specs)
	sel, cached := s.selected[key]
	s.mu.Unlock()
	if !cached {
		var err error
		if sel, err = s.core.SelectProvider(ctx, filePath, specs); err != nil {
			if isCodeUnavailable(err) {
				if gone := s.retiredOwner(ctx, filePath); gone != nil {
					return nil, Selection{}, gone
				}
			}
			return nil, Selection{}, outsideFirst(err, filePath, workspaceRoot)
		}
		s.mu.Lock()
		if sameSpecs(s.specs, specs) {
			if s.selected == nil {
				s.selected = map[string]Selection{}
			}
			s.selected[key] = sel
		}
		s.mu.Unlock()
	}
	s.mu.Lock()
	e := s.entries[sel.ID]
	closed := s.closed
	r, retired := s.retired[sel.ID]
	s.mu.Unlock()
	if closed {
		return nil, Selection{}, serviceDisposed()
	}
	if e == nil && retired {
		// Retired between selection and lookup.
		return nil, Selection{}, retiredError(sel.ID, r.why, filePath)
	}
	if e == nil { // disposed between selection and lookup
		return nil, Selection{}, Errorf(CodeUnavailable, "the language server provider for %s was removed; try again or use a text search (grep) and read", filePath)
	}
	return e, sel, nil
}

// Session runs fn in a session on the language server that owns
// filePath's extension (see SessionProvider): the catalog's tools use it
// to send several requests in one turn. A provider that is not a
// SessionProvider answers LSP_UNSUPPORTED_OPERATION.
func (s *Service) Session(ctx context.Context, filePath, workspaceRoot string, fn func(context.Context, Session) error) error {
	e, sel, err := s.route(ctx, filePath, workspaceRoot)
	if err != nil {
		return err
	}
	sp, ok := e.provider.(SessionProvider)
	if !ok {
		return Errorf(CodeUnsupportedOperation, "the provider %q answers the lsp tool only, not the code tools; register a provider that implements lspseam.SessionProvider (localstdio does)", sel.ID)
	}
	q := ProviderQuery{QueryRequest: QueryRequest{FilePath: filePath, WorkspaceRoot: workspaceRoot}, LanguageID: sel.LanguageID}
	return sp.Session(ctx, q, fn)
}

// Close rejects later registrations and queries with LSP_DISPOSED. It does
// not dispose providers: whoever registered them owns them.
func (s *Service) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	s.entries = map[string]*entry{}
	s.specs = nil
	s.selected = nil
	return nil
}

// sameSpecs reports whether the registry still has the provider set a
// selection was computed from (registration replaces the slice).
func sameSpecs(a, b []ProviderSpec) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func isCodeUnavailable(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == CodeUnavailable
}

func serviceDisposed() error {
	return Errorf(CodeDisposed, "the lspseam Service was closed; no further queries are accepted")
}

// Running reports whether the provider that owns filePath already runs a
// server for the workspace (false for a provider that cannot say).
func (s *Service) Running(ctx context.Context, filePath, workspaceRoot string) bool {
	e, sel, err := s.route(ctx, filePath, workspaceRoot)
	if err != nil {
		return false
	}
	sp, ok := e.provider.(SessionProvider)
	return ok && sp.Running(ProviderQuery{QueryRequest: QueryRequest{FilePath: filePath, WorkspaceRoot: workspaceRoot}, LanguageID: sel.LanguageID})
}

// ProviderOf names the provider that owns filePath's extension ("" when
// none does).
func (s *Service) ProviderOf(ctx context.Context, filePath, workspaceRoot string) string {
	_, sel, err := s.route(ctx, filePath, workspaceRoot)
	if err != nil {
		return ""
	}
	return sel.ID
}

// ProjectRoot is the absolute directory whose server would serve
// filePath (SessionProvider.ProjectRoot), "" when no session provider
// owns filePath's extension.
func (s *Service) ProjectRoot(ctx context.Context, filePath, workspaceRoot string) string {
	e, sel, err := s.route(ctx, filePath, workspaceRoot)
	if err != nil {
		return ""
	}
	sp, ok := e.provider.(SessionProvider)
	if !ok {
		return ""
	}
	return sp.ProjectRoot(ProviderQuery{QueryRequest: QueryRequest{FilePath: filePath, WorkspaceRoot: workspaceRoot}, LanguageID: sel.LanguageID})
}

// Selection is the provider that owns filePath's extension and the
// language id it maps the extension to (ok false when none does).
func (s *Service) Selection(ctx context.Context, filePath, workspaceRoot string) (Selection, bool) {
	_, sel, err := s.route(ctx, filePath, workspaceRoot)
	return sel, err == nil
}

// outsideFirst says first, for a path no provider owns, that it is outside
// the workspace, when it is as written: "/etc/passwd has no file
// extension" alone sent a model to read a file that read then refused.
// The check is on the path as given (this package reads no files); a path
// inside through a symlink keeps the provider's error.
func outsideFirst(err error, filePath, workspaceRoot string) error {
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeUnavailable {
		return err
	}
	p := filePath
	if !filepath.IsAbs(p) {
		p = filepath.Join(workspaceRoot, p)
	}
	rel, rerr := filepath.Rel(filepath.Clean(workspaceRoot), filepath.Clean(p))
	if rerr == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return err
	}
	return Errorf(CodeSourceRejected, "%s is outside the workspace %s: lspseam answers only for files inside it; give a path inside it (relative paths are relative to it)", filePath, workspaceRoot)
}
