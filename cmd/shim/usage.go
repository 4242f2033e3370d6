package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Subcommand usage: `lspseam SUB --help`, `lspseam SUB -h` and
// `lspseam help SUB` print it to stdout and exit 0, as people expect of a
// command-line tool. The flags section is generated from the subcommand's
// own flag set, so it cannot drift from what the subcommand accepts.

type subcommandDoc struct {
	synopsis string // after "usage: "
	about    string // what it does, arguments, operations
	example  string
}

var subcommandHelp = map[string]subcommandDoc{
	"query": {
		synopsis: "lspseam query [flags] OPERATION FILE:LINE:CHARACTER [flags]",
		about: `Runs one query through the language server configured for FILE's
extension and prints the rendered answer (one path:line:character per line,
or the hover text). Exit status: 0 with an answer, 1 with a structured
error (CODE: message), 2 on a usage error.

arguments:
  OPERATION            goToDefinition | findReferences | goToImplementation | hover
  FILE:LINE:CHARACTER  FILE relative to the workspace (or absolute inside it);
                       LINE and CHARACTER are one-based, CHARACTER counts
                       UTF-16 code units (an emoji counts 2)`,
		example: `  lspseam query --workspace testdata/workspaces/go findReferences shape.go:15:6
  lspseam query hover cmd/shapes/main.go:23:17 --format json`,
	},
	"call": {
		synopsis: "lspseam call [flags] TOOL ['JSON_ARGUMENTS'] [flags]",
		about: `Runs one tool exactly as a model would call it: the same argument
checks, budget and answer. The text answer goes to stdout; a failed call
prints CODE: message to stderr and exits 1. --format json prints the
structured answer instead ({"ok":true, …} or {"ok":false, "error":{code,
message}, "candidates"?}). An answer cut at its limit ends with how to see
more: --pages N prints up to N pages, following its cursor in this
process (a cursor ends with it). 'lspseam tools' lists the tools and
arguments.

Targets name a place without counting columns: {"path", "symbol"} ("Helper",
"Circle.Area", with "kind" to choose among same-named symbols), or
{"path", "line", "matchText"}, or {"path", "line", "column"} (one-based,
UTF-16), or {"path", "line"}.`,
		example: `  lspseam call --workspace testdata/workspaces/go code_navigate \
      '{"target":{"path":"shape.go","symbol":"Describe"},"kind":"references","context":1}'
  lspseam call code_symbols '{"path":"shape.go"}'
  lspseam call code_hierarchy '{"target":{"path":"shape.go","symbol":"TotalArea"},"kind":"callers","depth":2}'`,
	},
	"tools": {
		synopsis: "lspseam tools [--tools LIST] [--format text|json]",
		about: `Prints the definitions of the tools of the given toolsets (default: all):
lsp (the lsp tool), code (code_symbols, code_navigate, code_hover,
code_hierarchy, code_diagnostics, code_inlay_hints), fs (read, write, edit)
and refactor (code_rename, code_rename_file, code_insert, code_replace,
code_replace_batch, code_delete, code_actions, code_format). --format json
prints each tool's name, toolset, description and JSON Schema, as harnesses
register them.`,
		example: `  lspseam tools --tools code
  lspseam tools --format json`,
	},
	"serve": {
		synopsis: "lspseam serve [flags]",
		about: `JSON-RPC 2.0 over stdin/stdout with LSP's Content-Length framing, for
harnesses. lsp/query takes a zero-based seam request {operation, filePath,
position:{line, character}, workspaceRoot, timeoutMs?} and answers the seam
result; tools/list {toolsets?} lists the tools' definitions; tools/call {name,
arguments, workspaceRoot, timeoutMs?} runs one tool as a model would and
answers {content:[{type:"text", text}], structuredContent, isError};
$/cancelRequest {id} cancels a query or call; shutdown then exit stop it.`,
		example: `  lspseam serve --config lspseam.yaml`,
	},
	"mcp": {
		synopsis: "lspseam mcp [flags]",
		about: `A Model Context Protocol server over stdio with the tools of the chosen
toolsets (--tools, default lsp,code: the lsp tool and code_symbols,
code_navigate, code_hover, code_hierarchy, code_inlay_hints). The workspace
is --workspace, else the client's first file:// root, else the current
directory; / and the home directory are refused. --daemon auto (the
default; $LSPSEAM_DAEMON sets another) relays the session to the user's
shared daemon (see lspseam daemon --help), starting it when none runs,
and serves in this process when none can be reached; require fails
instead; off serves here. --profile compact lists
the tools with only what a model needs (no titles, annotations or
examples). Logs go to stderr; stdout
carries only MCP messages. A bad flag does not end the process: the
session is served, and every call answers LSP_CONFIG_INVALID naming it.

--http HOST:PORT serves streamable HTTP at http://HOST:PORT/mcp instead,
one private session per client over shared language servers. Every
request needs "Authorization: Bearer TOKEN"; the token is made on first
use, printed once and kept in --token-file (mode 0600). Only loopback
addresses are accepted unless --allow-remote; on loopback a Host or
Origin header that is not loopback is refused (403). A start problem is
refused at once: exit 2 for a usage error, 1 for the rest (config,
--workspace, token file, address in use).`,
		example: `  lspseam mcp --workspace /path/to/project --tools lsp,code
  in a client's mcpServers block (README.md's Quick start has Claude Code's,
  Claude Desktop's and Cursor's):
    "lspseam": {"command": "/home/you/.local/bin/lspseam",
                "args": ["mcp", "--workspace", "/home/you/src/project", "--tools", "lsp,code"]}
  lspseam mcp --http 127.0.0.1:8787 --workspace /path/to/project
  (from another machine: ssh -L 8787:127.0.0.1:8787 HOST, then
  http://127.0.0.1:8787/mcp with the header "Authorization: Bearer TOKEN")`,
	},
	"daemon": {
		synopsis: "lspseam daemon [--config FILE] [--idle DURATION] [--socket PATH] [--log-file FILE] | daemon status | daemon stop",
		about: `The user's shared daemon: it serves the MCP session of every
'lspseam mcp --daemon auto' (or require) that relays to it, with one set of
language servers for all of them, while each session keeps its own
previews, observations, approval mode, toolsets, roots and budget. The
first relaying client starts it (you need not); it listens on a Unix
socket in $LSPSEAM_RUNTIME_DIR, else $XDG_RUNTIME_DIR/lspseam, else
/tmp/lspseam-UID (a directory of mode 0700 that must be yours), named after
the lspseam executable, its version, the --config file's content and PATH:
clients that would start different servers get different daemons. It
exits after --idle with no client (default $LSPSEAM_DAEMON_IDLE, else 30m),
on 'lspseam daemon stop', or on SIGTERM, shutting its servers down first;
killed outright, its servers die with it.

'daemon status' prints each running daemon's status as a JSON line (pid,
socket, log, sessions now and served) and exits 1 when none runs;
'daemon stop' stops them (with --config or --socket: that one) and returns
once their servers are shut down.`,
		example: `  lspseam mcp --daemon auto --workspace /path/to/project
  LSPSEAM_DAEMON=auto (the environment of an MCP client's server entry)
  lspseam daemon status
  lspseam daemon stop`,
	},
	"doctor": {
		synopsis: "lspseam doctor [--workspace DIR] [--config FILE] [--format text|json]",
		about: `First finishes or undoes every change that a killed lspseam process left
half made (in DIR, or in every workspace), from the journal each change
writes before its first file is replaced: a change that had committed is
rolled forward, one that had not is rolled back, a file someone else changed
since is left as it is and named, and every temporary file is removed. Any
lspseam call in a workspace does this for it first; doctor does it without
one. The journals and locks are in $LSPSEAM_STATE_DIR (default
$XDG_STATE_HOME/lspseam, else ~/.local/state/lspseam).

Then a census of the workspace (DIR, default the current directory): its
files per language, by the config's (or the presets') extensions and whole
file names, then the server table's; hidden directories, node_modules,
vendor, build, dist, out, target, _build, __pycache__, venv and bazel-*
are skipped and links are not followed; the walk stops after 200,000 files
and says so. For each language present: the server the config (or the
presets) would run for it, found (its path and version: its version flag,
else initialize's serverInfo.version, within 5 s) or missing, with the
command that installs it (lspseam servers install LANGUAGE) or the
instructions to install it by hand.

Exit status: 0 when every language present is served and nothing was left
to recover; 1 otherwise; 2 on a usage error.`,
		example: `  lspseam doctor --workspace /path/to/project
  lspseam doctor --format json | jq '.languages[] | select(.state != "served")'`,
	},
	"servers": {
		synopsis: "lspseam servers list [--format text|json] | lspseam servers install LANGUAGE|SERVER… | lspseam servers install --detected [--workspace DIR] [--config FILE]",
		about: `list prints every server lspseam knows, one row per language it serves:
whether the suite tests it, whether it is installed (its path) or missing,
and how to install it.

install installs servers, pinned, for this user, into
$XDG_DATA_HOME/lspseam/servers (default ~/.local/share/lspseam/servers),
with a link per command in $XDG_DATA_HOME/lspseam/bin, where lspseam finds
servers after PATH. Each through its ecosystem's own client: npm (Node.js
>= 20), go, or python3 (a private virtual environment per server); apt-get
only as root (anyone else is told the command to run); a server installed
by hand prints its instructions and fails. A name is a language (python,
c++, .rs), a server id (pyright) or its command; a language installs its
preset's server, or with --config the one the config runs for it.
--detected installs the servers doctor finds missing in the workspace
(DIR, default the current directory). A second run finds the stamps and
says "already installed". Progress goes to stderr; one line per server to
stdout. Exit status: 0 when every server is installed, 1 otherwise (the
line says why: INSTALL_CLIENT_MISSING, INSTALL_MANUAL, INSTALL_NEEDS_ROOT,
INSTALL_FAILED, …), 2 on a usage error.`,
		example: `  lspseam servers list
  lspseam servers install python go
  lspseam servers install --detected --workspace /path/to/project`,
	},
	"presets": {
		synopsis: "lspseam presets",
		about: `Prints the built-in server table (gopls, typescript-language-server,
pyright-langserver, clangd) as a commented YAML config file to edit and pass
with --config.`,
		example: `  lspseam presets > lspseam.yaml`,
	},
	"version": {
		synopsis: "lspseam version",
		about: `Prints the version of lspseam and of its core module, and whether
this binary carries the core's machine code (make build compiles it for the
building machine, so a first run loads it instead of compiling).`,
		example: `  lspseam version`,
	},
}

