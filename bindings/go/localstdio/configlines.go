package localstdio

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	lspseam "github.com/lspseam/lspseam/bindings/go"
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

// withConfigLines adds the line of each path a config error names
// ("servers.gopls.command at line 5 must be …"; for an unknown field, the
// line of that field) and the file's name. Other errors are returned
// unchanged.
func withConfigLines(err error, data []byte, name string) error {
	var lerr *lspseam.Error
	if !errors.As(err, &lerr) || lerr.Code != lspseam.CodeConfigInvalid {
		return err
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return err
	}
	lines := map[string]int{}
	indexLines(doc.Content[0], "", lines)
	msg := annotateLines(lerr.Message, lines)
	if rest, ok := strings.CutPrefix(msg, "invalid lspseam config: "); ok {
		msg = "invalid lspseam config in " + name + ": " + rest
	}
	return lspseam.Errorf(lerr.Code, "%s", msg)
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

var unknownField = regexp.MustCompile(`^ has an unknown field ("(?:[^"\\]|\\.)*")`)

// annotateLines inserts " at line N" after each path msg names. A dotted
// or indexed path is recognized anywhere, the longest known one winning
// (a path to a field that is missing names its parent's line); a
// top-level field only where a problem starts, since its name is also a
// plain word.
func annotateLines(msg string, lines map[string]int) string {
	var b strings.Builder
	for i := 0; i < len(msg); {
		if i > 0 && !isPathBoundary(msg[i-1]) {
			b.WriteByte(msg[i])
			i++
			continue
		}
		atProblemStart := i == 0 || strings.HasSuffix(msg[:i], "; ") || strings.HasSuffix(msg[:i], ": ")
		best := ""
		for p := range lines {
			if len(p) <= len(best) || !strings.HasPrefix(msg[i:], p) {
				continue
			}
			if end := i + len(p); end < len(msg) && !isPathBoundary(msg[end]) && msg[end] != '.' && msg[end] != '[' {
				continue
			}
			if !strings.ContainsAny(p, ".[") && !atProblemStart {
				continue
			}
			best = p
		}
		if best == "" && atProblemStart && strings.HasPrefix(msg[i:], "the config has an unknown field ") {
			best = "the config"
		}
		if best == "" {
			b.WriteByte(msg[i])
			i++
			continue
		}
		b.WriteString(best)
		i += len(best)
		if m := unknownField.FindStringSubmatch(msg[i:]); m != nil {
			field, err := strconv.Unquote(m[1])
			key := best + "." + field
			if best == "the config" {
				key = field
			}
			if line, ok := lines[key]; err == nil && ok {
				b.WriteString(m[0])
				fmt.Fprintf(&b, " at line %d", line)
				i += len(m[0])
			}
			continue
		}
		// The rest of a path the file does not have (a missing field)
		// stays with it: the line is its parent's.
		for i < len(msg) && !isPathBoundary(msg[i]) {
			b.WriteByte(msg[i])
			i++
		}
		if line, ok := lines[best]; ok {
			fmt.Fprintf(&b, " at line %d", line)
		}
	}
	return b.String()
}

func isPathBoundary(c byte) bool {
	return c == ' ' || c == '(' || c == '"' || c == '\'' || c == ';' || c == ':' || c == ',' || c == '\n'
}
