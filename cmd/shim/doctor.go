package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/localstdio"
	"github.com/lspseam/lspseam/internal/serverinstall"
	"github.com/lspseam/lspseam/internal/writeset"
)

// runDoctor is `lspseam doctor`: first finish or undo the changes that
// killed lspseam processes left half made (in one workspace, or in all);
// then the workspace's languages (the current directory without
// --workspace), each with the server the config or the presets would run
// for it: found (its path and version) or not, and then the command that
// installs it. Any lspseam call in a workspace recovers its changes
// first; doctor is for doing it without a call, and for seeing what a
// call would find before making one. The exit status is 0 only when every
// language present is served and nothing was left to recover.
func runDoctor(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	workspace := fs.String("workspace", "", "")
	config := fs.String("config", "", "")
	format := fs.String("format", "text", "")
	positionals, code, ok := parseSubcommand("doctor", fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "lspseam doctor: --format must be text or json, got %q\n", *format)
		return exitUsage
	}
	if len(positionals) > 0 {
		fmt.Fprintf(stderr, "lspseam doctor: takes no arguments, got %q (name the workspace with --workspace DIR)\n", positionals[0])
		fmt.Fprint(stderr, "usage: lspseam doctor [--workspace DIR] [--config FILE] [--format text|json]\n")
		return exitUsage
	}
	ctx := context.Background()
	report := doctorReport{Config: *config, Recovered: []string{}, Languages: []doctorLanguage{}}
	status := exitOK
	if err := recoverChanges(ctx, *workspace, &report); err != nil {
		// Coded like languagesError: a script keys on the code.
		lerr := lspError(err)
		report.RecoveryError = string(lerr.Code) + ": " + lerr.Message
		status = exitError
	}
	ws := *workspace
	if ws == "" {
		ws, _ = os.Getwd()
	}
	langs, err := countWorkspaceLanguages(ctx, ws, *config, localstdio.CensusOptions{}, stderr)
	if err != nil {
		lerr := lspError(err)
		report.LanguagesError = string(lerr.Code) + ": " + lerr.Message
		status = exitError
	} else {
		report.fill(ctx, langs)
		if !report.Served {
			status = exitError
		}
	}
	if *format == "json" {
		data, _ := json.Marshal(report)
		fmt.Fprintf(stdout, "%s\n", data)
		return status
	}
	report.print(stdout)
	return status
}

// doctorVersionTimeout bounds how long doctor waits for one server's
// version (all are asked at once).
const doctorVersionTimeout = 5 * time.Second

// doctorReport is what doctor found; --format json prints it as is.
type doctorReport struct {
	StateDir      string   `json:"stateDir"`
	Recovered     []string `json:"recovered"`
	RecoveryScope string   `json:"recoveryScope"`
	RecoveryError string   `json:"recoveryError,omitempty"`

	// Config is --config ("" for the presets).
	Config    string `json:"config,omitempty"`
	Workspace string `json:"workspace,omitempty"`
	// Files is how many files the census looked at; Incomplete why it
	// stopped early ("" when it saw them all).
	Files      int              `json:"files"`
	Incomplete string           `json:"incomplete,omitempty"`
	ElapsedMs  int64            `json:"elapsedMs"`
	Languages  []doctorLanguage `json:"languages"`
	// Served: every language present is served.
	Served         bool   `json:"served"`
	LanguagesError string `json:"languagesError,omitempty"`
}

type doctorLanguage struct {
	Name       string         `json:"name"`
	LanguageID string         `json:"languageId"`
	Files      int            `json:"files"`
	Kinds      []string       `json:"kinds"`
	Example    string         `json:"example"`
	State      string         `json:"state"` // served | missing | unconfigured
	Servers    []doctorServer `json:"servers"`
	// Install is the lspseam command that installs the missing server;
	// Manual the table's instructions when lspseam cannot install it.
	Install string `json:"install,omitempty"`
	Manual  string `json:"manual,omitempty"`
}

