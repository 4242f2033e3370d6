package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/lspseam/lspseam/bindings/go/localstdio"
)

// runPresets prints the built-in server table (localstdio.Presets), the
// table used without --config, as a config file to edit.

func runPresets(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("presets", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		fmt.Fprint(stderr, "usage: lspseam presets\n")
		return exitUsage
	}
	stdout.Write(localstdio.Presets())
	return exitOK
}
