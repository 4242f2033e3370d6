package toolbox

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// A rename of a .ts symbol, in the component files its server does not
// read (componentsearch.go). svelte-language-server's own rename cannot
// be asked for them: from a .svelte file's import it renames the local
// name alone (it writes `formatDate as formatDay`: its TypeScript rename
// always keeps the other files' name), and it has no rename from the .ts
// file. Its references, asked from such an import, are every use of the
// symbol in the .svelte files; the rename of a use that spells the name
// is the new name at its range, as TypeScript's own rename writes it,
// except where the name is also a property's (a shorthand `{ name }` or
// `{name}` attribute), whose rename would change the property: those are
// left as they are and named, as are uses under another name (an import
// `as`), which keep theirs.

// withComponentRenames is edit, s's rename of the symbol at (uri, pos)
// from oldName to newName, with the renames of its uses in the component
// files the rename's search left out; the session is told what that
// covered.
func (t *Toolbox) withComponentRenames(ctx context.Context, s lspseam.Session, uri string, pos lspseam.Position, oldName, newName string, edit json.RawMessage) json.RawMessage {
	if oldName == "" {
		return edit
	}
	t.eachComponentSearch(ctx, s, uri, pos, func(gap lspseam.ComponentGap, locs []referenceLocation, instead string) (string, bool) {
		byURI := map[string][]referenceLocation{}
		for _, l := range locs {
			if p, ok := workspacefs.HostPaths.URIPath(l.URI); ok && strings.EqualFold(extOf(p), gap.Ext) {
				byURI[l.URI] = append(byURI[l.URI], l)
			}
		}
		more, left := componentRenameEdits(s, byURI, oldName, newName)
		merged, err := withTextEdits(edit, more)
		if err != nil {
			return "", false
		}
		edit = merged
		if len(left) > 0 {
			instead = joinNotices(instead, fmt.Sprintf("the rename left %s as %s, where `%s` is also a property's name (a shorthand), which the new name would change: rename %s by hand (edit), e.g. to `%s: %s`", strings.Join(left, ", "), plural(len(left), "it is", "they are"), oldName, plural(len(left), "it", "them"), oldName, newName))
		}
		return instead, true
	})
	return edit
}

// componentRenameEdits is the text edits renaming the uses locs (by
// file URI) that spell oldName, and the uses left as they are (a
// shorthand's, "path:line:column").
func componentRenameEdits(s lspseam.Session, byURI map[string][]referenceLocation, oldName, newName string) (map[string][]map[string]any, []string) {
	out := map[string][]map[string]any{}
	var left []string
	uris := make([]string, 0, len(byURI))
	for u := range byURI {
		uris = append(uris, u)
	}
	sort.Strings(uris)
	ws, _ := workspacefs.HostPaths.URIPath(s.WorkspaceURI())
	for _, u := range uris {
		p, _ := workspacefs.HostPaths.URIPath(u)
		src, err := s.Read(p)
		if err != nil {
			left = append(left, relTo(ws, p)+" (unreadable)")
			continue
		}
		lines := strings.Split(src.Text, "\n")
		imports := namedImports.FindAllStringSubmatchIndex(src.Text, -1)
		for _, l := range byURI[u] {
			if l.Range.Start.Line != l.Range.End.Line || int(l.Range.Start.Line) >= len(lines) {
				continue
			}
			line := lines[l.Range.Start.Line]
			from, to := byteOffsetOfUTF16(line, int(l.Range.Start.Character)), byteOffsetOfUTF16(line, int(l.Range.End.Character))
			if line[from:to] != oldName {
				continue // a use under another name (an import's alias): it keeps it
			}
			if shorthandAt(line, from, to) && !insideImport(imports, lineOffset(lines, int(l.Range.Start.Line))+from) {
				left = append(left, fmt.Sprintf("%s:%d:%d", relTo(ws, p), l.Range.Start.Line+1, l.Range.Start.Character+1))
				continue
			}
			out[u] = append(out[u], map[string]any{"range": l.Range, "newText": newName})
		}
	}
	return out, left
}

// shorthandAt says whether the name at line[from:to] stands alone
// between braces or commas ({ name }, {name}, a, name, b): a shorthand
// property or attribute, or an import's or export's name.
func shorthandAt(line string, from, to int) bool {
	before := strings.TrimRight(line[:from], " \t")
	after := strings.TrimLeft(line[to:], " \t")
	open := before == "" || strings.HasSuffix(before, "{") || strings.HasSuffix(before, ",")
	close := after == "" || strings.HasPrefix(after, "}") || strings.HasPrefix(after, ",")
	return open && close
}

// insideImport says whether byte offset is inside the braces of one of
// imports (namedImports' matches).
func insideImport(imports [][]int, offset int) bool {
	for _, m := range imports {
		if m[2] <= offset && offset < m[3] {
			return true
		}
	}
	return false
}

// lineOffset is the byte offset of line n of lines (split on "\n").
func lineOffset(lines []string, n int) int {
	off := 0
	for i := 0; i < n; i++ {
		off += len(lines[i]) + 1
	}
	return off
}

// extOf is path's extension.
func extOf(p string) string {
	i := strings.LastIndexByte(p, '.')
	if i < 0 || strings.ContainsAny(p[i:], `/\`) {
		return ""
	}
	return p[i:]
}

// withTextEdits is a workspace edit with more text edits, by file URI,
// of files it does not edit: in its documentChanges when it has them,
// else in its changes.
func withTextEdits(edit json.RawMessage, more map[string][]map[string]any) (json.RawMessage, error) {
	if len(more) == 0 {
		return edit, nil
	}
	var we map[string]json.RawMessage
	if err := json.Unmarshal(edit, &we); err != nil || we == nil {
		return nil, fmt.Errorf("the rename's workspace edit is unreadable: %v", err)
	}
	if dc, ok := we["documentChanges"]; ok {
		var changes []json.RawMessage
		if err := json.Unmarshal(dc, &changes); err != nil {
			return nil, err
		}
		for u, edits := range more {
			c, _ := json.Marshal(map[string]any{"textDocument": map[string]any{"uri": u, "version": nil}, "edits": edits})
			changes = append(changes, c)
		}
		we["documentChanges"], _ = json.Marshal(changes)
		return json.Marshal(we)
	}
	changes := map[string]json.RawMessage{}
	if c, ok := we["changes"]; ok {
		if err := json.Unmarshal(c, &changes); err != nil {
			return nil, err
		}
	}
	for u, edits := range more {
		if _, ok := changes[u]; ok {
			return nil, fmt.Errorf("the rename already edits %s", u)
		}
		changes[u], _ = json.Marshal(edits)
	}
	we["changes"], _ = json.Marshal(changes)
	return json.Marshal(we)
}
