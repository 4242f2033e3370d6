package lspseam

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/lspseam/lspseam/core"
	"github.com/lspseam/lspseam/internal/casefile"
)

// Benchmarks behind the figures in docs/performance.md. Run them with
// `make bench`; compare ratios from one run, not absolute times across
// machines.

// translateRender is one query's worth of core work: translate the raw
// payload, then render the result (limits raised so every location is
// rendered).
func translateRender(call func(method string, in []byte) []byte, payload []byte) []byte {
	translated := call("translate", payload)
	ok := translated[len(`{"ok":`) : len(translated)-1]
	in := make([]byte, 0, len(ok)+96)
	in = append(in, `{"workspaceUri":"file:///work/project","maxLocations":100000,"maxResultChars":10000000,"result":`...)
	in = append(in, ok...)
	in = append(in, '}')
	return call("render", in)
}

// BenchmarkTranslateRender measures translate+render natively and through
// the module in the same run and reports the module/native ratio.
func BenchmarkTranslateRender(b *testing.B) {
	c := newTestCore(b)
	ctx := context.Background()
	module := func(method string, in []byte) []byte {
		out, err := c.Call(ctx, method, in)
		if err != nil {
			b.Fatal(err)
		}
		return out
	}
	baseline := baselineModule(b)
	for _, n := range []int{10, 1000, 10000} {
		payload := casefile.ReferencesPayload(n)
		if !bytes.Equal(translateRender(module, payload), translateRender(core.Call, payload)) {
			b.Fatal("module and native disagree")
		}
		if baseline != nil {
			for i := 0; i < 10; i++ {
				translateRender(baseline, payload) // warm up, as below
			}
		}
		// Warm up: the module's linear memory grows to its working size over
		// the first calls (each growth copies it), which is start-up cost,
		// not per-call cost.
		for i := 0; i < 10; i++ {
			translateRender(module, payload)
		}
		b.Run(fmt.Sprintf("native/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				translateRender(core.Call, payload)
			}
		})
		b.Run(fmt.Sprintf("module/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				translateRender(module, payload)
			}
		})
		if baseline != nil {
			// The same work through another module (an older build), in the
			// same run: before/after figures without a second process.
			b.Run(fmt.Sprintf("baseline/n=%d", n), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					translateRender(baseline, payload)
				}
			})
			b.Run(fmt.Sprintf("baseline-ratio/n=%d", n), func(b *testing.B) {
				reportRatio(b, baseline, payload, "baseline/native")
			})
		}
		b.Run(fmt.Sprintf("ratio/n=%d", n), func(b *testing.B) {
			reportRatio(b, module, payload, "module/native")
		})
	}
}

// reportRatio reports how long translate+render through call takes against
// the native call, the two alternated so both see the same machine state.
func reportRatio(b *testing.B, call func(method string, in []byte) []byte, payload []byte, unit string) {
	var native, other time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		translateRender(core.Call, payload)
		t1 := time.Now()
		translateRender(call, payload)
		other += time.Since(t1)
		native += t1.Sub(t0)
	}
	b.ReportMetric(float64(other)/float64(native), unit)
}

// baselineModule runs another build of the core module named by
// $LSPSEAM_BENCH_BASELINE (e.g. `git show OLD:bindings/go/core.wasm >
// /tmp/old.wasm`), so BenchmarkTranslateRender reports it beside the
// embedded one in the same run; nil when unset. Its answers are not
// checked: an older module may render differently.
func baselineModule(b *testing.B) func(method string, in []byte) []byte {
	path := os.Getenv("LSPSEAM_BENCH_BASELINE")
	if path == "" {
		return nil
	}
	wasm, err := os.ReadFile(path)
	if err != nil {
		b.Fatalf("LSPSEAM_BENCH_BASELINE: %v", err)
	}
	c := newTestCore(b, withModule(wasm))
	return func(method string, in []byte) []byte {
		out, err := c.Call(context.Background(), method, in)
		if err != nil {
			b.Fatal(err)
		}
		return out
	}
}

