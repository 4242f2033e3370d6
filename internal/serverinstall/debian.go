package serverinstall

import (
	"context"

	"github.com/lspseam/lspseam/core"
)

// Debian: `apt-get install -y package`, system-wide, so only as root;
// anyone else is told the command to run as root. The package's version
// is the distribution's (no pin).

func (in *Installer) debianMethod(e core.ServerEntry, d *core.DebianInstall) method {
	m := method{
		kind:    "debian",
		spec:    "apt-get install -y " + d.Package,
		client:  "apt-get",
		missing: "apt-get is not on PATH (not a Debian or Ubuntu system): install " + e.Name + " with your system's package manager",
		install: func(ctx context.Context, in *Installer, _ string, aptGet string) error {
			cmd := in.command(ctx, "", aptGet, []string{"install", "-y", d.Package}, "DEBIAN_FRONTEND=noninteractive")
			return in.step(ctx, e.ID, "", cmd)
		},
	}
	root := isRoot
	if in.IsRoot != nil {
		root = in.IsRoot
	}
	if !root() {
		m.problem = errorf(CodeNeedsRoot, "apt-get installs %s only as root: run `sudo apt-get install %s`", d.Package, d.Package)
	}
	return m
}
