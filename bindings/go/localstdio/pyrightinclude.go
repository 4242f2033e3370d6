package localstdio

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// pyright analyzes the files its configuration's include names, and the
// open ones, nothing else: pallets/click's pyproject.toml includes src and
// tests/typing, so references of pass_context answered 3, then 21 after a
// test file was opened, of 42 uses in tests/ — never marked — and a
// rename and a delta trusting them broke tests/test_context.py while
// saying no other file used what changed. The include is read here
// (pyrightconfig.json, else pyproject.toml's [tool.pyright], or
// [tool.basedpyright] for basedpyright), and the root's Python files
// outside it are counted, as the tsserver projects' are
// (projectscope.go). An include with wildcards, or a configuration that
// cannot be read, is not second-guessed: no notice.

// pyrightIncludeNotice is the incomplete notice for a search by a pyright
// of the root, when its include leaves files of the root out ("" when it
// does not, or cannot be read).
func (in *instance) pyrightIncludeNotice(ctx context.Context) string {
	cfg := readPyrightConfig(in.root.Path, in.server.ID)
	include := cfg.includeDirs(in.root.Path)
	if include == nil {
		return ""
	}
	outside := in.scopeWalks.files(ctx, in.root.Path, "pyright\x00"+strings.Join(include, "\x00"), func(p string) bool {
		ext := strings.ToLower(filepath.Ext(p))
		return (ext == ".py" || ext == ".pyi") && !coveredBy(include, p)
	})
	if len(outside) == 0 {
		return ""
	}
	return fmt.Sprintf("%s outside the include of %s (such as %s): language server %q searches them only while they are open, so uses there may be missing; add them to include to have every use found", in.filesOfRoot(len(outside), "Python"), cfg.from, in.wsRel(outside[0]), in.server.ID)
}

// pyrightConfig is what lspseam reads of the pyright configuration in a
// root, from one read of its file.
type pyrightConfig struct {
	include []string // as written; nil when none sets one
	from    string   // where include was read
	// excludeSet: the configuration sets exclude (or might: one that
	// cannot be read counts as setting it), which replaces pyright's own
	// exclusions (pyrightscope.go).
	excludeSet bool
}

// readPyrightConfig reads pyrightconfig.json, else pyproject.toml's
// [tool.pyright] (or [tool.basedpyright] first, for basedpyright).
func readPyrightConfig(root, serverID string) pyrightConfig {
	if data, err := os.ReadFile(filepath.Join(root, "pyrightconfig.json")); err == nil {
		var cfg map[string]json.RawMessage
		if json.Unmarshal(data, &cfg) != nil {
			return pyrightConfig{excludeSet: true}
		}
		_, excludeSet := cfg["exclude"]
		out := pyrightConfig{from: "pyrightconfig.json", excludeSet: excludeSet}
		if raw, ok := cfg["include"]; ok && json.Unmarshal(raw, &out.include) != nil {
			out.include, out.from = nil, "" // not an array of strings: claim nothing
		}
		return out
	}
	data, err := os.ReadFile(filepath.Join(root, "pyproject.toml"))
	if err != nil {
		return pyrightConfig{}
	}
	doc := string(data)
	var out pyrightConfig
	for _, table := range []string{"tool.pyright", "tool.basedpyright"} {
		if _, _, _, found := tomlKey(doc, table, "exclude"); found {
			out.excludeSet = true
		}
	}
	tables := []string{"tool.pyright"}
	if strings.Contains(serverID, "basedpyright") {
		tables = []string{"tool.basedpyright", "tool.pyright"}
	}
	for _, table := range tables {
		if inc, ok := tomlStringArray(doc, table, "include"); ok {
			out.include, out.from = inc, "pyproject.toml's ["+table+"]"
			break
		}
	}
	return out
}

// includeDirs is the include as absolute paths under root: nil when none
// is set, or one has a wildcard (not second-guessed).
func (c pyrightConfig) includeDirs(root string) []string {
	var dirs []string
	for _, inc := range c.include {
		if strings.ContainsAny(inc, "*?[") {
			return nil
		}
		dirs = append(dirs, filepath.Clean(filepath.Join(root, filepath.FromSlash(inc))))
	}
	return dirs
}

// coveredBy reports whether the absolute path p is one of dirs or below one.
func coveredBy(dirs []string, p string) bool {
	for _, d := range dirs {
		if p == d || strings.HasPrefix(p, d+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// tomlKey finds the line of [table] of a TOML document that sets key:
// the document's lines, that line's index and the text after "=".
func tomlKey(doc, table, key string) (lines []string, i int, value string, found bool) {
	lines = strings.Split(doc, "\n")
	in := false
	for i = 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if strings.HasPrefix(t, "[") {
			in = t == "["+table+"]"
			continue
		}
		if name, value, ok := strings.Cut(t, "="); in && ok && strings.Trim(strings.TrimSpace(name), `"'`) == key {
			return lines, i, value, true
		}
	}
	return lines, 0, "", false
}

// tomlStringArray reads key = ["a", "b", …] (over several lines or one)
// from [table] of a TOML document: what a pyproject.toml's include is.
// Not a TOML parser: ok is false for anything else (a key absent, or a
// value not an array of plain strings), and the caller then claims
// nothing.
func tomlStringArray(doc, table, key string) ([]string, bool) {
	lines, i, value, found := tomlKey(doc, table, key)
	if !found {
		return nil, false
	}
	value = strings.TrimSpace(value)
	for !strings.Contains(value, "]") && i+1 < len(lines) {
		i++
		value += " " + strings.TrimSpace(stripTOMLComment(lines[i]))
	}
	value = strings.TrimSpace(stripTOMLComment(value))
	if !strings.HasPrefix(value, "[") || !strings.HasSuffix(value, "]") {
		return nil, false
	}
	var out []string
	for _, item := range strings.Split(strings.Trim(value, "[]"), ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if len(item) < 2 || (item[0] != '"' && item[0] != '\'') || item[len(item)-1] != item[0] || strings.Contains(item, `\`) {
			return nil, false
		}
		out = append(out, item[1:len(item)-1])
	}
	return out, true
}

// stripTOMLComment drops a # comment outside quotes from a line.
func stripTOMLComment(line string) string {
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case quote == 0 && c == '#':
			return line[:i]
		}
	}
	return line
}
