package localstdio_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/localstdio"
)

// A Go program loads the same YAML file as `lspseam --config` (here the
// built-in presets, as `lspseam presets > lspseam.yaml` writes them), finds
// the servers where the CLI does, and serves queries through them. On this
// example's machine no language server is installed: every preset is
// optional, so the table loads, says what is missing, and a query on a Go
// file is answered with an LSP_UNAVAILABLE that names gopls.
func ExampleLoadFile() {
	ctx := context.Background()
	core, err := lspseam.NewCore(ctx)
	if err != nil {
		panic(err)
	}
	defer core.Close(ctx)

	dir, err := os.MkdirTemp("", "lspseam-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "lspseam.yaml")
	if err := os.WriteFile(path, localstdio.Presets(), 0o644); err != nil {
		panic(err)
	}

	table, err := localstdio.LoadFile(ctx, core, path, localstdio.LoadOptions{
		HostEnv:    []string{"PATH=" + dir},                                        // os.Environ() in a real program
		SearchDirs: localstdio.DefaultSearchDirs([]string{"XDG_DATA_HOME=" + dir}), // where `make install-servers` puts them
	})
	if err != nil {
		panic(err)
	}
	fmt.Println("servers found:", len(table.Servers))
	for _, m := range table.Missing {
		if m.ID == "gopls" || m.ID == "clangd" {
			fmt.Println("missing:", m.ID, "-", m.Config.Command)
		}
	}

	svc := lspseam.NewService(core)
	host, err := localstdio.StartTable(ctx, core, svc, table, slog.Default())
	if err != nil {
		panic(err)
	}
	defer host.Close(ctx)
	_, err = svc.Query(ctx, lspseam.QueryRequest{Operation: lspseam.OpHover, FilePath: "main.go", WorkspaceRoot: dir})
	var lerr *lspseam.Error
	if errors.As(err, &lerr) {
		cause, _, _ := strings.Cut(lerr.Message, ":")
		fmt.Println(lerr.Code, cause)
	}
	// Output:
	// servers found: 0
	// missing: clangd - clangd
	// missing: gopls - gopls
	// LSP_UNAVAILABLE the language server for .go files (gopls) is not installed
}
