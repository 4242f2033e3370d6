package localstdio

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/internal/testenv"
)

func script(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestServerVersion(t *testing.T) {
	fake := buildFake(t)
	dir, ws := t.TempDir(), t.TempDir()
	noVersion := filepath.Join(dir, "noversion.json")
	os.WriteFile(noVersion, []byte(`{"serverInfo":{"name":"x"}}`), 0o644)
	env := []string{"PATH=/usr/bin:/bin"}
	for _, c := range []struct {
		name    string
		server  Server
		want    string // the version, or a part of the error
		wantErr bool
	}{
		{"initialize", Server{Path: fake, Config: lspseam.ServerConfig{Command: "fakelsp"}, Env: env}, "0.1.0", false},
		{"no serverInfo.version", Server{Path: fake, Config: lspseam.ServerConfig{Command: "fakelsp", Args: []string{"--script", noVersion}}, Env: env}, "gives no version", true},
		{"version flag of a known server", Server{Path: script(t, dir, "gopls", `[ "$1" = version ] && printf '\n  golang.org/x/tools/gopls v9.9.9\nbuild info\n' || exit 3`), Config: lspseam.ServerConfig{Command: "gopls", Known: "gopls"}, Env: env}, "golang.org/x/tools/gopls v9.9.9", false},
		{"version flag fails", Server{Path: script(t, dir, "clangd", `echo "unknown flag" >&2; exit 2`), Config: lspseam.ServerConfig{Command: "clangd"}, Env: env}, "clangd --version failed (exit status 2): unknown flag", true},
		{"version flag hangs", Server{Path: script(t, dir, "hang/clangd", `exec sleep 3600`), Config: lspseam.ServerConfig{Command: "clangd"}, Env: env}, "did not answer in time", true},
		{"initialize hangs", Server{Path: script(t, dir, "mute", `exec sleep 3600`), Config: lspseam.ServerConfig{Command: "mute"}, Env: env}, "did not answer initialize in time", true},
		{"exits at once", Server{Path: script(t, dir, "gone", `exit 0`), Config: lspseam.ServerConfig{Command: "gone"}, Env: env}, "ended before answering initialize", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			// The servers that hang are asked with a short bound, which is
			// what they test; the others get a share of the test's
			// deadline. A hang outlasts any share (an hour), so a bound
			// that did not hold fails the test (no answer within the share)
			// instead of answering late.
			bound := testenv.StepBudget(t)
			if strings.HasSuffix(c.name, "hangs") {
				bound = 500 * time.Millisecond
			}
			ctx, cancel := context.WithTimeout(context.Background(), bound)
			defer cancel()
			var v string
			var err error
			done := make(chan struct{})
			go func() {
				defer close(done)
				v, err = ServerVersion(ctx, c.server, ws)
			}()
			select {
			case <-done:
			case <-time.After(testenv.StepBudget(t)):
				t.Fatalf("no answer within %v: the bound of %v did not hold", testenv.StepBudget(t), bound)
			}
			if c.wantErr {
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Errorf("got %q, %v; want an error with %q", v, err, c.want)
				}
				return
			}
			if err != nil || v != c.want {
				t.Errorf("got %q, %v; want %q", v, err, c.want)
			}
		})
	}
}
