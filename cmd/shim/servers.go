package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/localstdio"
	"github.com/lspseam/lspseam/core"
	"github.com/lspseam/lspseam/internal/serverinstall"
)

// `lspseam servers list` and `lspseam servers install`: the server table's
// servers, whether each is installed, and installing them for this user
// (internal/serverinstall) where lspseam finds them
// ($XDG_DATA_HOME/lspseam/bin).

func runServers(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) == 0 {
			fmt.Fprint(stderr, "usage: lspseam servers list | lspseam servers install LANGUAGE|SERVER…|--detected\n")
			return exitUsage
		}
		printSubcommandHelp(stdout, "servers", nil)
		return exitOK
	}
	switch args[0] {
	case "list":
		return runServersList(args[1:], stdout, stderr)
	case "install":
		return runServersInstall(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "lspseam servers: unknown subcommand %q; use list or install\n", args[0])
	return exitUsage
}

// serverRow is one (language, server) of `servers list`.
type serverRow struct {
	Language string `json:"language"`
	Server   string `json:"server"`
	Command  string `json:"command"`
	Preset   bool   `json:"preset"`
	Tested   bool   `json:"tested"`
	// Path is where the command was found ("" when missing).
	Path string `json:"path,omitempty"`
	// Install is the lspseam command that installs it; Manual the
	// instructions when it installs by hand.
	Install string `json:"install,omitempty"`
	Manual  string `json:"manual,omitempty"`
}

func serverRows() []serverRow {
	opts := loadOptions()
	var rows []serverRow
	for _, l := range core.Languages() {
		for _, id := range l.Servers {
			e, _ := core.ServerByID(id)
			row := serverRow{Language: l.Name, Server: e.ID, Command: e.Command, Preset: e.Preset, Tested: e.Tested}
			row.Path, _ = localstdio.FindCommand(e.Command, opts)
			if e.Install.Installable() {
				row.Install = "lspseam servers install " + localstdio.InstallArgument(l.LanguageID, e.ID)
			} else {
				row.Manual = e.Install.Manual
			}
			rows = append(rows, row)
		}
	}
	return rows
}