// flagDocs gives each flag its value name and a fuller description than
// the flag set's one-liners. A flag missing here is still listed, with its
// flag set's usage.
var flagDocs = map[string]struct{ value, text string }{
	"config":          {"FILE", "server table (YAML or JSON); default: the built-in\npresets (lspseam presets prints them) for whichever of their\nservers are installed"},
	"workspace":       {"DIR", ""},
	"detected":        {"", "install the servers doctor finds missing in the workspace"},
	"format":          {"text|json", "query: text, or one JSON line {\"ok\":{\"result\",\"text\"}}\nor {\"error\":{\"code\",\"message\"}}; call: text, or the structured\nanswer; tools: text, or the definitions; doctor and servers list:\na table, or one JSON document (default text)"},
	"approval":        {"MODE", "how refactor tools (code_rename, code_format, …) apply changes:\npreview (a diff and a previewId, applied when the call comes back\nwith it; call asks on a terminal), auto (at once), or elicit (mcp\nonly: the client asks the user to apply each change; as preview\nif it cannot ask); default: the config's approval, else preview"},
	"tools":           {"LIST", "comma-separated toolsets: lsp, code, fs, refactor, or all (mcp\ndefault lsp,code; tools default: all)"},
	"profile":         {"standard|compact", "what tools/list says of each tool: standard (titles,\nannotations, examples, the census note once), or compact (names,\ndescriptions without examples, schemas: what a model needs)"},
	"timeout":         {"MS", "budget of one query in milliseconds, start-up included\n(default: the config's timeoutMs, 60000)"},
	"log-level":       {"LEVEL", "debug, info, warn or error; logs go to stderr"},
	"http":            {"HOST:PORT", "serve MCP over streamable HTTP at http://HOST:PORT/mcp instead\nof stdio (port 0: any free port; the URL is logged)"},
	"allow-remote":    {"", "with --http, accept an address that is not loopback (the token\ncrosses the network: use --tls-cert, or an SSH tunnel instead)"},
	"tls-cert":        {"FILE", "with --http, serve HTTPS with this PEM certificate (with --tls-key)"},
	"tls-key":         {"FILE", "with --http, the PEM private key of --tls-cert"},
	"token-file":      {"FILE", "with --http, the bearer token's file, made (0600) on first use;\ndefault $XDG_CONFIG_HOME/lspseam/http-token, else\n~/.config/lspseam/http-token"},
	"rotate-token":    {"", "with --http, replace the token with a new one and print it"},
	"session-timeout": {"DURATION", "with --http, close a session idle this long; 0: never\n(default 30m)"},
	"max-sessions":    {"N", "with --http, the most sessions open at once: a new one\ncloses the least recently used idle one; 0: no limit\n(default 64)"},
}

