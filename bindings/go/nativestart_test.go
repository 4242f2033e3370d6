package lspseam

import (
	"bytes"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/lspseam/lspseam/core"
	"github.com/lspseam/lspseam/internal/casefile"
)

// TestNativeAnswersBeforeStart: while a warm Core's load is held (no
// bridge is prepared: every other call waits for the module), the
// methods of answeredNativelyBeforeStart are answered at once, as the
// module answers them (TestParity compares every golden case); a method
// not among them waits, giving up with its ctx. Once the module has
// started, it answers them itself.
func TestNativeAnswersBeforeStart(t *testing.T) {
	h := newHoldCompile()
	defer h.release()
	newTestCore(t) // the shared cache is warm: no bridge
	var traced []string
	c := newTestCore(t, WithLazyCompile(), withBeforeCompile(h.hold), WithCallTrace(func(ct CallTrace) { traced = append(traced, ct.Method) }))
	ctx := testDeadline(t)
	<-h.held
	// A user's config (the case this exists for), then every golden case
	// of every method answered natively.
	cfg, err := c.ValidateConfig(ctx, []byte(`{"servers":{"gopls":{"command":"gopls","extensionToLanguage":{".go":"go"}}}}`))
	if err != nil || cfg.Servers["gopls"].Command != "gopls" {
		t.Fatalf("ValidateConfig while the load is held: %v %+v", err, cfg)
	}
	cases := nativeStartCases(t)
	for _, tc := range cases {
		got, err := c.Call(ctx, tc.Method, tc.Bytes())
		if err != nil || !bytes.Equal(got, core.Call(tc.Method, tc.Bytes())) {
			t.Fatalf("%s/%s while the load is held: %v %s", tc.Method, tc.Name, err, got)
		}
	}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := c.Call(short, "parseToolArgs", []byte(`{"operation":"hover","file_path":"a.go","line":1,"character":1}`)); !isCode(err, CodeCancelled) {
		t.Fatalf("parseToolArgs while the load is held: %v, want LSP_CANCELLED (it waits for the module)", err)
	}
	h.release()
	if err := c.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.nativeBeforeStart("validateConfig", []byte(`{"presets":true}`)); ok {
		t.Fatal("validateConfig is still answered natively after the start")
	}
	if len(traced) != len(cases)+2 {
		t.Errorf("traced %d calls, want %d", len(traced), len(cases)+2)
	}
}

// FuzzNativeStartParity: on any input, the methods answered natively
// before the start answer byte for byte as the module does.
func FuzzNativeStartParity(f *testing.F) {
	methods := make([]string, 0, len(answeredNativelyBeforeStart))
	for m := range answeredNativelyBeforeStart {
		methods = append(methods, m)
	}
	slices.Sort(methods)
	for _, tc := range nativeStartCases(f) {
		f.Add(uint8(slices.Index(methods, tc.Method)), tc.Bytes())
	}
	c := newTestCore(f)
	f.Fuzz(func(t *testing.T, m uint8, input []byte) {
		method := methods[int(m)%len(methods)]
		module, err := c.Call(context.Background(), method, input)
		if err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		if native := core.Call(method, input); !bytes.Equal(module, native) {
			t.Fatalf("%s %q: module and native differ\nmodule: %s\nnative: %s", method, input, module, native)
		}
	})
}

// nativeStartCases are the golden cases of the methods answered natively
// before the start.
func nativeStartCases(t testing.TB) []casefile.Case {
	t.Helper()
	all, err := casefile.Load(casefile.Dir("../.."))
	if err != nil {
		t.Fatal(err)
	}
	var cases []casefile.Case
	seen := map[string]bool{}
	for _, tc := range all {
		if answeredNativelyBeforeStart[tc.Method] {
			cases = append(cases, tc)
			seen[tc.Method] = true
		}
	}
	for m := range answeredNativelyBeforeStart {
		if !seen[m] {
			t.Fatalf("no golden case of %s, which is answered natively before the start", m)
		}
	}
	return cases
}
