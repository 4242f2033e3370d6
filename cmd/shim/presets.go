package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/localstdio"
)

// presetsYAML is the built-in server table. Without --config, each preset
// whose command resolves on PATH is registered; `lspseam presets` prints
// this text as a starting point for a config file.
const presetsYAML = `# lspseam server table. Each key is a provider id; each server needs a
# command (an executable on PATH or an absolute path; no shell is used) and
# the extensions it serves. Every other field is optional:
#   args, env, initializationOptions, configuration (the static answer to
#   workspace/configuration), maxMessageBytes (16000000),
#   maxStderrBytes (1000000), maxDocumentBytes (4000000),
#   shutdownTimeoutMs (5000), killGraceMs (2000), settleMs (the server's
#   readiness policy), rootMarkers ([]: the server runs in the workspace;
#   else in the nearest directory holding one of these files),
#   maxOpenDocuments (64), idleTimeoutMs (1800000), passEnv ([]: host
#   variables passed beyond the environment allowlist).
# timeoutMs (60000) is the budget of one lsp call; maxRequestBytes
# (8000000) bounds one message from a client of lspseam serve.
timeoutMs: 60000
servers:
  gopls:
    command: gopls
    rootMarkers: [go.work, go.mod]
    extensionToLanguage:
      .go: go
  typescript:
    command: typescript-language-server
    args: [--stdio]
    rootMarkers: [tsconfig.json, jsconfig.json, package.json]
    # lspseam watches the files and tells tsserver (no watcher lag).
    initializationOptions: {tsserver: {useClientFileWatcher: true}}
    extensionToLanguage:
      .ts: typescript
      .tsx: typescriptreact
      .mts: typescript
      .cts: typescript
      .js: javascript
      .jsx: javascriptreact
      .mjs: javascript
      .cjs: javascript
  pyright:
    command: pyright-langserver
    args: [--stdio]
    rootMarkers: [pyrightconfig.json, pyproject.toml, setup.py, setup.cfg]
    extensionToLanguage:
      .py: python
      .pyi: python
  clangd:
    command: clangd
    rootMarkers: [compile_commands.json, compile_flags.txt, .clangd]
    extensionToLanguage:
      .c: c
      .h: c
      .cc: cpp
      .cpp: cpp
      .cxx: cpp
      .hh: cpp
      .hpp: cpp
      .hxx: cpp
`

func runPresets(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("presets", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		fmt.Fprint(stderr, "usage: lspseam presets\n")
		return exitUsage
	}
	fmt.Fprint(stdout, presetsYAML)
	return exitOK
}

// loadPresets validates the presets and keeps the servers whose command
// resolves; the others are logged and skipped.
func loadPresets(ctx context.Context, c *lspseam.Core, log *slog.Logger) ([]localstdio.Server, lspseam.Config, error) {
	data, err := yamlToJSON([]byte(presetsYAML), "presets")
	if err != nil {
		return nil, lspseam.Config{}, err
	}
	cfg, err := c.ValidateConfig(ctx, data)
	if err != nil {
		return nil, lspseam.Config{}, err
	}
	var servers []localstdio.Server
	for _, id := range []string{"clangd", "gopls", "pyright", "typescript"} {
		sc := cfg.Servers[id]
		env := localstdio.ServerEnv(os.Environ(), sc.PassEnv, sc.Env)
		path, problem := localstdio.ResolveExecutable(sc.Command, env)
		if problem != "" {
			log.Info("preset skipped", "id", id, "reason", problem)
			continue
		}
		servers = append(servers, localstdio.Server{ID: id, Config: sc, Path: path, Env: env})
	}
	return servers, cfg, nil
}
