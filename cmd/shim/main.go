// Command lspseam (built from cmd/shim) is the native process of lspseam:
// it runs configured language servers, frames JSON-RPC, reads source files
// from this host, and calls the WebAssembly core for everything else.
//
// Usage:
//
//	lspseam query [--workspace DIR] [--config FILE] [--format text|json] [--timeout MS] OPERATION FILE:LINE:CHARACTER
//	lspseam serve [--config FILE]
//	lspseam mcp [--config FILE] [--workspace DIR] [--http HOST:PORT]
//	lspseam doctor [--workspace DIR] [--config FILE] [--format text|json]
//	lspseam servers list | install LANGUAGE|SERVER…|--detected
//	lspseam presets
//	lspseam version
//
// Logs go to stderr (--log-level debug|info|warn|error); stdout carries only
// results. Exit status: 0 with a result, 1 with a structured error, 2 on a
// usage error.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

const usage = `lspseam — language-server answers for AI coding agents

usage:
  lspseam query [flags] OPERATION FILE:LINE:CHARACTER
        run one query and print the rendered result
        OPERATION: goToDefinition | findReferences | goToImplementation | hover
        LINE and CHARACTER are one-based; CHARACTER counts UTF-16 code units
  lspseam call [flags] TOOL 'JSON_ARGUMENTS'
        run any tool (lsp, code_navigate, code_symbols, …) as a model would
  lspseam tools [--tools LIST] [--format text|json]
        print the tools' definitions (names, descriptions, schemas)
  lspseam serve [flags]
        JSON-RPC 2.0 over stdio (Content-Length framing) for harnesses
  lspseam mcp [flags]
        Model Context Protocol server over stdio with the chosen toolsets
        (--tools, default lsp,code); the workspace is --workspace, else the
        client's first root, else the current directory; --http HOST:PORT
        serves it over HTTP instead (bearer token, loopback only by default);
        --daemon auto relays the session to the user's shared daemon
  lspseam daemon [--idle DURATION] | daemon status | daemon stop
        the user's shared daemon: one set of language servers for every
        relaying lspseam mcp (started by the first of them)
  lspseam doctor [--workspace DIR] [--config FILE] [--format text|json]
        finish or undo changes that killed lspseam processes left half made;
        then the workspace's languages, each with its server: found (path,
        version) or missing (and the command that installs it)
  lspseam servers list [--format text|json]
        every server lspseam knows: language, tested, installed or missing,
        how to install it
  lspseam servers install LANGUAGE|SERVER… | --detected [--workspace DIR]
        install pinned servers for this user into
        $XDG_DATA_HOME/lspseam (default ~/.local/share/lspseam), where
        lspseam finds them; --detected: those doctor finds missing
  lspseam presets
        print the built-in server presets as a config file to edit
  lspseam version
        print the version

flags (query, serve, mcp; before or after the arguments):
  --config FILE       server table (YAML or JSON); default: built-in presets
                      for whichever of gopls, typescript-language-server,
                      pyright-langserver and clangd are installed (on PATH,
                      in .tools/bin of the checkout lspseam was built from,
                      or where make install-servers puts them)
  --workspace DIR     workspace root (query, mcp; default: the current directory)
  --format text|json  output of query (default text)
  --timeout MS        budget of one query (default: the config's timeoutMs, 60000)
  --log-level LEVEL   debug, info, warn or error (default warn); logs go to stderr

lspseam SUBCOMMAND --help (or lspseam help SUBCOMMAND) prints its usage.
`

// Exit codes.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

func main() {
	// LSPSEAM_CPUPROFILE=FILE writes a CPU profile of the whole run, for
	// finding where a long-lived serve or mcp spends its time (see the
	// docs/performance.md).
	if path := os.Getenv("LSPSEAM_CPUPROFILE"); path != "" {
		if f, err := os.Create(path); err == nil && pprof.StartCPUProfile(f) == nil {
			code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
			pprof.StopCPUProfile()
			f.Close()
			os.Exit(code)
		}
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "query":
		return runQuery(args[1:], stdout, stderr)
	case "serve":
		return runServe(args[1:], stdin, stdout, stderr)
	case "mcp":
		return runMCP(args[1:], stdin, stdout, stderr)
	case "daemon":
		return runDaemon(args[1:], stdout, stderr)
	case "call":
		return runCall(args[1:], stdout, stderr)
	case "tools":
		return runTools(args[1:], stdout, stderr)
	case "doctor":
		return runDoctor(args[1:], stdout, stderr)
	case "servers":
		return runServers(args[1:], stdout, stderr)
	case "presets":
		if helpRequested(args[1:]) {
			printSubcommandHelp(stdout, "presets", nil)
			return exitOK
		}
		return runPresets(args[1:], stdout, stderr)
	case "version", "--version", "-v":
		if helpRequested(args[1:]) {
			printSubcommandHelp(stdout, "version", nil)
			return exitOK
		}
		fmt.Fprintln(stdout, "lspseam", version())
		fmt.Fprintln(stdout, coreCodeLine())
		return exitOK
	case "help", "--help", "-h":
		if len(args) > 1 {
			// `lspseam help SUB` is `lspseam SUB --help`.
			if _, ok := subcommandHelp[args[1]]; !ok {
				fmt.Fprintf(stderr, "lspseam help: unknown command %q\n\n%s", args[1], usage)
				return exitUsage
			}
			return run([]string{args[1], "--help"}, stdin, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "lspseam: unknown command %q\n\n%s", args[0], usage)
	return exitUsage
}
