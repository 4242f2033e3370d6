package lspseam

import (
	"context"
	"encoding/json"
	"testing"
	"time"
)

// BenchmarkAnswerAfterPause measures the lsp tool's last step, a server's
// hover answer to the model's text, as the query path meets it: after a
// pause (the wait for the server), through the typed methods. Translate
// then Render (two calls into the module, the result through Go's JSON in
// between) and TranslateRender (one) are alternated in one run:
//
//	go test -run '^$' -bench AnswerAfterPause -benchtime 200x ./bindings/go/
func BenchmarkAnswerAfterPause(b *testing.B) {
	c := newTestCore(b)
	ctx := context.Background()
	hover := json.RawMessage(`{"contents":{"kind":"markdown","value":"` +
		"```go\\nfunc (c *Command) HasSubCommands() bool\\n```\\n\\n---\\n\\nHasSubCommands determines if the command has children commands.\\n\\n\\n---\\n\\n" +
		`[` + "`(cobra.Command).HasSubCommands` on pkg.go.dev](https://pkg.go.dev/github.com/spf13/cobra#Command.HasSubCommands)" + `"},` +
		`"range":{"start":{"line":1263,"character":18},"end":{"line":1263,"character":32}}}`)
	const ws = "file:///work/cobra"
	const subject = "HasSubCommands (method)"
	two := func() Rendered {
		r, err := c.Translate(ctx, OpHover, hover)
		if err != nil {
			b.Fatal(err)
		}
		r.Subject = subject
		out, err := c.Render(ctx, r, ws, Limits{})
		if err != nil {
			b.Fatal(err)
		}
		return out
	}
	one := func() Rendered {
		_, out, err := c.TranslateRender(ctx, OpHover, hover, ws, subject, "", Limits{})
		if err != nil {
			b.Fatal(err)
		}
		return out
	}
	if two() != one() {
		b.Fatal("the two paths disagree")
	}
	var dTwo, dOne time.Duration
	for i := 0; i < b.N; i++ {
		for j, f := range []func() Rendered{two, one} {
			if i%2 == 1 { // alternate who goes first
				f = []func() Rendered{one, two}[j]
			}
			b.StopTimer()
			time.Sleep(5 * time.Millisecond)
			b.StartTimer()
			t0 := time.Now()
			f()
			d := time.Since(t0)
			if (i%2 == 0) == (j == 0) {
				dTwo += d
			} else {
				dOne += d
			}
		}
	}
	b.ReportMetric(float64(dTwo.Microseconds())/float64(b.N), "two-calls-us")
	b.ReportMetric(float64(dOne.Microseconds())/float64(b.N), "one-call-us")
	b.ReportMetric(float64(dOne)/float64(dTwo), "one/two")
}
