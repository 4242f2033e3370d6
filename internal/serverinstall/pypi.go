package serverinstall

import (
	"context"
	"path/filepath"

	"github.com/lspseam/lspseam/core"
)

// PyPI: a private virtual environment per install (`python3 -m venv
// DIR/venv`), then `pip install package==version` with its own python;
// the command is the console script venv/bin/<command>. The venv keeps
// the server's dependencies away from the user's Python and every other
// server's.

func pypiMethod(e core.ServerEntry, p *core.PyPIInstall) method {
	return method{
		kind:       "pypi",
		spec:       "pypi " + p.Package + "==" + p.Version,
		key:        "pypi-" + keyPart(p.Package) + "-" + keyPart(p.Version),
		client:     "python3",
		missing:    "python3 is not on PATH: install Python ≥ 3.9 with its venv module (Debian and Ubuntu: apt-get install python3-venv), then run this again",
		executable: "venv/bin/" + e.Command,
		install: func(ctx context.Context, in *Installer, dir, python string) error {
			venv := filepath.Join(dir, "venv")
			if err := in.step(ctx, e.ID, dir, in.command(ctx, dir, python, []string{"-m", "venv", venv})); err != nil {
				if ee, ok := err.(*Error); ok {
					ee.Message += " (Debian and Ubuntu need the python3-venv package for python3 -m venv)"
				}
				return err
			}
			pip := []string{"-m", "pip", "install", "--disable-pip-version-check", "--no-input", p.Package + "==" + p.Version}
			return in.step(ctx, e.ID, dir, in.command(ctx, dir, filepath.Join(venv, "bin", "python"), pip))
		},
	}
}