type doctorServer struct {
	ID           string `json:"id"`
	Command      string `json:"command"`
	Path         string `json:"path,omitempty"`
	Version      string `json:"version,omitempty"`
	VersionError string `json:"versionError,omitempty"`
	// Installed is what `lspseam servers install` installed for it
	// ("npm pyright@1.1.414"), when it did.
	Installed string `json:"installed,omitempty"`
	NotFound  string `json:"notFound,omitempty"`
}

// recoverChanges is doctor's first part: the writes killed processes left
// half made.
func recoverChanges(ctx context.Context, workspace string, r *doctorReport) error {
	dir := writeset.DefaultDir()
	store, err := writeset.Open(dir)
	if err != nil {
		r.StateDir = dir
		return lspseam.Errorf(lspseam.CodeConfigInvalid, "the state directory %s is unusable: %v (set LSPSEAM_STATE_DIR to a writable directory)", dir, err)
	}
	r.StateDir = store.Dir()
	r.RecoveryScope = "any workspace"
	var reports []writeset.Report
	if workspace != "" {
		// The same check, and the same LSP_WORKSPACE_INVALID, as every
		// call's workspace.
		canonical, err := localstdio.CanonicalWorkspace(workspace)
		if err != nil {
			return err
		}
		ws := canonical.Path
		r.RecoveryScope = ws
		reports, err = store.Recover(ctx, ws)
		if err != nil {
			return err
		}
	} else if reports, err = store.RecoverAll(ctx); err != nil {
		return err
	}
	for _, rep := range reports {
		r.Recovered = append(r.Recovered, "in "+rep.Workspace+": "+rep.String())
	}
	return nil
}

// fill puts the census in the report and asks every found server of a
// language present for its version, all at once, each within
// doctorVersionTimeout.
func (r *doctorReport) fill(ctx context.Context, w workspaceLanguages) {
	r.Workspace = w.workspace
	r.Files = w.census.Files
	r.Incomplete = w.census.Incomplete
	r.ElapsedMs = w.census.Elapsed.Milliseconds()
	r.Served = localstdio.Served(w.languages)
	found := map[string]localstdio.Server{}
	for _, s := range w.table.Servers {
		found[s.ID] = s
	}
	versions := map[string]*doctorServer{}
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, l := range w.languages {
		dl := doctorLanguage{Name: l.Name, LanguageID: l.LanguageID, Files: l.Files, Kinds: l.Kinds, Example: l.Example, State: l.State, Install: l.Install, Manual: l.Manual}
		for _, s := range l.Servers {
			dl.Servers = append(dl.Servers, doctorServer{ID: s.ID, Command: s.Command, Path: s.Path, NotFound: s.NotFound})
			if _, asked := versions[s.ID]; asked || s.Path == "" {
				continue
			}
			ds := &doctorServer{}
			versions[s.ID] = ds
			wg.Add(1)
			go func(server localstdio.Server) {
				defer wg.Done()
				vctx, cancel := context.WithTimeout(ctx, doctorVersionTimeout)
				defer cancel()
				v, err := localstdio.ServerVersion(vctx, server, w.workspace)
				mu.Lock()
				defer mu.Unlock()
				ds.Version = v
				if err != nil {
					ds.VersionError = err.Error()
				}
				ds.Installed, _ = serverinstall.InstalledSpec(server.Path)
			}(found[s.ID])
		}
		r.Languages = append(r.Languages, dl)
	}
	wg.Wait()
	for i := range r.Languages {
		for j := range r.Languages[i].Servers {
			s := &r.Languages[i].Servers[j]
			if v := versions[s.ID]; v != nil {
				s.Version, s.VersionError, s.Installed = v.Version, v.VersionError, v.Installed
			}
		}
	}
}

