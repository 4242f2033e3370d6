package serverinstall

import (
	"context"
	"strings"

	"github.com/lspseam/lspseam/core"
)

// npm: the pinned package and the packages it needs beside it (its
// `with`, e.g. typescript for typescript-language-server), installed with
// `npm install --prefix DIR` as DIR's dependencies, exact versions saved
// in DIR/package.json; the command is node_modules/.bin/<command>.

func npmMethod(e core.ServerEntry, n *core.NPMInstall) method {
	specs := append([]string{n.Package + "@" + n.Version}, n.With...)
	return method{
		kind:       "npm",
		spec:       "npm " + strings.Join(specs, " "),
		key:        "npm-" + keyPart(n.Package) + "-" + keyPart(n.Version),
		client:     "npm",
		missing:    "npm is not on PATH: install Node.js ≥ 20 (it comes with npm) from your package manager or https://nodejs.org, then run this again",
		executable: "node_modules/.bin/" + e.Command,
		install: func(ctx context.Context, in *Installer, dir, npm string) error {
			args := append([]string{"install", "--prefix", dir, "--save-exact", "--no-audit", "--no-fund", "--loglevel=error"}, specs...)
			return in.step(ctx, e.ID, dir, in.command(ctx, dir, npm, args))
		},
	}
}