func runServersList(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("servers list", flag.ContinueOnError)
	format := fs.String("format", "text", "")
	positionals, code, ok := parseSubcommand("servers", fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(positionals) > 0 || (*format != "text" && *format != "json") {
		fmt.Fprint(stderr, "usage: lspseam servers list [--format text|json]\n")
		return exitUsage
	}
	rows := serverRows()
	if *format == "json" {
		data, _ := json.Marshal(rows)
		fmt.Fprintf(stdout, "%s\n", data)
		return exitOK
	}
	widths := [4]int{len("LANGUAGE"), len("SERVER"), len("TESTED"), len("installed")}
	for _, r := range rows {
		widths[0] = max(widths[0], len(r.Language))
		widths[1] = max(widths[1], len(r.Server)+len(" (preset)"))
	}
	line := func(cells ...string) {
		fmt.Fprintf(stdout, "%-*s  %-*s  %-*s  %-*s  %s\n", widths[0], cells[0], widths[1], cells[1], widths[2], cells[2], widths[3], cells[3], cells[4])
	}
	line("LANGUAGE", "SERVER", "TESTED", "STATUS", "INSTALL")
	installed := 0
	for _, r := range rows {
		server, tested, status, install := r.Server, "no", "missing", r.Install
		if r.Preset {
			server += " (preset)"
		}
		if r.Tested {
			tested = "yes"
		}
		if r.Path != "" {
			status = "installed"
			installed++
			install = r.Path
		} else if install == "" {
			install = "by hand: " + r.Manual
		}
		line(r.Language, server, tested, status, install)
	}
	fmt.Fprintf(stdout, "\n%d of %d installed; the presets (used without --config) run the (preset) server of each language.\nInstalled servers show their path; `lspseam servers install` puts them in %s.\n", installed, len(rows), serverBinDir())
	return exitOK
}

// serverBinDir is where `servers install` links commands, for messages.
func serverBinDir() string {
	if dirs := localstdio.DefaultSearchDirs(nil); len(dirs) > 0 {
		return dirs[0]
	}
	return "$XDG_DATA_HOME/lspseam/bin"
}

func runServersInstall(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("servers install", flag.ContinueOnError)
	detected := fs.Bool("detected", false, "")
	workspace := fs.String("workspace", "", "")
	config := fs.String("config", "", "")
	names, code, ok := parseSubcommand("servers", fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if (*detected) == (len(names) > 0) {
		fmt.Fprint(stderr, "usage: lspseam servers install LANGUAGE|SERVER… | lspseam servers install --detected [--workspace DIR] [--config FILE]\n")
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	dataDir, err := serverinstall.DataDir(nil)
	if err != nil {
		fmt.Fprintf(stderr, "lspseam servers install: %v\n", err)
		return exitError
	}
	var entries []core.ServerEntry
	var unknown []string // languages present with no server in the table
	ws := *workspace
	if *detected {
		if ws == "" {
			ws, _ = os.Getwd()
		}
		langs, err := countWorkspaceLanguages(ctx, ws, *config, localstdio.CensusOptions{}, stderr)
		if err != nil {
			lerr := lspError(err)
			fmt.Fprintf(stderr, "lspseam servers install: %s: %s\n", lerr.Code, lerr.Message)
			return exitError
		}
		missing := langs.notServed()
		if len(missing) == 0 {
			fmt.Fprintf(stdout, "every language present in %s (%d) is served; nothing to install\n", langs.workspace, len(langs.languages))
			return exitOK
		}
		for _, l := range missing {
			e, ok := core.ServerByID(l.Entry)
			if !ok {
				unknown = append(unknown, l.Name)
				continue
			}
			entries = appendEntry(entries, e)
		}
		fmt.Fprintf(stderr, "lspseam servers install: %s has %s without a server: installing %s\n", langs.workspace, plural(len(missing), "language"), entryIDs(entries))
	} else {
		for _, name := range names {
			e, err := entryNamed(ctx, name, *config, stderr)
			if err != nil {
				fmt.Fprintf(stderr, "lspseam servers install: %v\n", err)
				return exitUsage
			}
			entries = appendEntry(entries, e)
		}
	}
	in := &serverinstall.Installer{Dir: dataDir, Progress: prefixed{stderr, "lspseam servers install: "}}
	status := exitOK
	for _, e := range entries {
		res, err := in.Install(ctx, e)
		if err != nil {
			fmt.Fprintf(stderr, "lspseam servers install: %s: %v\n", e.ID, err)
			status = exitError
			continue
		}
		if res.Already {
			fmt.Fprintf(stdout, "%s: already installed (%s): %s\n", e.ID, res.Spec, res.Command)
		} else {
			fmt.Fprintf(stdout, "%s: installed %s in %.1fs: %s\n", e.ID, res.Spec, res.Elapsed.Seconds(), res.Command)
		}
		if onPath, _ := localstdio.ResolveExecutable(e.Command, os.Environ()); onPath != "" && onPath != res.Command {
			fmt.Fprintf(stdout, "%s: note: %s is on PATH, and lspseam runs the one on PATH first\n", e.ID, onPath)
		}
	}
	for _, name := range unknown {
		fmt.Fprintf(stderr, "lspseam servers install: %s: lspseam knows no server for it; configure one with --config\n", name)
		status = exitError
	}
	if *detected && status == exitOK {
		fmt.Fprintf(stdout, "`lspseam doctor --workspace %s` shows each language's server now\n", ws)
	}
	return status
}

// entryNamed finds the table entry a name given to `servers install`
// means: a server's id, name or command; else a language, whose server is
// the one the config routes it to (with --config), else its preset.
func entryNamed(ctx context.Context, name, config string, stderr io.Writer) (core.ServerEntry, error) {
	if e, ok := core.ServerByID(name); ok {
		return e, nil
	}
	for _, e := range core.Servers().Servers {
		if strings.EqualFold(e.Name, name) || e.Command == name {
			return e, nil
		}
	}
	l, ok := core.LanguageOfName(name)
	if !ok {
		return core.ServerEntry{}, fmt.Errorf("%q is no language or server lspseam knows; `lspseam servers list` lists them", name)
	}
	if config != "" {
		if e, ok := configuredEntry(ctx, l, config, stderr); ok {
			return e, nil
		}
	}
	e, _ := core.ServerByID(l.Servers[0])
	return e, nil
}

// configuredEntry is the table entry of the server a config routes a
// language's files to.
func configuredEntry(ctx context.Context, l core.TableLanguage, config string, stderr io.Writer) (core.ServerEntry, bool) {
	log, _ := newLogger("warn", stderr)
	c, err := lspseam.NewCore(ctx, lazyCoreOptions(log)...)
	if err != nil {
		return core.ServerEntry{}, false
	}
	defer c.Close(ctx)
	table, err := loadTable(ctx, c, config)
	if err != nil {
		return core.ServerEntry{}, false
	}
	for _, s := range table.Config.Servers {
		for _, ext := range l.Extensions {
			if _, ok := s.ExtensionToLanguage[ext]; ok {
				if e, ok := core.ServerByID(s.Known); ok {
					return e, true
				}
			}
		}
	}
	return core.ServerEntry{}, false
}

func appendEntry(list []core.ServerEntry, e core.ServerEntry) []core.ServerEntry {
	for _, have := range list {
		if have.ID == e.ID {
			return list
		}
	}
	return append(list, e)
}

func entryIDs(list []core.ServerEntry) string {
	ids := make([]string, len(list))
	for i, e := range list {
		ids[i] = e.ID
	}
	if len(ids) == 0 {
		return "nothing"
	}
	return strings.Join(ids, ", ")
}

// plural is "1 language", "2 languages".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// prefixed writes each progress line with a prefix.
type prefixed struct {
	w      io.Writer
	prefix string
}

func (p prefixed) Write(b []byte) (int, error) {
	_, err := io.WriteString(p.w, p.prefix+string(b))
	return len(b), err
}