// printSubcommandHelp prints a subcommand's usage; fs (nil for a
// subcommand without flags) supplies the flags.
func printSubcommandHelp(w io.Writer, name string, fs *flag.FlagSet) {
	doc := subcommandHelp[name]
	fmt.Fprintf(w, "usage: %s\n\n%s\n", doc.synopsis, doc.about)
	if fs != nil {
		fmt.Fprint(w, "\nflags (before or after the arguments):\n")
		fs.VisitAll(func(f *flag.Flag) {
			value, text := flagDocs[f.Name].value, flagDocs[f.Name].text
			if text == "" {
				text = f.Usage
			}
			if value == "" {
				value, _ = flag.UnquoteUsage(f)
				value = strings.ToUpper(value)
			}
			if f.DefValue != "" && f.DefValue != "0" && f.DefValue != "false" && !strings.Contains(text, "default") {
				text += " (default " + f.DefValue + ")"
			}
			head := "  --" + f.Name + " " + value
			lines := strings.Split(text, "\n")
			if len(head) < 24 {
				fmt.Fprintf(w, "%-24s%s\n", head, lines[0])
			} else {
				fmt.Fprintf(w, "%s\n%24s%s\n", head, "", lines[0])
			}
			for _, l := range lines[1:] {
				fmt.Fprintf(w, "%24s%s\n", "", l)
			}
		})
	}
	fmt.Fprintf(w, "\nexample:\n%s\n", doc.example)
}

