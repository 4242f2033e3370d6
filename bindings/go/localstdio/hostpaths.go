package localstdio

import (
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// hostPaths are this OS's rules for paths and their file: URIs
// (workspacefs.HostPaths): everything the provider turns from a path into
// a URI, or back, or keys by path, goes through them; tests run another
// OS's route by passing core.PathRulesFor(goos).
var hostPaths = workspacefs.HostPaths

// toWatchPaths writes the host paths of a fileChanges input as the core
// reads them (core.PathRules.WatchPath: /C:/src/a.go on Windows) and says
// whose they are; fromWatchPaths reads the answer's paths back. Under
// POSIX rules both leave everything as it is. ok is false when a path has
// no such form (a UNC path, \\server\share\x): its changes cannot be
// named to the server.
func toWatchPaths(rules core.PathRules, in *lspseam.FileChangesInput) (ok bool) {
	if !rules.Windows {
		return true
	}
	ok = true
	watch := func(p string) string {
		w := rules.WatchPath(p)
		if !strings.HasPrefix(w, "/") || strings.HasPrefix(w, "//") {
			ok = false
		}
		return w
	}
	in.Windows = true
	changes := make([]lspseam.PathChange, len(in.Changes))
	for i, c := range in.Changes {
		c.Path = watch(c.Path)
		changes[i] = c
	}
	in.Changes = changes
	if in.Root != "" {
		in.Root = watch(in.Root)
	}
	docs := make([]string, len(in.OpenDocuments))
	for i, p := range in.OpenDocuments {
		docs[i] = watch(p)
	}
	in.OpenDocuments = docs
	return ok
}

func fromWatchPaths(rules core.PathRules, res *lspseam.FileChangesResult) {
	if !rules.Windows {
		return
	}
	for _, list := range [][]string{res.Reverify, res.Open, res.Uncovered} {
		for i, p := range list {
			list[i] = rules.HostPath(p)
		}
	}
}
