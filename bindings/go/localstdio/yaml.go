package localstdio

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"go.yaml.in/yaml/v3"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// Config files are YAML (JSON is YAML); the core validates JSON. This file
// converts one to the other, so the CLI and Go programs read the same
// files the same way.

// ConfigJSON converts a YAML (or JSON) config document to the JSON
// LoadConfig and the core's ValidateConfig take. name (a file name) is used
// in the error, an LSP_CONFIG_INVALID.
func ConfigJSON(data []byte, name string) ([]byte, error) {
	var doc any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlSyntaxError(data, name, err)
	}
	out, err := json.Marshal(jsonable(doc))
	if err != nil {
		return nil, lspseam.Errorf(lspseam.CodeConfigInvalid, "config file %s: %v", name, err)
	}
	return out, nil
}

// LoadFile reads a YAML or JSON config file and loads it like LoadConfig.
func LoadFile(ctx context.Context, core *lspseam.Core, path string, opts LoadOptions) (*Table, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, lspseam.Errorf(lspseam.CodeConfigInvalid, "cannot read config file: %v", err)
	}
	configJSON, err := ConfigJSON(data, path)
	if err != nil {
		return nil, err
	}
	t, err := LoadConfig(ctx, core, configJSON, opts)
	if err != nil {
		return nil, withConfigLines(err, data, path) // the core's paths, with the file's lines
	}
	return t, nil
}

// jsonable converts YAML's decoded values to ones encoding/json accepts
// (mappings with non-string keys get their keys formatted as strings).
func jsonable(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = jsonable(e)
		}
		return t
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[fmt.Sprint(k)] = jsonable(e)
		}
		return m
	case []any:
		for i, e := range t {
			t[i] = jsonable(e)
		}
		return t
	}
	return v
}
