package localstdio

import (
	"context"
	"reflect"
	"sync"
	"testing"

	"github.com/lspseam/lspseam/core"
)

// A file's command requests are asked of the core once, however many
// checks ask for them at once, and are the core's answer; another file or
// another command is asked anew, and an error is not remembered.
func TestCommandRequestsAskedOncePerFile(t *testing.T) {
	ctx := context.Background()
	c, asked := countingCore(t, "commandDiagnosticsRequests")
	var m commandRequestsMemo
	uris := []string{"file:///w/a.ts", "file:///w/b.ts"}
	var wg sync.WaitGroup
	for range 8 {
		for _, uri := range uris {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := m.requests(ctx, c, core.TSServerRequestCommand, uri); err != nil {
					t.Error(err)
				}
			}()
		}
	}
	wg.Wait()
	n := asked.Load() // concurrent first asks may each reach the core
	for _, uri := range uris {
		got, err := m.requests(ctx, c, core.TSServerRequestCommand, uri)
		if err != nil {
			t.Fatal(err)
		}
		want, err := c.CommandDiagnosticsRequests(ctx, core.TSServerRequestCommand, uri)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: from the memo %+v, the core %+v", uri, got, want)
		}
	}
	if after := asked.Load() - 2; after != n || n < 2 || n > 16 {
		t.Errorf("the core was asked %d times for 16 concurrent calls on 2 files and %d more after, want each file's first", n, after-n)
	}
	if _, err := m.requests(ctx, c, "other.command", uris[0]); err == nil {
		t.Fatal("an unknown command was not refused")
	}
	asked.Store(0)
	for range 2 {
		if _, err := m.requests(ctx, c, "other.command", uris[0]); err == nil {
			t.Fatal("an unknown command was not refused")
		}
	}
	if n := asked.Load(); n != 2 {
		t.Errorf("a refused command was asked %d times in 2 calls: an error must not be remembered", n)
	}
}
