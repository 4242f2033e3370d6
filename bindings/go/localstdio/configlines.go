package localstdio

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/core"
)

// Config errors name the line to fix. The core validates the JSON a config
// file is converted to and names each problem by its path
// ("servers.gopls.comand"); the file's line numbers are gone by then, so
// withConfigLines puts them back from the YAML's node positions. YAML
// syntax errors name a line already, but libyaml's is where the enclosing
// block starts (a key indented wrongly on line 4 is reported at line 1),
// so yamlSyntaxError finds the line where the document stops parsing.

// maxLineSearch bounds the prefix search of yamlSyntaxError (each step
// parses a prefix of the file); config files are far shorter.
const maxLineSearch = 5000

var yamlLinePrefix = regexp.MustCompile(`^yaml: line (\d+): `)

// yamlSyntaxError is the LSP_CONFIG_INVALID for a file yaml.v3 cannot
// parse, naming the first line from which no prefix of the file parses.
func yamlSyntaxError(data []byte, name string, err error) error {
	msg := err.Error()
	m := yamlLinePrefix.FindStringSubmatch(msg)
	var typeErr *yaml.TypeError
	if m == nil || errors.As(err, &typeErr) {
		// Decoding errors (a duplicate key, …) name their own lines.
		return lspseam.Errorf(lspseam.CodeConfigInvalid, "config file %s is not valid YAML or JSON: %s", name, msg)
	}
	problem := msg[len(m[0]):]
	reported, _ := strconv.Atoi(m[1])
	lines := strings.SplitAfter(string(data), "\n")
	if len(lines) > maxLineSearch {
		return lspseam.Errorf(lspseam.CodeConfigInvalid, "config file %s is not valid YAML or JSON: line %d: %s", name, reported, problem)
	}
	// The longest prefix that parses ends just before the bad line.
	bad := 1
	for n := len(lines) - 1; n > 0; n-- {
		var v any
		if yaml.Unmarshal([]byte(strings.Join(lines[:n], "")), &v) == nil {
			bad = n + 1
			break
		}
	}
	text := strings.TrimRight(lines[bad-1], "\r\n")
	out := fmt.Sprintf("config file %s is not valid YAML or JSON: line %d: %s: %q", name, bad, problem, clipLine(text))
	if bad != reported {
		out += fmt.Sprintf(" (in the block that starts at line %d)", reported)
	}
	return lspseam.Errorf(lspseam.CodeConfigInvalid, "%s", out)
}

func clipLine(s string) string {
	if r := []rune(s); len(r) > 120 {
		return string(r[:120]) + "…"
	}
	return s
}

// withConfigLines names the file and the line of each problem of a
// config error: the core's problems (and LoadConfig's own) carry the path
// each is about, looked up in the YAML's node positions; a path the file
// does not have (a missing field) gets the line of the nearest enclosing
// member it does. Other errors are returned unchanged.
func withConfigLines(err error, data []byte, name string) error {
	var lerr *lspseam.Error
	if !errors.As(err, &lerr) || lerr.Code != lspseam.CodeConfigInvalid || len(lerr.Problems) == 0 {
		return err
	}
	var doc yaml.Node
	lines := map[string]int{}
	if yaml.Unmarshal(data, &doc) == nil && len(doc.Content) > 0 {
		indexLines(doc.Content[0], "", lines)
	}
	problems := make([]lspseam.ConfigProblem, len(lerr.Problems))
	for i, p := range lerr.Problems {
		p.Line = lineOf(p.Path, lines)
		problems[i] = p
	}
	return core.ConfigInvalid(" in "+name, problems)
}

// lineOf is the line of path, or of the nearest member enclosing it that
// the file has; 0 for none (the config as a whole).
func lineOf(path string, lines map[string]int) int {
	for p := path; p != ""; p = parentPath(p) {
		if line, ok := lines[p]; ok {
			return line
		}
	}
	return 0
}

// parentPath drops the last member of a path: a.b.c → a.b, a.b["k"] → a.b,
// a.b[2] → a.b, a → "".
func parentPath(p string) string {
	if strings.HasSuffix(p, "]") {
		if i := strings.LastIndex(p, "["); i > 0 {
			if strings.HasSuffix(p, `"]`) {
				if j := strings.LastIndex(p, `["`); j > 0 {
					i = j
				}
			}
			return p[:i]
		}
	}
	if i := strings.LastIndexByte(p, '.'); i > 0 {
		return p[:i]
	}
	return ""
}

// indexLines records the line of every key and sequence item under n by
// the path the core's messages use: a.b for a mapping key,
// a.b["key"] for a key of a string map, a.b[2] for an item.
func indexLines(n *yaml.Node, path string, lines map[string]int) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			key, val := n.Content[i], n.Content[i+1]
			child := key.Value
			if path != "" {
				child = path + "." + key.Value
				lines[path+"["+strconv.Quote(key.Value)+"]"] = key.Line
			}
			if _, seen := lines[child]; !seen {
				lines[child] = key.Line
			}
			indexLines(val, child, lines)
		}
	case yaml.SequenceNode:
		for i, item := range n.Content {
			child := path + "[" + strconv.Itoa(i) + "]"
			lines[child] = item.Line
			indexLines(item, child, lines)
		}
	}
}
