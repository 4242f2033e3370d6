package lspseam

import (
	"context"
	"strings"
	"sync"
)

// QueryRequest is one seam query. Position is zero-based (UTF-16 columns);
// WorkspaceRoot comes from the session (a harness's working directory),
// never from the model.
type QueryRequest struct {
	Operation     Operation `json:"operation"`
	FilePath      string    `json:"filePath"`
	Position      Position  `json:"position"`
	WorkspaceRoot string    `json:"workspaceRoot"`
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
	Provider            Provider
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
}

// selectionKey partitions paths so that every path with the same key has
// the same final extension, and so the same selection: the base name's
// suffix from its last dot, lowercased, or a marker for a base name
// without a dot or whose only dot comes first (a dotfile: no extension).
// It only keys a cache of the core's answers; the core alone decides.
func selectionKey(filePath string) string {
	base := filePath
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
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
	if reg.Provider == nil {
		return nil, Errorf(CodeInvalidArgument, "registration %q has no Provider", reg.ID)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, serviceDisposed()
	}
	candidate := append(append([]ProviderSpec(nil), s.specs...), ProviderSpec{ID: reg.ID, ExtensionToLanguage: reg.ExtensionToLanguage})
	normalized, err := s.core.CheckProviders(ctx, candidate)
	if err != nil {
		return nil, err
	}
	e := &entry{spec: normalized[len(normalized)-1], provider: reg.Provider}
	s.entries[reg.ID] = e
	s.specs = normalized
	s.selected = nil
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.entries[reg.ID] != e {
				return
			}
			delete(s.entries, reg.ID)
			specs := make([]ProviderSpec, 0, len(s.specs))
			for _, sp := range s.specs {
				if sp.ID != reg.ID {
					specs = append(specs, sp)
				}
			}
			s.specs = specs
			s.selected = nil
		})
	}, nil
}

// Query selects the provider that owns the file's final extension and
// calls it. Errors: LSP_DISPOSED after Close, LSP_WORKSPACE_REQUIRED without
// a workspace root, LSP_INVALID_ARGUMENT for a bad operation or path,
// LSP_UNAVAILABLE when no provider owns the extension, and whatever the
// provider returns.
func (s *Service) Query(ctx context.Context, req QueryRequest) (Result, error) {
	key := selectionKey(req.FilePath)
	s.mu.Lock()
	closed, specs := s.closed, s.specs
	sel, cached := s.selected[key]
	s.mu.Unlock()
	switch {
	case closed:
		return Result{}, serviceDisposed()
	case strings.TrimSpace(req.WorkspaceRoot) == "":
		return Result{}, Errorf(CodeWorkspaceRequired, "lsp needs the session's workspace root (the harness's working directory); none was given")
	case req.Operation != OpDefinition && req.Operation != OpReferences && req.Operation != OpImplementation && req.Operation != OpHover:
		return Result{}, Errorf(CodeInvalidArgument, "operation must be one of goToDefinition, findReferences, goToImplementation, hover; got %q", req.Operation)
	case strings.TrimSpace(req.FilePath) == "":
		return Result{}, Errorf(CodeInvalidArgument, "filePath must be a non-empty path")
	}
	if !cached {
		var err error
		if sel, err = s.core.SelectProvider(ctx, req.FilePath, specs); err != nil {
			return Result{}, err
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
	closed = s.closed
	s.mu.Unlock()
	if closed {
		return Result{}, serviceDisposed()
	}
	if e == nil { // disposed between selection and lookup
		return Result{}, Errorf(CodeUnavailable, "the language server provider for %s was removed; try again or use search/read", req.FilePath)
	}
	return e.provider.Query(ctx, ProviderQuery{QueryRequest: req, LanguageID: sel.LanguageID})
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

func serviceDisposed() error {
	return Errorf(CodeDisposed, "the lspseam Service was closed; no further queries are accepted")
}
