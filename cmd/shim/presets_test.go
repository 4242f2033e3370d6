package main

import (
	"bytes"
	"context"
	"reflect"
	"regexp"
	"strings"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/localstdio"
)

// presetsConfig validates the printed presets with the core.
func presetsConfig(t *testing.T) (printed string, cfg lspseam.Config) {
	t.Helper()
	code, out, _ := runCLI(t, "presets")
	if code != 0 || !bytes.Equal([]byte(out), localstdio.Presets()) {
		t.Fatalf("presets: exit %d, or not localstdio.Presets()", code)
	}
	data, err := localstdio.ConfigJSON([]byte(out), "presets")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c, err := lspseam.NewCore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	if cfg, err = c.ValidateConfig(ctx, data); err != nil {
		t.Fatal(err)
	}
	return out, cfg
}

// The presets are a valid config, every server in it optional (a printed
// preset file works on a machine with only some servers installed), and
// `lspseam presets` prints them.
func TestPresetsValidate(t *testing.T) {
	_, cfg := presetsConfig(t)
	for _, id := range []string{"gopls", "typescript", "pyright", "clangd"} {
		s, ok := cfg.Servers[id]
		if !ok {
			t.Errorf("preset %s missing", id)
		} else if !s.Optional {
			t.Errorf("preset %s is not optional: a preset file would fail on a machine without %s", id, s.Command)
		}
	}
}

// The header of the printed presets documents every field of the config
// (each json name of lspseam.Config and lspseam.ServerConfig appears in a
// comment line before the first setting).
func TestPresetsHeaderDocumentsEveryField(t *testing.T) {
	printed, _ := presetsConfig(t)
	var header strings.Builder
	for _, line := range strings.Split(printed, "\n") {
		if !strings.HasPrefix(line, "#") {
			break
		}
		header.WriteString(line + "\n")
	}
	for _, typ := range []reflect.Type{reflect.TypeOf(lspseam.Config{}), reflect.TypeOf(lspseam.ServerConfig{})} {
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			if name == "" || name == "servers" {
				continue
			}
			if !regexp.MustCompile(`\b` + name + `\b`).MatchString(header.String()) {
				t.Errorf("the presets header does not document %s", name)
			}
		}
	}
}

// Presets lift server-side result caps that would drop results silently,
// and gopls hovers carry no pkg.go.dev links.
func TestPresetsLiftResultCaps(t *testing.T) {
	_, cfg := presetsConfig(t)
	args := strings.Join(cfg.Servers["clangd"].Args, " ")
	for _, want := range []string{"--limit-references=0", "--limit-results=0"} {
		if !strings.Contains(args, want) {
			t.Errorf("clangd args %q lack %s", args, want)
		}
	}
	gopls := cfg.Servers["gopls"]
	if !strings.Contains(string(gopls.Configuration), `"linksInHover":false`) || !strings.Contains(string(gopls.InitializationOptions), `"linksInHover":false`) {
		t.Errorf("gopls preset does not turn off linksInHover: configuration %s, initializationOptions %s", gopls.Configuration, gopls.InitializationOptions)
	}
}
