package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/lspseam/lspseam/internal/writeset"
)

// runDoctor is `lspseam doctor`: finish or undo the changes that killed
// lspseam processes left half made (in one workspace, or in all), and say
// what was done. Any lspseam call in a workspace does the same for it
// first; doctor is for doing it without a call, e.g. after a crash, before
// a build.
func runDoctor(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	workspace := fs.String("workspace", "", "")
	if helpRequested(args) {
		printSubcommandHelp(stdout, "doctor", fs)
		return exitOK
	}
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		fmt.Fprint(stderr, "usage: lspseam doctor [--workspace DIR]\n")
		return exitUsage
	}
	dir := writeset.DefaultDir()
	store, err := writeset.Open(dir)
	if err != nil {
		fmt.Fprintf(stderr, "lspseam doctor: the state directory %s is unusable: %v (set LSPSEAM_STATE_DIR to a writable directory)\n", dir, err)
		return exitError
	}
	ctx := context.Background()
	var reports []writeset.Report
	scope := "any workspace"
	if *workspace != "" {
		ws, err := filepath.Abs(*workspace)
		if err == nil {
			ws, err = filepath.EvalSymlinks(ws)
		}
		if err != nil {
			fmt.Fprintf(stderr, "lspseam doctor: workspace %s: %v\n", *workspace, err)
			return exitError
		}
		scope = ws
		reports, err = store.Recover(ctx, ws)
	} else {
		reports, err = store.RecoverAll(ctx)
	}
	fmt.Fprintf(stdout, "state directory: %s\n", store.Dir())
	for _, r := range reports {
		fmt.Fprintf(stdout, "recovered in %s: %s\n", r.Workspace, r)
	}
	if len(reports) == 0 && err == nil {
		fmt.Fprintf(stdout, "no unfinished change in %s\n", scope)
	}
	if err != nil {
		fmt.Fprintf(stderr, "lspseam doctor: %v\n", err)
		return exitError
	}
	return exitOK
}