// helpRequested reports whether args ask for help.
func helpRequested(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "--h", "-help", "--help":
			return true
		case "--":
			return false
		}
	}
	return false
}

// parseSubcommand parses a subcommand's flags wherever they appear among
// its arguments (`query hover a.go:1:2 --format json`); `--` ends the
// flags. It returns the positional arguments, or ok=false with the exit
// code after printing the help (stdout, exit 0) or the problem (stderr,
// exit 2).
func parseSubcommand(name string, fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (positionals []string, code int, ok bool) {
	positionals, err := parseFlags(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		printSubcommandHelp(stdout, name, fs)
		return nil, exitOK, false
	}
	if err != nil {
		fmt.Fprintf(stderr, "lspseam %s: %s\nrun 'lspseam %s --help' for usage\n", name, err, name)
		return nil, exitUsage, false
	}
	return positionals, exitOK, true
}

// parseFlags is parseSubcommand without the printing, for the long-lived
// subcommands that report a bad command line to their client instead of
// exiting (see startProblem). The error is flag.ErrHelp when help was
// asked for (anywhere before `--`, even after a bad flag: --help wins), or
// the problem with --double-dash names.
func parseFlags(fs *flag.FlagSet, args []string) (positionals []string, err error) {
	fs.SetOutput(io.Discard) // problems are returned with --double-dash names
	fs.Usage = func() {}
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) || (err != nil && helpRequested(args)) {
			return nil, flag.ErrHelp
		}
		if err != nil {
			return nil, errors.New(flagProblem(err))
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positionals, nil
		}
		if endedFlags(fs, args, len(args)-len(rest)) {
			return append(positionals, rest...), nil
		}
		positionals = append(positionals, rest[0])
		args = rest[1:]
	}
}

// endedFlags reports whether the parse of args stopped at a `--` (which
// ends the flags) rather than at a positional argument; consumed is how
// many arguments it used. A `--` that is the value of a flag
// (`--config --`) does not end them.
func endedFlags(fs *flag.FlagSet, args []string, consumed int) bool {
	if consumed == 0 || args[consumed-1] != "--" {
		return false
	}
	if consumed >= 2 {
		prev := strings.TrimLeft(args[consumed-2], "-")
		if f := fs.Lookup(prev); f != nil && !strings.Contains(args[consumed-2], "=") {
			if b, isBool := f.Value.(interface{ IsBoolFlag() bool }); !isBool || !b.IsBoolFlag() {
				return false // "--" was that flag's value
			}
		}
	}
	return true
}

// flagProblem restates the flag package's error with --double-dash names.
func flagProblem(err error) string {
	msg := err.Error()
	if name, found := strings.CutPrefix(msg, "flag provided but not defined: -"); found {
		return "unknown flag --" + name
	}
	if name, found := strings.CutPrefix(msg, "flag needs an argument: -"); found {
		return "flag --" + name + " needs a value"
	}
	return strings.Replace(msg, "for flag -", "for flag --", 1)
}