// BenchmarkNewCore measures creating a Core: cold (compiling the module),
// with a warm on-disk compilation cache, the first call after an idle
// release, and one more instance from an already compiled module.
func BenchmarkNewCore(b *testing.B) {
	ctx := context.Background()
	b.Run("cold", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			c, err := NewCore(ctx, WithCompilationCacheDir(b.TempDir()))
			if err != nil {
				b.Fatal(err)
			}
			c.Close(ctx)
		}
	})
	b.Run("warm-cache", func(b *testing.B) {
		dir := b.TempDir()
		c, err := NewCore(ctx, WithCompilationCacheDir(dir))
		if err != nil {
			b.Fatal(err)
		}
		c.Close(ctx)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			c, err := NewCore(ctx, WithCompilationCacheDir(dir))
			if err != nil {
				b.Fatal(err)
			}
			c.Close(ctx)
		}
	})
	// The first call after an idle release (WithIdleRelease): the module
	// loaded again from a warm cache directory, plus one instance.
	b.Run("after-release", func(b *testing.B) {
		c := newTestCore(b, WithCompilationCacheDir(b.TempDir()))
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			if !c.releaseNow() {
				b.Fatal("the idle core was not released")
			}
			b.StartTimer()
			if _, err := c.Call(ctx, "toolDefinition", []byte(`{}`)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("instance", func(b *testing.B) {
		c := newTestCore(b)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			in, err := c.newInstance(ctx)
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			in.module.Close(ctx)
			b.StartTimer()
		}
	})
}

// BenchmarkFirstCallAfterIdle measures the first call after an idle
// release against a warm call, alternated in one run, for both release
// forms (release.go): "full" drops the compiled module and loads it again
// from the cache directory; "resident" keeps it, and its instance of at
// most 8 MB, with its machine code given back to the page cache. It reports after-idle/warm and the extra
// milliseconds the first call pays. (Releases are triggered directly; the
// delay is irrelevant here.)
func BenchmarkFirstCallAfterIdle(b *testing.B) {
	ctx := context.Background()
	call := func(c *Core) time.Duration {
		t0 := time.Now()
		if _, err := c.Call(ctx, "toolDefinition", []byte(`{}`)); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	for _, form := range []string{"full", "resident"} {
		b.Run(form, func(b *testing.B) {
			opts := []Option{WithIdleRelease(time.Hour), WithCompilationCacheDir(b.TempDir())}
			if form == "full" {
				opts = append(opts, withFullRelease())
			}
			c := newTestCore(b, opts...)
			call(c)
			if form == "resident" && residentCode(c) == nil {
				b.Skip("the machine code could not be moved into a file here")
			}
			var warm, after time.Duration
			for i := 0; i < b.N; i++ {
				warm += call(c)
				before, _ := releasedCount(c)
				c.releaseIdle()
				if n, _ := releasedCount(c); n != before+1 {
					b.Fatal("the idle core was not released")
				}
				after += call(c)
			}
			b.ReportMetric(float64(after)/float64(warm), "after-idle/warm")
			b.ReportMetric(float64(after-warm)/float64(b.N)/float64(time.Millisecond), "extra-ms")
		})
	}
}

// BenchmarkCall measures the fixed cost of one small module call
// (parseToolArgs) against the native call.
func BenchmarkCall(b *testing.B) {
	c := newTestCore(b)
	ctx := context.Background()
	in := []byte(`{"operation":"hover","file_path":"shapes/area.go","line":12,"character":6}`)
	b.Run("native", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			core.Call("parseToolArgs", in)
		}
	})
	b.Run("module", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := c.Call(ctx, "parseToolArgs", in); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkModuleSize reports the embedded module's size and its code
// section's (the part wazero compiles to machine code, about six bytes of
// it per byte), for comparing builds; nothing is timed.
func BenchmarkModuleSize(b *testing.B) {
	for i := 0; i < b.N; i++ {
	}
	code, ok := codeSectionSize(coreWasm)
	if !ok {
		b.Fatal("core.wasm has no readable code section")
	}
	b.ReportMetric(float64(len(coreWasm)), "module-bytes")
	b.ReportMetric(float64(code), "code-bytes")
}

// codeSectionSize walks a WebAssembly binary's sections (id, LEB128 size,
// contents) to the code section (id 10) and returns its size.
func codeSectionSize(wasm []byte) (int, bool) {
	if len(wasm) < 8 || string(wasm[:4]) != "\x00asm" {
		return 0, false
	}
	for i := 8; i < len(wasm); {
		id := wasm[i]
		i++
		size, shift := 0, 0
		for ; i < len(wasm); i++ {
			size |= int(wasm[i]&0x7f) << shift
			shift += 7
			if wasm[i] < 0x80 {
				break
			}
		}
		i++
		if id == 10 {
			return size, true
		}
		i += size
	}
	return 0, false
}
