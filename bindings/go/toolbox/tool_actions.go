package toolbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// code_actions: the server's quick fixes and refactorings for some lines,
// listed with an actionId bound to the file's content, and applied by id
// (or exact, unique title) through the applier. An action that runs a
// server command is run only once approved, and the edits the server
// sends while it runs go through the applier too (command.go).

// actionShape is what the answer says of an action.
type actionShape struct {
	Title       string `json:"title"`
	Kind        string `json:"kind"`
	Command     any    `json:"command"`
	Edit        any    `json:"edit"`
	IsPreferred bool   `json:"isPreferred"`
	Disabled    *struct {
		Reason string `json:"reason"`
	} `json:"disabled"`
	Data any `json:"data"`
}

func (t *Toolbox) codeActions(ctx context.Context, call lspseam.CodeCall, ws string) (answer, error) {
	if call.Apply == "" {
		var a answer
		err := t.service.Session(ctx, call.Path, ws, func(ctx context.Context, s lspseam.Session) error {
			list, err := t.listActions(ctx, s, call)
			if err != nil {
				return err
			}
			a = actionsAnswer(call, list)
			a.incomplete = s.Notice()
			return nil
		})
		return a, err
	}
	return t.refactorChange(ctx, call, ws, func(ctx context.Context, s lspseam.Session, r *workspacefs.Root) (change, error) {
		f, err := s.Open(ctx, call.Path)
		if err != nil {
			return change{}, err
		}
		act, ok := t.actions.get(call.Apply)
		if !ok {
			// An id listed by another session (a CLI call is one: its
			// listing's ids never applied), which a fresh listing of the
			// same content gives again, or an exact, unique title.
			list, err := t.listActions(ctx, s, call)
			if err != nil {
				return change{}, err
			}
			var matches []listedAction
			for _, l := range list {
				if l.id == call.Apply {
					matches = []listedAction{l}
					break
				}
				if l.title == call.Apply {
					matches = append(matches, l)
				}
			}
			switch len(matches) {
			case 0:
				return change{}, lspseam.Errorf(lspseam.CodeInvalidArgument, "no action has the id or exact title %q for %s lines %d–%d (an id is bound to the file's content and lines: the file may have changed since it was listed); list them again (leave out apply) and pass an actionId", call.Apply, call.Path, call.Range.StartLine, call.Range.EndLine)
			case 1:
				act = matches[0]
			default:
				return change{}, lspseam.Errorf(lspseam.CodeInvalidArgument, "%d actions have the title %q; pass the actionId of the one you mean", len(matches), call.Apply)
			}
		}
		if act.uri != f.URI || act.version != workspacefs.ContentVersion(f.Text) {
			return change{}, lspseam.Errorf(lspseam.CodeConflict, "action %s was listed for %s as it was then; the file changed or it is another file's: list the actions again", act.id, call.Path)
		}
		var shape actionShape
		json.Unmarshal(act.raw, &shape)
		if shape.Disabled != nil {
			return change{}, lspseam.Errorf(lspseam.CodeInvalidArgument, "action %q is disabled: %s", shape.Title, shape.Disabled.Reason)
		}
		raw, shape, files, err := t.actionEdit(ctx, s, r, act, false)
		if err != nil {
			return change{}, err
		}
		ch := change{what: "apply \"" + shape.Title + "\"", files: files}
		if shape.Edit != nil {
			// The server's edit may reach files the preview's do not
			// bind (an import added for a name another file declares):
			// the action is asked again, as the server gives it now,
			// when the preview is applied.
			ch.recompute = &recompute{asks: "the server's action \"" + shape.Title + "\"", files: func(ctx context.Context, s lspseam.Session, r *workspacefs.Root) ([]plannedFile, error) {
				if _, err := s.Open(ctx, call.Path); err != nil {
					return nil, err
				}
				_, _, files, err := t.actionEdit(ctx, s, r, act, true)
				return files, err
			}}
		}
		// A bare Command, or a CodeAction's command (run after its edit).
		var cmd struct {
			Command   string          `json:"command"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if isCommand(raw) {
			json.Unmarshal(raw, &cmd)
		} else if shape.Command != nil {
			b, _ := json.Marshal(shape.Command)
			json.Unmarshal(b, &cmd)
		}
		if cmd.Command != "" {
			params, _ := json.Marshal(map[string]any{"command": cmd.Command, "arguments": cmd.Arguments})
			if len(cmd.Arguments) == 0 {
				params, _ = json.Marshal(map[string]any{"command": cmd.Command})
			}
			ch.command = &serverCommand{name: cmd.Command, params: params, fileRel: relOf(r, f.Path), fileVersion: act.version}
		} else if shape.Edit == nil {
			return change{}, lspseam.Errorf(lspseam.CodeUnsupportedOperation, "action %q has neither an edit nor a command to run", shape.Title)
		}
		return ch, nil
	})
}

// actionEdit is act as the server gives it and the files its edit
// changes; again asks the server for it again (askedAgain) even when the
// listing's copy carries its edit.
func (t *Toolbox) actionEdit(ctx context.Context, s lspseam.Session, r *workspacefs.Root, act listedAction, again bool) (json.RawMessage, actionShape, []plannedFile, error) {
	raw := act.raw
	if again {
		raw = t.askedAgain(ctx, s, act)
	}
	var shape actionShape
	json.Unmarshal(raw, &shape)
	if shape.Edit == nil && shape.Command == nil || shape.Edit == nil && shape.Data != nil {
		// A lazy action: its edit comes from codeAction/resolve, of
		// the server's latest answer's copy (typescript-language-server
		// resolves no other: each codeAction request clears what it
		// can resolve, so the listing's copy of "Add all missing
		// imports" resolved to no edit once the listing asked again).
		if !again {
			raw = t.askedAgain(ctx, s, act)
		}
		if resolved, err := s.Request(ctx, "codeAction/resolve", raw); err == nil {
			raw = resolved
			shape = actionShape{}
			json.Unmarshal(raw, &shape)
		} else if ctx.Err() != nil {
			return nil, shape, nil, err
		}
	}
	if shape.Edit == nil {
		return raw, shape, nil, nil
	}
	edit, _ := json.Marshal(shape.Edit)
	versions := s.DocumentVersions()
	if again {
		// Asked again only to compare with a preview whose files are
		// checked as they were: typescript-language-server's "Add all
		// missing imports" names the version it first saw of the file
		// (1 while it was sent 3), which the comparison need not refuse.
		versions = nil
	}
	files, err := t.workspaceEditFiles(ctx, r, s.Server(), "textDocument/codeAction", edit, versions)
	return raw, shape, files, err
}

// listActions asks the server for the actions of call's lines, with the
// file's diagnostics in those lines as context, and keeps them.
func (t *Toolbox) listActions(ctx context.Context, s lspseam.Session, call lspseam.CodeCall) ([]listedAction, error) {
	f, err := s.Open(ctx, call.Path)
	if err != nil {
		return nil, err
	}
	diags := json.RawMessage("[]")
	if rep, err := s.Diagnostics(ctx, f, lspseam.DiagnosticsOptions{}); err == nil {
		diags = rep.Diagnostics
	} else if ctx.Err() != nil {
		return nil, err
	}
	in := lspseam.CodeRequestInput{Method: "textDocument/codeAction", URI: f.URI, Text: f.Text, Range: call.Range, Diagnostics: diags, Methods: s.Methods(), Server: s.Server()}
	if call.Only != "" {
		in.Only = []string{call.Only}
	}
	req, err := t.core.CodeRequest(ctx, in)
	if err != nil {
		return nil, err
	}
	// The fixes of each problem in the lines are asked for at the
	// problem's own range first, as an editor's light bulb does: some
	// servers (gopls) build a fix from the range they were asked about, and
	// a whole line is not the undefined name a fix creates. Then the lines
	// as a whole, for the rest; an action listed twice (same title and
	// kind) is kept once.
	var items, asked []json.RawMessage // each action, and the request that gave it
	seen := map[string]bool{}
	for _, params := range perDiagnosticParams(req.Params, maxDiagnosticRequests) {
		raw, err := s.Request(ctx, req.Method, params)
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			break // the lines' request below says what is wrong
		}
		n := len(items)
		items, _ = checkedActions(items, seen, raw, call.Only)
		for range items[n:] {
			asked = append(asked, params)
		}
	}
	raw, err := s.Request(ctx, req.Method, req.Params)
	if err != nil {
		return nil, t.insteadOf(ctx, err, req.Method, s.Server())
	}
	n := len(items)
	if items, err = checkedActions(items, seen, raw, call.Only); err != nil {
		return nil, lspseam.Errorf(lspseam.CodeMalformedResponse, "language server %q answered textDocument/codeAction with %.200s, not a list", s.Server(), raw)
	}
	for range items[n:] {
		asked = append(asked, req.Params)
	}
	version := workspacefs.ContentVersion(f.Text)
	var list []listedAction
	for i, item := range items {
		var shape actionShape
		if json.Unmarshal(item, &shape) != nil || shape.Title == "" {
			continue
		}
		sum := sha256.Sum256([]byte(f.URI + "\x00" + version + "\x00" + strconv.Itoa(i) + "\x00" + string(item)))
		list = append(list, listedAction{id: "a-" + hex.EncodeToString(sum[:6]), uri: f.URI, version: version, title: shape.Title, raw: item, asked: asked[i]})
	}
	t.actions.put(list)
	return list, nil
}

// askedAgain is act as the server answers the request that listed it,
// asked again (same title and kind); act's own copy when the answer lacks
// it or the request fails.
func (t *Toolbox) askedAgain(ctx context.Context, s lspseam.Session, act listedAction) json.RawMessage {
	if len(act.asked) == 0 {
		return act.raw
	}
	raw, err := s.Request(ctx, "textDocument/codeAction", act.asked)
	if err != nil {
		return act.raw
	}
	var list []json.RawMessage
	json.Unmarshal(listOrEmpty(raw), &list)
	var was struct{ Title, Kind string }
	json.Unmarshal(act.raw, &was)
	for _, item := range list {
		var k struct{ Title, Kind string }
		json.Unmarshal(item, &k)
		if k == was {
			return item
		}
	}
	return act.raw
}

// maxDiagnosticRequests bounds the per-problem requests of a listing.
const maxDiagnosticRequests = 8

// perDiagnosticParams is a codeAction request's params once per
// diagnostic of its context, each with that diagnostic's range and only
// it as context (at most max).
func perDiagnosticParams(params json.RawMessage, max int) []json.RawMessage {
	var p map[string]json.RawMessage
	if json.Unmarshal(params, &p) != nil {
		return nil
	}
	var ctx map[string]json.RawMessage
	var diags []json.RawMessage
	if json.Unmarshal(p["context"], &ctx) != nil || json.Unmarshal(ctx["diagnostics"], &diags) != nil {
		return nil
	}
	var out []json.RawMessage
	for i, d := range diags {
		if i == max {
			break
		}
		var r struct {
			Range json.RawMessage `json:"range"`
		}
		if json.Unmarshal(d, &r) != nil || len(r.Range) == 0 {
			continue
		}
		ctx["diagnostics"], _ = json.Marshal([]json.RawMessage{d})
		p["context"], _ = json.Marshal(ctx)
		p["range"] = r.Range
		b, _ := json.Marshal(p)
		out = append(out, b)
	}
	return out
}

// checkedActions adds the actions of a codeAction answer not seen yet
// (by title and kind) and, with only, of that kind (servers may add quick
// fixes of other kinds: LSP leaves the filter to the client); err says the
// answer is not a list.
func checkedActions(items []json.RawMessage, seen map[string]bool, raw json.RawMessage, only string) ([]json.RawMessage, error) {
	var list []json.RawMessage
	if err := json.Unmarshal(listOrEmpty(raw), &list); err != nil {
		return items, err
	}
	for _, item := range list {
		var k struct {
			Title string `json:"title"`
			Kind  string `json:"kind"`
		}
		json.Unmarshal(item, &k)
		if only != "" && k.Kind != "" && k.Kind != only && !strings.HasPrefix(k.Kind, only+".") {
			continue
		}
		key := k.Title + "\x00" + k.Kind
		if seen[key] {
			continue
		}
		seen[key] = true
		items = append(items, item)
	}
	return items, nil
}

// isCommand: a bare Command (title, command, arguments) rather than a
// CodeAction.
func isCommand(raw json.RawMessage) bool {
	var v struct {
		Command json.RawMessage `json:"command"`
	}
	json.Unmarshal(raw, &v)
	return len(v.Command) > 0 && v.Command[0] == '"'
}

// actionsAnswer lists actions for the model.
func actionsAnswer(call lspseam.CodeCall, list []listedAction) answer {
	var b strings.Builder
	lines := strconv.FormatInt(call.Range.StartLine, 10)
	if call.Range.EndLine != call.Range.StartLine {
		lines += "–" + strconv.FormatInt(call.Range.EndLine, 10)
	}
	var out []map[string]any
	b.WriteString(strconv.Itoa(len(list)) + " " + plural(len(list), "action", "actions") + " for " + call.Path + " line " + lines)
	if len(list) > 0 {
		b.WriteString(" (apply one: call code_actions again with \"apply\": its actionId):")
	} else {
		b.WriteString(".")
	}
	for _, a := range list {
		var shape actionShape
		json.Unmarshal(a.raw, &shape)
		cmd := isCommand(a.raw) || shape.Command != nil && shape.Edit == nil
		b.WriteString("\n  " + a.id + "  " + a.title)
		var notes []string
		if shape.Kind != "" {
			notes = append(notes, shape.Kind)
		}
		if shape.IsPreferred {
			notes = append(notes, "preferred")
		}
		if shape.Disabled != nil {
			notes = append(notes, "disabled: "+shape.Disabled.Reason)
		}
		if cmd {
			notes = append(notes, "runs a server command: its changes show only once it has run")
		}
		if len(notes) > 0 {
			b.WriteString("  (" + strings.Join(notes, "; ") + ")")
		}
		item := map[string]any{"actionId": a.id, "title": a.title, "kind": shape.Kind, "preferred": shape.IsPreferred, "command": cmd}
		if shape.Disabled != nil {
			item["disabled"] = shape.Disabled.Reason
		}
		out = append(out, item)
	}
	if out == nil {
		out = []map[string]any{}
	}
	a := answer{text: b.String(), fields: []field{{"path", call.Path}, {"actions", out}}}
	if len(list) == 0 {
		a.notice = "The server offers no action for these lines" + onlyNote(call) + "."
		a.noticeSaid = true
	}
	return a
}

func onlyNote(call lspseam.CodeCall) string {
	if call.Only == "" {
		return ""
	}
	return " of kind " + call.Only
}
