package serverinstall

import (
	"context"
	"path"

	"github.com/lspseam/lspseam/core"
)

// go: `go install module@version` with GOBIN=DIR/bin; the module proxy and
// checksum database the user's go is set up with verify it.

func goMethod(e core.ServerEntry, g *core.GoInstall) method {
	return method{
		kind:       "go",
		spec:       "go " + g.Module + "@" + g.Version,
		key:        "go-" + keyPart(path.Base(g.Module)) + "-" + keyPart(g.Version),
		client:     "go",
		missing:    "go is not on PATH: install Go (https://go.dev/doc/install), then run this again",
		executable: "bin/" + e.Command,
		install: func(ctx context.Context, in *Installer, dir, goTool string) error {
			cmd := in.command(ctx, dir, goTool, []string{"install", g.Module + "@" + g.Version}, "GOBIN="+dir+"/bin")
			return in.step(ctx, e.ID, dir, cmd)
		},
	}
}