func (r *doctorReport) print(w io.Writer) {
	fmt.Fprintf(w, "state directory: %s\n", r.StateDir)
	for _, rec := range r.Recovered {
		fmt.Fprintf(w, "recovered %s\n", rec)
	}
	if r.RecoveryError != "" {
		fmt.Fprintf(w, "recovery failed: %s\n", r.RecoveryError)
	} else if len(r.Recovered) == 0 {
		fmt.Fprintf(w, "no unfinished change in %s\n", r.RecoveryScope)
	}
	if r.LanguagesError != "" {
		fmt.Fprintf(w, "languages: %s\n", r.LanguagesError)
		return
	}
	fmt.Fprintf(w, "\nworkspace %s: %d files looked at in %d ms", r.Workspace, r.Files, r.ElapsedMs)
	if r.Incomplete != "" {
		fmt.Fprintf(w, " (census incomplete: %s)", r.Incomplete)
	}
	fmt.Fprintln(w)
	if len(r.Languages) == 0 {
		fmt.Fprintln(w, "no file of a language lspseam knows")
		return
	}
	nameWidth, serverWidth := len("LANGUAGE"), len("SERVER")
	for _, l := range r.Languages {
		nameWidth = max(nameWidth, len(l.Name))
		serverWidth = max(serverWidth, len(l.serverIDs()))
	}
	row := func(name, files, server, state string) {
		fmt.Fprintf(w, "%-*s  %5s  %-*s  %s\n", nameWidth, name, files, serverWidth, server, state)
	}
	indent := strings.Repeat(" ", nameWidth+2+5+2+serverWidth+2)
	row("LANGUAGE", "FILES", "SERVER", "STATE")
	var notServed, installable, manual []string
	for _, l := range r.Languages {
		lines := l.stateLines(r.Config != "")
		row(l.Name, fmt.Sprint(l.Files), l.serverIDs(), lines[0])
		for _, more := range lines[1:] {
			fmt.Fprintln(w, indent+more)
		}
		if l.State == localstdio.ServingFound {
			continue
		}
		notServed = append(notServed, l.Name)
		switch {
		case l.Install != "":
			installable = append(installable, l.Name)
		case l.Manual != "":
			manual = append(manual, l.Name)
		}
	}
	fmt.Fprintln(w)
	if len(notServed) == 0 {
		fmt.Fprintf(w, "every language present (%d) is served\n", len(r.Languages))
		return
	}
	fmt.Fprintf(w, "%d of %s present not served: %s\n", len(notServed), plural(len(r.Languages), "language"), strings.Join(notServed, ", "))
	if len(installable) > 0 {
		fmt.Fprintf(w, "lspseam servers install --detected installs the servers of %s\n", strings.Join(installable, ", "))
	}
	if len(manual) > 0 {
		fmt.Fprintf(w, "install by hand (above) the servers of %s\n", strings.Join(manual, ", "))
	}
}

func (l doctorLanguage) serverIDs() string {
	if len(l.Servers) == 0 {
		return "-"
	}
	ids := make([]string, len(l.Servers))
	for i, s := range l.Servers {
		ids[i] = s.ID
	}
	return strings.Join(ids, ",")
}

// stateLines say a language's state, first line in the table, the rest
// indented below it.
func (l doctorLanguage) stateLines(ownConfig bool) []string {
	var lines []string
	for _, s := range l.Servers {
		switch {
		case s.Path != "" && s.Version != "":
			lines = append(lines, "served: "+s.Path+" ("+s.Version+")")
		case s.Path != "" && s.Installed != "":
			lines = append(lines, "served: "+s.Path+" ("+s.Installed+"; it reports no version itself)")
		case s.Path != "":
			lines = append(lines, "served: "+s.Path+" (version unknown: "+s.VersionError+")")
		default:
			lines = append(lines, "MISSING: "+s.NotFound)
		}
	}
	if l.State == localstdio.ServingUnconfigured {
		whose := "no preset"
		if ownConfig {
			whose = "no server of the config"
		}
		lines = append(lines, "NOT CONFIGURED: "+whose+" claims "+strings.Join(l.Kinds, ", ")+" files")
	}
	switch {
	case l.State == localstdio.ServingFound:
	case l.Install != "" && l.State == localstdio.ServingUnconfigured && ownConfig:
		lines = append(lines, "install: "+l.Install+", then add it to the config (`lspseam presets` shows its entry)")
	case l.Install != "":
		lines = append(lines, "install: "+l.Install)
	case l.Manual != "":
		lines = append(lines, "install by hand: "+l.Manual)
	default:
		lines = append(lines, "lspseam knows no server for it")
	}
	return lines
}
