package lspseam

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lspseam/lspseam/core"
)

func echoProvider(calls *atomic.Int32) Provider {
	return ProviderFunc(func(ctx context.Context, q ProviderQuery) (Result, error) {
		calls.Add(1)
		return Result{Kind: KindLocations, Locations: []Location{{URI: "file:///w/" + q.LanguageID}}}, nil
	})
}

func TestServiceSelectsByFinalExtension(t *testing.T) {
	ctx := context.Background()
	s := NewService(newTestCore(t))
	var goCalls, tsCalls atomic.Int32
	if _, err := s.RegisterProvider(ctx, Registration{ID: "gopls", ExtensionToLanguage: map[string]string{"go": "go"}, Provider: echoProvider(&goCalls)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RegisterProvider(ctx, Registration{ID: "ts", ExtensionToLanguage: map[string]string{".TS": "typescript", ".tsx": "typescriptreact"}, Provider: echoProvider(&tsCalls)}); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{"a.go": "go", "Foo.TS": "typescript", "x.d.ts": "typescript", "c.tsx": "typescriptreact"} {
		res, err := s.Query(ctx, QueryRequest{Operation: OpDefinition, FilePath: path, WorkspaceRoot: "/w"})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if got := res.Locations[0].URI; got != "file:///w/"+want {
			t.Errorf("%s: routed with language %s, want %s", path, got, want)
		}
	}
	if goCalls.Load() != 1 || tsCalls.Load() != 3 {
		t.Errorf("calls: go %d ts %d", goCalls.Load(), tsCalls.Load())
	}
	if _, err := s.Query(ctx, QueryRequest{Operation: OpHover, FilePath: "lib.rs", WorkspaceRoot: "/w"}); !isCode(err, CodeUnavailable) {
		t.Errorf("unmapped extension: %v", err)
	}
}

func TestServiceRegistrationIsAtomic(t *testing.T) {
	ctx := context.Background()
	s := NewService(newTestCore(t))
	var calls atomic.Int32
	dispose, err := s.RegisterProvider(ctx, Registration{ID: "a", ExtensionToLanguage: map[string]string{".ts": "typescript"}, Provider: echoProvider(&calls)})
	if err != nil {
		t.Fatal(err)
	}
	// b conflicts on .ts: nothing of b, not even .js, may be published.
	if _, err := s.RegisterProvider(ctx, Registration{ID: "b", ExtensionToLanguage: map[string]string{".js": "javascript", "TS": "typescript"}, Provider: echoProvider(&calls)}); !isCode(err, CodeConflict) {
		t.Fatalf("conflicting registration: %v", err)
	}
	if _, err := s.Query(ctx, QueryRequest{Operation: OpHover, FilePath: "a.js", WorkspaceRoot: "/w"}); !isCode(err, CodeUnavailable) {
		t.Fatalf(".js was published by a failed registration: %v", err)
	}
	// Same id again conflicts too.
	if _, err := s.RegisterProvider(ctx, Registration{ID: "a", ExtensionToLanguage: map[string]string{".c": "c"}, Provider: echoProvider(&calls)}); !isCode(err, CodeConflict) {
		t.Fatalf("duplicate id: %v", err)
	}
	// Invalid input publishes nothing.
	if _, err := s.RegisterProvider(ctx, Registration{ID: "c", ExtensionToLanguage: map[string]string{".c": "c", ".d.ts": "x"}, Provider: echoProvider(&calls)}); !isCode(err, CodeInvalidArgument) {
		t.Fatalf("invalid registration: %v", err)
	}
	if _, err := s.Query(ctx, QueryRequest{Operation: OpHover, FilePath: "a.c", WorkspaceRoot: "/w"}); !isCode(err, CodeUnavailable) {
		t.Fatalf(".c was published by an invalid registration: %v", err)
	}
	if _, err := s.RegisterProvider(ctx, Registration{ID: "nil"}); !isCode(err, CodeInvalidArgument) {
		t.Fatalf("registration without provider: %v", err)
	}
	// Disposing releases the id and every extension; disposing twice is fine.
	dispose()
	dispose()
	if _, err := s.Query(ctx, QueryRequest{Operation: OpHover, FilePath: "a.ts", WorkspaceRoot: "/w"}); !isCode(err, CodeUnavailable) {
		t.Fatalf("after dispose: %v", err)
	}
	if _, err := s.RegisterProvider(ctx, Registration{ID: "a", ExtensionToLanguage: map[string]string{".ts": "typescript"}, Provider: echoProvider(&calls)}); err != nil {
		t.Fatalf("re-registering after dispose: %v", err)
	}
}

// TestServiceRegistersASetInOneCall: RegisterProviders checks a set in
// one core call, all or nothing (a conflict inside the set or with a
// registered provider publishes none of it), and its disposer releases
// the whole set.
func TestServiceRegistersASetInOneCall(t *testing.T) {
	ctx := context.Background()
	var checks atomic.Int32
	s := NewService(newTestCore(t, WithCallTrace(func(c CallTrace) {
		if c.Method == "checkProviders" {
			checks.Add(1)
		}
	})))
	var calls atomic.Int32
	reg := func(id string, ext ...string) Registration {
		m := map[string]string{}
		for _, e := range ext {
			m[e] = id
		}
		return Registration{ID: id, ExtensionToLanguage: m, Provider: echoProvider(&calls)}
	}
	if _, err := s.RegisterProviders(ctx, reg("a", ".a"), reg("b", ".b", ".a2")); err != nil {
		t.Fatal(err)
	}
	if n := checks.Load(); n != 1 {
		t.Fatalf("two registrations took %d checkProviders calls, want 1", n)
	}
	// c conflicts with b inside the set: nothing of the set is published.
	if _, err := s.RegisterProviders(ctx, reg("c", ".c", ".x"), reg("d", ".d", ".x")); !isCode(err, CodeConflict) {
		t.Fatalf("a set conflicting with itself: %v", err)
	}
	// e is fine, f conflicts with a registered provider: neither is published.
	if _, err := s.RegisterProviders(ctx, reg("e", ".e"), reg("f", ".b")); !isCode(err, CodeConflict) {
		t.Fatalf("a set conflicting with a registered provider: %v", err)
	}
	if _, err := s.RegisterProviders(ctx, reg("g", ".g"), Registration{ID: "nil"}); !isCode(err, CodeInvalidArgument) {
		t.Fatalf("a set with a registration without provider: %v", err)
	}
	for _, path := range []string{"x.c", "x.d", "x.e", "x.g"} {
		if _, err := s.Query(ctx, QueryRequest{Operation: OpHover, FilePath: path, WorkspaceRoot: "/w"}); !isCode(err, CodeUnavailable) {
			t.Errorf("%s was published by a failed set: %v", path, err)
		}
	}
	dispose, err := s.RegisterProviders(ctx, reg("h", ".h"), reg("i", ".i"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"x.a", "x.a2", "x.h", "x.i"} {
		if _, err := s.Query(ctx, QueryRequest{Operation: OpHover, FilePath: path, WorkspaceRoot: "/w"}); err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
	dispose()
	for _, path := range []string{"x.h", "x.i"} {
		if _, err := s.Query(ctx, QueryRequest{Operation: OpHover, FilePath: path, WorkspaceRoot: "/w"}); !isCode(err, CodeUnavailable) {
			t.Errorf("%s after its set was disposed: %v", path, err)
		}
	}
	if _, err := s.Query(ctx, QueryRequest{Operation: OpHover, FilePath: "x.b", WorkspaceRoot: "/w"}); err != nil {
		t.Errorf("disposing one set released another's: %v", err)
	}
}

func TestServiceDisposerOfOldRegistrationKeepsNewOne(t *testing.T) {
	ctx := context.Background()
	s := NewService(newTestCore(t))
	var calls atomic.Int32
	first, _ := s.RegisterProvider(ctx, Registration{ID: "a", ExtensionToLanguage: map[string]string{".ts": "typescript"}, Provider: echoProvider(&calls)})
	first()
	if _, err := s.RegisterProvider(ctx, Registration{ID: "a", ExtensionToLanguage: map[string]string{".ts": "typescript"}, Provider: echoProvider(&calls)}); err != nil {
		t.Fatal(err)
	}
	first() // stale disposer: must not remove the new registration
	if _, err := s.Query(ctx, QueryRequest{Operation: OpHover, FilePath: "a.ts", WorkspaceRoot: "/w"}); err != nil {
		t.Fatalf("stale disposer removed the new registration: %v", err)
	}
}

func TestServiceQueryErrors(t *testing.T) {
	ctx := context.Background()
	s := NewService(newTestCore(t))
	var calls atomic.Int32
	s.RegisterProvider(ctx, Registration{ID: "gopls", ExtensionToLanguage: map[string]string{".go": "go"}, Provider: echoProvider(&calls)})
	cases := []struct {
		req  QueryRequest
		code Code
	}{
		{QueryRequest{Operation: OpHover, FilePath: "a.go"}, CodeWorkspaceRequired},
		{QueryRequest{Operation: "rename", FilePath: "a.go", WorkspaceRoot: "/w"}, CodeInvalidArgument},
		{QueryRequest{Operation: OpHover, FilePath: "", WorkspaceRoot: "/w"}, CodeInvalidArgument},
		{QueryRequest{Operation: OpHover, FilePath: "Makefile", WorkspaceRoot: "/w"}, CodeUnavailable},
		{QueryRequest{Operation: OpHover, FilePath: "/w/sub/Makefile", WorkspaceRoot: "/w"}, CodeUnavailable},
		// Outside the workspace is said first: "has no file extension"
		// alone sent a model to a read that then refused the path.
		{QueryRequest{Operation: OpHover, FilePath: "/etc/passwd", WorkspaceRoot: "/w"}, CodeSourceRejected},
		{QueryRequest{Operation: OpHover, FilePath: "../x.rs", WorkspaceRoot: "/w"}, CodeSourceRejected},
	}
	for _, c := range cases {
		if _, err := s.Query(ctx, c.req); !isCode(err, c.code) {
			t.Errorf("%+v: got %v, want %s", c.req, err, c.code)
		}
	}
	if calls.Load() != 0 {
		t.Errorf("provider called %d times for rejected queries", calls.Load())
	}
	s.Close()
	if _, err := s.Query(ctx, QueryRequest{Operation: OpHover, FilePath: "a.go", WorkspaceRoot: "/w"}); !isCode(err, CodeDisposed) {
		t.Errorf("query after Close: %v", err)
	}
	if _, err := s.RegisterProvider(ctx, Registration{ID: "x", ExtensionToLanguage: map[string]string{".x": "x"}, Provider: echoProvider(&calls)}); !isCode(err, CodeDisposed) {
		t.Errorf("register after Close: %v", err)
	}
}

// TestServiceConcurrent registers, queries and disposes from many
// goroutines at once (run with -race).
func TestServiceConcurrent(t *testing.T) {
	ctx := context.Background()
	s := NewService(newTestCore(t))
	var calls atomic.Int32
	s.RegisterProvider(ctx, Registration{ID: "gopls", ExtensionToLanguage: map[string]string{".go": "go"}, Provider: echoProvider(&calls)})
	var wg sync.WaitGroup
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			ext := ".e" + string(rune('a'+g))
			for i := 0; i < 10; i++ {
				dispose, err := s.RegisterProvider(ctx, Registration{ID: "p" + ext, ExtensionToLanguage: map[string]string{ext: "x"}, Provider: echoProvider(&calls)})
				if err != nil {
					t.Error(err)
					return
				}
				if _, err := s.Query(ctx, QueryRequest{Operation: OpHover, FilePath: "a.go", WorkspaceRoot: "/w"}); err != nil {
					t.Error(err)
				}
				if _, err := s.Query(ctx, QueryRequest{Operation: OpHover, FilePath: "a" + ext, WorkspaceRoot: "/w"}); err != nil {
					t.Error(err)
				}
				dispose()
			}
		}(g)
	}
	wg.Wait()
	if got := calls.Load(); got != 16*10*2 {
		t.Errorf("%d provider calls, want %d", got, 16*10*2)
	}
}

// TestSelectionKeyRefinesFinalExtension: paths that share a cache key must
// have the same final extension, or the cache could route a file to the
// wrong provider.
func TestSelectionKeyRefinesFinalExtension(t *testing.T) {
	paths := []string{"a.go", "A.GO", "dir.v2/a.go", "x.d.ts", "y.ts", "Makefile", "dir.x/Makefile", ".bashrc", "x.bashrc",
		".eslintrc.json", "a.", "b.", `c:\src\d.Go`, "/abs/π.py", "", ".", "..", "a/.hidden", "a.b/c"}
	byKey := map[string]string{}
	for _, p := range paths {
		k, ext := selectionKey(p, nil), core.FinalExtension(p)
		if prev, ok := byKey[k]; ok && prev != ext {
			t.Errorf("key %q groups final extensions %q and %q (path %q)", k, prev, ext, p)
		}
		byKey[k] = ext
	}
}

// TestServiceRetiredProviderAnswersDisposed: a file whose provider was
// retired (its host closed) answers LSP_DISPOSED naming why, not
// LSP_UNAVAILABLE's "no language servers are configured … use grep"; a
// plain dispose still frees the files (LSP_UNAVAILABLE), and a provider
// registered again for them answers them.
func TestServiceRetiredProviderAnswersDisposed(t *testing.T) {
	ctx := context.Background()
	s := NewService(newTestCore(t))
	var calls atomic.Int32
	if _, err := s.RegisterProviders(ctx,
		Registration{ID: "gopls", ExtensionToLanguage: map[string]string{".go": "go"}, Provider: echoProvider(&calls)},
		Registration{ID: "make", ExtensionToLanguage: map[string]string{}, FileNameToLanguage: map[string]string{"Makefile": "make"}, Provider: echoProvider(&calls)}); err != nil {
		t.Fatal(err)
	}
	disposeTS, err := s.RegisterProvider(ctx, Registration{ID: "tsserver", ExtensionToLanguage: map[string]string{".ts": "typescript"}, Provider: echoProvider(&calls)})
	if err != nil {
		t.Fatal(err)
	}
	s.RetireProviders([]string{"gopls", "make", "unknown"}, "its host was closed")
	disposeTS()
	for _, path := range []string{"a.go", "dir/Makefile"} {
		_, err := s.Query(ctx, QueryRequest{Operation: OpHover, FilePath: path, WorkspaceRoot: "/w"})
		var lerr *Error
		if !errors.As(err, &lerr) || lerr.Code != CodeDisposed || !strings.Contains(lerr.Message, "its host was closed") {
			t.Errorf("%s after its provider was retired: %v, want LSP_DISPOSED saying why", path, err)
		}
		if err := s.Session(ctx, path, "/w", func(context.Context, Session) error { return nil }); !isCode(err, CodeDisposed) {
			t.Errorf("Session on %s after its provider was retired: %v, want LSP_DISPOSED", path, err)
		}
	}
	if _, err := s.Query(ctx, QueryRequest{Operation: OpHover, FilePath: "a.ts", WorkspaceRoot: "/w"}); !isCode(err, CodeUnavailable) {
		t.Errorf("a.ts after a plain dispose: %v, want LSP_UNAVAILABLE", err)
	}
	if _, err := s.RegisterProvider(ctx, Registration{ID: "gopls2", ExtensionToLanguage: map[string]string{".go": "go"}, Provider: echoProvider(&calls)}); err != nil {
		t.Fatalf("registering .go again after its provider was retired: %v", err)
	}
	if _, err := s.Query(ctx, QueryRequest{Operation: OpHover, FilePath: "a.go", WorkspaceRoot: "/w"}); err != nil {
		t.Errorf("a.go with a new provider: %v", err)
	}
}
