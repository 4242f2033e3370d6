package toolbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/core"
)

// Targets: a model's target opened and resolved in its file, the LSP
// request at it, and the edit at it.

// targetEdit is one edit at a resolved target: the core's TextEdit.
func (t *Toolbox) targetEdit(ctx context.Context, s lspseam.Session, target lspseam.Target, where, text string, endLine int64) (string, json.RawMessage, lspseam.ResolvedTarget, error) {
	rt, file, err := t.openTarget(ctx, s, lspseam.CodeCall{Toolset: "refactor", Path: target.Path, Target: &target})
	if err != nil {
		return "", nil, rt, err
	}
	in := map[string]any{"text": file.Text, "path": rt.Path, "line": rt.Position.Line, "where": where, "newText": text}
	if rt.By == "symbol" && rt.Range != nil {
		in["range"] = rt.Range
	}
	if endLine != 0 {
		in["endLine"] = endLine
	}
	var edit json.RawMessage
	if err := t.core.Invoke(ctx, "targetEdit", in, &edit); err != nil {
		return "", nil, rt, err
	}
	return file.URI, edit, rt, nil
}

// targetLabel names a resolved target in an answer.
func targetLabel(rt lspseam.ResolvedTarget) string {
	name := quoteIdent(rt)
	if rt.Symbol != "" {
		name = "`" + rt.Symbol + "`"
	}
	return name + " (" + rt.Path + ":" + strconv.FormatUint(rt.Line, 10) + ")"
}

// editLabel names what an edit at a resolved target changed, for the
// answer's first line: a symbol target's declaration by its name; a line
// target's line (or lines through endLine), which is all a line target
// replaces even on a declaration's name — "replace `f`" there read as the
// whole declaration replaced when only its first line was. A replacement
// that leaves part of the declaration says so.
func editLabel(rt lspseam.ResolvedTarget, endLine int64, replace bool) string {
	if rt.By == core.BySymbol {
		return targetLabel(rt)
	}
	lines := "line " + strconv.FormatUint(rt.Line, 10)
	if endLine > int64(rt.Line) {
		lines = "lines " + strconv.FormatUint(rt.Line, 10) + "–" + strconv.FormatInt(endLine, 10)
	}
	label := lines + " of " + rt.Path
	if rt.Identifier != "" {
		label += " (at `" + rt.Identifier + "`"
		if replace && rt.Symbol != "" && rt.Range != nil {
			first, last := uint64(rt.Range.Start.Line)+1, uint64(rt.Range.End.Line)+1
			if upTo := max(uint64(endLine), rt.Line); last > upTo || first < rt.Line {
				label += "; the declaration `" + rt.Symbol + "` spans lines " + strconv.FormatUint(first, 10) + "–" + strconv.FormatUint(last, 10) + ", a symbol target edits it whole"
			}
		}
		label += ")"
	}
	return label
}

// resolvedFile is a tool's own file, open in the server, and its
// flattened outline (hasOutline false when the server has none to give).
type resolvedFile struct {
	lspseam.SourceFile
	outline    []lspseam.OutlineEntry
	hasOutline bool
}

// openTarget opens the target's file, takes its outline when the server
// has them, and resolves the target.
func (t *Toolbox) openTarget(ctx context.Context, s lspseam.Session, call lspseam.CodeCall) (lspseam.ResolvedTarget, resolvedFile, error) {
	return t.openTargetAsking(ctx, s, call, "")
}

