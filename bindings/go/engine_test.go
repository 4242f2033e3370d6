package lspseam

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"

	"github.com/lspseam/lspseam/core"
	"github.com/lspseam/lspseam/internal/casefile"
)

func TestParseEngine(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Engine
		ok   bool
	}{
		{"module", EngineModule, true},
		{"native", EngineNative, true},
		{" Checked ", EngineChecked, true},
		{"wasm", 0, false},
		{"", 0, false},
	} {
		got, err := ParseEngine(tt.in)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("ParseEngine(%q) = %v, %v; want %v (ok %v)", tt.in, got, err, tt.want, tt.ok)
		}
		var lerr *Error
		if err != nil && (!errors.As(err, &lerr) || lerr.Code != CodeInvalidArgument) {
			t.Errorf("ParseEngine(%q): %v is not LSP_INVALID_ARGUMENT", tt.in, err)
		}
	}
}

// Every engine answers every golden case with the golden envelope, and the
// native one without compiling or loading anything: its compilation cache
// directory stays empty.
func TestEnginesAnswerAlike(t *testing.T) {
	skipCompileUnderRace(t)
	dir := casefile.Dir("../..")
	cases, err := casefile.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	engines := map[Engine]*Core{}
	for _, e := range []Engine{EngineModule, EngineNative, EngineChecked} {
		opts := []Option{WithEngine(e)}
		if e == EngineNative {
			opts = append(opts, WithCompilationCacheDir(cache), WithLazyCompile(), WithIdleRelease(1))
		}
		engines[e] = newTestCore(t, opts...)
		if got := engines[e].Engine(); got != e {
			t.Fatalf("Engine() = %v, want %v", got, e)
		}
	}
	ctx := context.Background()
	n := 0
	for _, tc := range cases {
		want := core.Call(tc.Method, tc.Bytes())
		for e, c := range engines {
			got, err := c.Call(ctx, tc.Method, tc.Bytes())
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%v engine, %s/%s: %s, %v\nwant %s", e, tc.Method, tc.Name, got, err, want)
			}
		}
		n++
	}
	if n < 100 {
		t.Errorf("only %d cases ran", n)
	}
	if entries, err := os.ReadDir(cache); err != nil || len(entries) != 0 {
		t.Errorf("the native engine wrote its cache directory: %v %v", entries, err)
	}
}

// The checked engine fails a call the two answer differently, naming the
// method, and answers natively otherwise.
func TestCheckedEngineFailsOnDifference(t *testing.T) {
	skipCompileUnderRace(t)
	c := newTestCore(t, WithEngine(EngineChecked))
	ctx := context.Background()
	input := []byte(`{"operation":"hover","file_path":"a.go","line":3,"character":4}`)
	if _, err := c.Call(ctx, "parseToolArgs", input); err != nil {
		t.Fatalf("agreeing engines: %v", err)
	}
	defer func(f func(string, []byte) []byte) { nativeCall = f }(nativeCall)
	nativeCall = func(method string, input []byte) []byte { return append(core.Call(method, input), ' ') }
	_, err := c.Call(ctx, "parseToolArgs", input)
	var lerr *Error
	if !errors.As(err, &lerr) || lerr.Code != CodeInternal || !bytes.Contains([]byte(lerr.Message), []byte("parseToolArgs")) {
		t.Fatalf("disagreeing engines: %v, want LSP_INTERNAL_ERROR naming parseToolArgs", err)
	}
}

// A native Core keeps the lifecycle's promises: closed, it answers
// LSP_DISPOSED.
func TestNativeCoreClose(t *testing.T) {
	ctx := context.Background()
	c, err := NewCore(ctx, WithEngine(EngineNative))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Wait(ctx); err != nil {
		t.Fatalf("Wait: %v", err)
	}
	if err := c.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	_, err = c.Call(ctx, "parseToolArgs", []byte(`{}`))
	var lerr *Error
	if !errors.As(err, &lerr) || lerr.Code != CodeDisposed {
		t.Fatalf("after Close: %v, want LSP_DISPOSED", err)
	}
}
