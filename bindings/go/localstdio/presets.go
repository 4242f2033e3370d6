package localstdio

import (
	"context"
	_ "embed" // the presets file
	"path/filepath"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// The built-in server table (presets.yaml) and how to install the servers
// it names. Every preset is optional, so the table loads on a machine with
// any subset of the servers installed.

//go:embed presets.yaml
var presetsYAML []byte

// Presets returns the built-in server table as the commented YAML that
// `lspseam presets` prints: gopls, typescript-language-server, pyright and
// clangd, each optional.
func Presets() []byte {
	return append([]byte(nil), presetsYAML...)
}

// LoadPresets loads the built-in server table like LoadConfig: the servers
// found are in Table.Servers, the others in Table.Missing.
func LoadPresets(ctx context.Context, core *lspseam.Core, opts LoadOptions) (*Table, error) {
	data, err := ConfigJSON(presetsYAML, "presets")
	if err != nil {
		return nil, err
	}
	return LoadConfig(ctx, core, data, opts)
}

// packageOf names, for the servers the presets run, the package that
// installs each command outside lspseam's `make servers`.
var packageOf = map[string]string{
	"gopls":                      "go install golang.org/x/tools/gopls@latest",
	"typescript-language-server": "npm install -g typescript-language-server typescript",
	"pyright-langserver":         "npm install -g pyright",
	"clangd":                     "apt-get install clangd on Debian or Ubuntu, or a release from https://github.com/clangd/clangd/releases",
}

// installAdvice says how to install command: the caller's advice (the CLI:
// `make servers` in its checkout), then the package that has it.
func installAdvice(command, advice string) string {
	pkg := packageOf[filepath.Base(command)]
	switch {
	case advice != "" && pkg != "":
		return advice + ", or " + pkg
	case advice != "":
		return advice
	}
	return pkg
}