// openTargetAsking is openTarget for a positional request of method at
// the target ("" none): the core builds it in the call that resolves the
// target (rt.Request), checked against the server's methods as request
// checks it, and askTarget sends it.
func (t *Toolbox) openTargetAsking(ctx context.Context, s lspseam.Session, call lspseam.CodeCall, method string) (lspseam.ResolvedTarget, resolvedFile, error) {
	f, err := s.Open(ctx, call.Path)
	if err != nil {
		return lspseam.ResolvedTarget{}, resolvedFile{}, err
	}
	file := resolvedFile{SourceFile: f}
	if s.Methods()["textDocument/documentSymbol"] {
		if file.outline, err = t.fileOutline(ctx, s, f); err != nil {
			return lspseam.ResolvedTarget{}, file, err
		}
		file.hasOutline = true
		if len(file.outline) == 0 && strings.TrimSpace(call.Target.Symbol) != "" {
			// No outline (a .vue file through tsserver): the symbol from
			// the server's workspace search (searchedoutline.go).
			searched, err := t.searchedOutline(ctx, s, f, call.Target.Symbol)
			if err != nil {
				return lspseam.ResolvedTarget{}, file, err
			}
			if len(searched) > 0 {
				file.outline = searched
			}
		}
	} else if call.Target.Symbol != "" {
		return lspseam.ResolvedTarget{}, file, lspseam.Errorf(lspseam.CodeUnsupportedOperation, "language server %q lists no document symbols, so a target cannot name a symbol; target by line with matchText instead", s.Server())
	}
	var ask *lspseam.CodeRequestInput
	if method != "" {
		ask = &lspseam.CodeRequestInput{Method: method, URI: f.URI, Methods: s.Methods(), Server: s.Server()}
	}
	rt, err := t.resolveTarget(ctx, call, file, ask)
	if err == nil && method != "" && rt.Request == nil {
		err = fmt.Errorf("lspseam: resolveTarget answered no request for %s", method) // a module older than this host
	}
	return rt, file, err
}

// askTarget sends the request openTargetAsking had built for rt.
func (t *Toolbox) askTarget(ctx context.Context, s lspseam.Session, rt lspseam.ResolvedTarget, method string) (json.RawMessage, error) {
	raw, err := s.Request(ctx, rt.Request.Method, rt.Request.Params)
	return raw, t.insteadOf(ctx, err, method, s.Server())
}

// resolveTarget hands the core what the target needs (outline.go): for a
// symbol, the outline's entries of its name and their lines, then, only
// when none is the target, the whole outline for the nearest names and
// the lines holding the name (targetnames.go in the core); for a
// line, the entries holding the line and the line, then, only when that
// fails, the file's text (the errors quote the lines around and search
// the file for matchText).
func (t *Toolbox) resolveTarget(ctx context.Context, call lspseam.CodeCall, file resolvedFile, ask *lspseam.CodeRequestInput) (lspseam.ResolvedTarget, error) {
	in := resolveTargetRaw{Target: *call.Target, FirstMatch: call.FirstMatch, Exact: call.Toolset == "refactor", Request: ask}
	var rt lspseam.ResolvedTarget
	switch {
	case !file.hasOutline:
		in.Text = &file.Text
	case strings.TrimSpace(call.Target.Symbol) != "":
		named := outlineNamed(file.outline, call.Target.Symbol)
		var spans []lspseam.LineSpan
		seen := map[uint32]bool{}
		for _, e := range named {
			if l := e.SelectionRange.Start.Line; !seen[l] {
				seen[l] = true
				spans = append(spans, lspseam.LineSpan{Start: l, End: l})
			}
		}
		lines := core.LineChunks(file.Text, spans)
		in.Outline, in.Lines = &named, &lines
		err := t.core.Invoke(ctx, "resolveTarget", in, &rt)
		var lerr *lspseam.Error
		if errors.As(err, &lerr) && lerr.Code == lspseam.CodeTargetNotFound {
			// The error names the nearest symbols, or where the name
			// occurs though the outline lacks it (an import, a macro, a
			// type alias's member): the whole outline and the lines
			// holding the name.
			naming := core.LineChunks(file.Text, core.LinesNaming(file.Text, call.Target.Symbol))
			in.Outline, in.Lines = &file.outline, &naming
			err = t.core.Invoke(ctx, "resolveTarget", in, &rt)
		}
		return rt, err
	default:
		held := []lspseam.OutlineEntry{}
		if call.Target.Line > 0 {
			held = outlineOnLines(file.outline, map[uint32]bool{uint32(call.Target.Line - 1): true})
		}
		in.Outline = &held
		// A target by line (and matchText) resolves from its line alone;
		// a failure explains itself with the lines around, so only then
		// is the whole text sent, and that answer is the one shown.
		if call.Target.Column == 0 && call.Target.Line > 0 && call.Target.Line <= 1<<32 {
			l := uint32(call.Target.Line - 1)
			lines := core.LineChunks(file.Text, []lspseam.LineSpan{{Start: l, End: l}})
			in.Lines = &lines
			var lerr *lspseam.Error
			if err := t.core.Invoke(ctx, "resolveTarget", in, &rt); !errors.As(err, &lerr) {
				return rt, err
			}
			in.Lines = nil
		}
		in.Text = &file.Text
	}
	return rt, t.core.Invoke(ctx, "resolveTarget", in, &rt)
}

