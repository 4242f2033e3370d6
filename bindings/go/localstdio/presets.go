package localstdio

import (
	"context"
	_ "embed" // the presets' header
	"encoding/json"
	"fmt"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/core"
)

// The built-in server table: the presets of the core's server table
// (core/servers.json), each optional, so the table loads on a machine with
// any subset of the servers installed; and how to install the servers it
// names.

//go:embed presets_header.yaml
var presetsHeader []byte

// Presets returns the built-in server table as the commented YAML that
// `lspseam presets` prints: the field reference, then every preset with a
// comment saying what it serves, whether it is tested, and how to install
// it. Loading it is the same as loading no config.
func Presets() []byte {
	var b strings.Builder
	b.Write(presetsHeader)
	fmt.Fprintf(&b, "timeoutMs: %d\nservers:\n", core.DefaultTimeoutMs)
	for _, e := range core.Servers().Servers {
		if !e.Preset {
			continue
		}
		tested := "tested"
		if !e.Tested {
			tested = "not tested in CI"
		}
		fmt.Fprintf(&b, "  # %s: %s (%s). Install: %s\n", strings.Join(e.LanguageNames(), ", "), e.Name, tested, e.InstallCommand())
		fmt.Fprintf(&b, "  %s:\n    command: %s\n    optional: true\n", e.ID, e.Command)
		writeFlow(&b, "args", e.Args)
		writeFlow(&b, "rootMarkers", e.RootMarkers)
		writeFlow(&b, "extensionToLanguage", e.ExtensionToLanguage())
		if names := e.FileNameToLanguage(); len(names) > 0 {
			writeFlow(&b, "fileNameToLanguage", names)
		}
		if len(e.InitializationOptions) > 0 {
			fmt.Fprintf(&b, "    initializationOptions: %s\n", e.InitializationOptions)
		}
		if len(e.Configuration) > 0 {
			fmt.Fprintf(&b, "    configuration: %s\n", e.Configuration)
		}
	}
	return []byte(b.String())
}

// writeFlow writes a field as a YAML flow value (JSON), omitting an empty
// one.
func writeFlow[T []string | map[string]string](b *strings.Builder, name string, v T) {
	if len(v) == 0 {
		return
	}
	data, _ := json.Marshal(v)
	fmt.Fprintf(b, "    %s: %s\n", name, data)
}

// LoadPresets loads the built-in server table like LoadConfig: the servers
// found are in Table.Servers, the others in Table.Missing.
func LoadPresets(ctx context.Context, core *lspseam.Core, opts LoadOptions) (*Table, error) {
	return LoadConfig(ctx, core, []byte(`{"presets":true}`), opts)
}

// installAdvice says how to install command: for a server the table knows,
// the caller's advice (the CLI: `make servers` in its checkout) when the
// server is one that installs, then the server's own install command; for
// a server it does not know, nothing (no lspseam command installs it).
func installAdvice(command, advice string) string {
	entry, known := core.KnownServer("", command)
	if !known {
		return ""
	}
	own := entry.InstallCommand()
	if advice != "" && entry.Tested {
		return advice + ", or " + own
	}
	return own
}
