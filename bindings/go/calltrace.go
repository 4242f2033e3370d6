package lspseam

import "time"

// CallTrace is one ABI call as WithCallTrace reports it: the method, the
// bytes that crossed into and out of the module, and the time the module
// took (from borrowing an instance to the envelope's copy back).
type CallTrace struct {
	Method      string
	InputBytes  int
	OutputBytes int
	Duration    time.Duration
	// Input is the call's input, valid only during the callback (the
	// Core does not retain it): a benchmark copies it to replay the call.
	Input []byte
}

// WithCallTrace calls fn after every ABI call the Core makes, on the
// caller's goroutine, so a host can see what a tool call costs in the
// module and how many bytes it hands over (the benchmarks' "module
// share"). fn must be safe for concurrent use when the Core is used
// concurrently, and should be cheap: it runs on the query path.
func WithCallTrace(fn func(CallTrace)) Option { return func(o *options) { o.trace = fn } }