// resolveTargetRaw is resolveTarget's input as the Toolbox sends it.
type resolveTargetRaw struct {
	Target     lspseam.Target          `json:"target"`
	FirstMatch bool                    `json:"firstMatch,omitempty"`
	Exact      bool                    `json:"exact,omitempty"`
	Outline    *[]lspseam.OutlineEntry `json:"outline,omitempty"`
	Lines      *[]lspseam.LineChunk    `json:"lines,omitempty"`
	// Request is codeRequest's input without the position (the
	// target's): its request comes back in the target's answer.
	Request *lspseam.CodeRequestInput `json:"request,omitempty"`
	Text    *string                   `json:"text,omitempty"` // last: the module finds the others without walking it
}

// request sends one positional catalog request, checked against the
// server's methods.
func (t *Toolbox) request(ctx context.Context, s lspseam.Session, method, uri string, pos lspseam.Position) (json.RawMessage, error) {
	req, err := t.core.CodeRequest(ctx, lspseam.CodeRequestInput{Method: method, URI: uri, Position: &pos, Methods: s.Methods(), Server: s.Server()})
	if err != nil {
		return nil, err
	}
	raw, err := s.Request(ctx, req.Method, req.Params)
	return raw, t.insteadOf(ctx, err, method, s.Server())
}

// insteadOf adds what to use instead to an LSP_UNSUPPORTED_OPERATION a
// server answered (MethodNotFound for a method it advertised), as the
// core words it for a method a server does not advertise.
func (t *Toolbox) insteadOf(ctx context.Context, err error, method, server string) error {
	var lerr *lspseam.Error
	if !errors.As(err, &lerr) || lerr.Code != lspseam.CodeUnsupportedOperation {
		return err
	}
	_, hint := t.core.CodeRequest(ctx, lspseam.CodeRequestInput{Method: method, Methods: map[string]bool{method: false}, Server: server})
	var h *lspseam.Error
	if errors.As(hint, &h) && h.Instead != "" {
		e := lspseam.Errorf(lspseam.CodeUnsupportedOperation, "%s; %s", lerr.Message, h.Instead)
		e.Instead = h.Instead
		return e
	}
	return err
}

// echoedTarget is the resolved target as the answer echoes it: one-based,
// with the identifier there, so an off-by-one is visible.
type echoedTarget struct {
	Path       string `json:"path"`
	Line       uint64 `json:"line"`
	Column     uint64 `json:"column"`
	Identifier string `json:"identifier"`
	Symbol     string `json:"symbol,omitempty"`
	Kind       string `json:"kind,omitempty"`
	Container  string `json:"container,omitempty"`
	By         string `json:"by"`
	Note       string `json:"note,omitempty"`
}

func targetFields(rt lspseam.ResolvedTarget) echoedTarget {
	return echoedTarget{rt.Path, rt.Line, rt.Column, rt.Identifier, rt.Symbol, rt.Kind, rt.Container, rt.By, rt.Note}
}

func quoteIdent(rt lspseam.ResolvedTarget) string {
	if rt.Identifier == "" {
		return "the target"
	}
	return "`" + rt.Identifier + "`"
}
