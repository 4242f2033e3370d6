package lspseam

import (
	"context"
	"runtime"

	"github.com/tetratelabs/wazero/experimental"
)

// Compiling the core module with an empty compilation cache is the
// largest cost of a first run: seconds of CPU, before the first call that
// needs the compiled module can be answered (the bridge answers only
// small ones). wazero compiles one function at a time unless it is told
// to use more goroutines; the module's functions are independent, so the
// work spreads over the cores the process may use. On a 2-core machine
// the compilation took 8.8 s with one worker and 3.1–4.3 s with two
// (BenchmarkNewCore/cold); `lspseam call … read` with an empty cache,
// spawn to exit, 6.6–6.8 s against 3.2–3.7 s.
//
// maxCompilationWorkers bounds the workers on machines with many cores:
// each worker keeps its own compiler state, about 20 MB more at the
// process's peak per worker (the same command: 149–151 MB with one, 168–
// 170 MB with two, 204–209 MB with four), and the peak lasts only while
// compiling.
const maxCompilationWorkers = 4

// withCompilationWorkers is ctx telling wazero's compiler how many
// goroutines may compile the module's functions: one per core the Go
// scheduler may use, at most maxCompilationWorkers.
func withCompilationWorkers(ctx context.Context) context.Context {
	return experimental.WithCompilationWorkers(ctx, min(runtime.GOMAXPROCS(0), maxCompilationWorkers))
}
