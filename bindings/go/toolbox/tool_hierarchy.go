package toolbox

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/core"
)

// code_hierarchy: callers, callees, supertypes or subtypes of a target, up
// to four levels. The traversal is the core's (a pure function of the
// prepare result and the expansions so far, which lists the nodes to
// expand next); the host only sends those requests, until nothing is
// pending or the time budget runs low.
//
// A graph cut at its node limit pages (pages.go): a page from offset runs
// the traversal again with offset + limit nodes — its first nodes are the
// earlier pages', in the same order — and the core answers the nodes from
// offset on with their edges to the nodes before them. The cursor keeps
// the key of the nodes through its page; the next page's priorKey (the
// key of the nodes before it) must be the same, or a file was edited and
// the answer is LSP_CONFLICT with the new first page.

// hierarchyReserve is the part of the call's budget kept for the last
// round and the answer: expansions stop when less than this remains.
const hierarchyReserve = 2 * time.Second

func (t *Toolbox) hierarchy(ctx context.Context, call lspseam.CodeCall, ws string) (answer, error) {
	return t.paged(ctx, call, ws, t.hierarchyPage)
}

// hierarchyPage answers the page of call's graph from its offset-th node;
// from, when set, is the cursor's state.
func (t *Toolbox) hierarchyPage(ctx context.Context, call lspseam.CodeCall, ws string, offset int, from *pageState) (answer, error) {
	var a answer
	err := t.service.Session(ctx, call.Path, ws, func(ctx context.Context, s lspseam.Session) error {
		prepare, _, _ := core.HierarchyMethods(call.Kind)
		rt, file, err := t.openTargetAsking(ctx, s, call, prepare)
		if err != nil {
			return err
		}
		roots, err := t.askTarget(ctx, s, rt, prepare)
		if err != nil {
			return err
		}
		expansions := map[string]map[string]any{}
		in := map[string]any{"kind": call.Kind, "depth": call.Depth, "limit": call.Limit, "offset": offset, "roots": json.RawMessage(roots),
			"expansions": expansions, "workspaceUri": s.WorkspaceURI(), "subject": rt.Text}
		refs := &targetRefs{t: t, s: s, rt: rt, uri: file.URI}
		var refCalls []core.Location // the calls a root made at the target has (hierarchyrefcallers.go)
		if call.Kind == "callers" && noItem(roots) {
			if root, calls, ok := t.referencesRoot(ctx, s, ws, refs); ok {
				roots, refCalls = root, calls
				in["roots"] = json.RawMessage(roots)
			}
		}
		if (call.Kind == "callers" || call.Kind == "callees") && noItem(roots) { // hierarchyuses.go: a value the server takes for no function
			if why := t.noItemReason(ctx, s, ws, refs, call.Kind); why != "" {
				in["noItem"] = why
			}
		}
		labelled := false
		placed := newPlacedSites(s)
		var rootIDs []string // the roots' expansions, asked in the first round
		var covered []core.Location
		for round := 0; ; round++ {
			var step struct {
				Pending    []hierarchyPending `json:"pending"`
				TotalNodes int                `json:"totalNodes"`
				Nodes      []hierarchyNodeAt  `json:"nodes"`
				PriorKey   string             `json:"priorKey"`
				ResultKey  string             `json:"resultKey"`
				NextOffset int                `json:"nextOffset"`
			}
			out, err := t.coreJSON(ctx, "hierarchy", in)
			if err != nil {
				return serverPayloadError(err, s.Server(), prepare)
			}
			if err := json.Unmarshal(out, &step); err != nil {
				return err
			}
			if len(step.Pending) == 0 && in["timedOut"] != true && !labelled && s.Methods()["textDocument/documentSymbol"] {
				// The graph is final: the outlines of its nodes' files
				// name each node's kind and container as the target's
				// line does (an item says "function" for a method,
				// "class" for a struct), and the core answers again.
				labelled = true
				// A later page's nodes are not the root's, whose label
				// the heading repeats on every page: its line is added.
				if o := t.nodeOutlines(ctx, s, file, append(rootsIn(roots, file.URI, rt.Path), step.Nodes...)); len(o) > 0 {
					in["outlines"] = o
					continue
				}
			}
			if len(step.Pending) == 0 || in["timedOut"] == true {
				if from != nil && !from.same(step.PriorKey, "") {
					return errAnswerChanged
				}
				if a, err = coreAnswer(out); err != nil {
					return err
				}
				// The keys and where the next page starts are the
				// cursor's business, not the model's.
				kept := []field{{"target", targetFields(rt)}}
				for _, f := range a.fields {
					if f.name != "priorKey" && f.name != "nextOffset" && f.name != "resultKey" {
						kept = append(kept, f)
					}
				}
				a.fields = kept
				if step.NextOffset > offset {
					t.withCursor(&a, call, offset, step.NextOffset-offset, step.TotalNodes, step.ResultKey, "")
				}
				a.incomplete = joinNotices(s.Notice(), placed.notice())
				if call.Kind == "callers" || call.Kind == "subtypes" { // found by the uses of the root
					a.incomplete = joinNotices(a.incomplete, t.linkedUsesNoticeIn(ctx, s, ws, rt.Path))
				}
				if call.Kind == "callers" {
					a.incomplete = joinNotices(a.incomplete, t.callersAliasNotice(ctx, s, ws, rt, file.URI))
					if refCalls != nil {
						a.incomplete = joinNotices(a.incomplete, "the server gives no call hierarchy item for `"+rt.Identifier+
							"`, a value it does not take for a function declaration (such as one destructured from a call's result, `const { "+rt.Identifier+
							" } = make(…)`): its callers here are the symbols holding the "+strconv.Itoa(len(refCalls))+" "+plural(len(refCalls), "call", "calls")+
							" its references list, not the server's call hierarchy (code_navigate kind references lists every use)")
					}
					if offset == 0 && len(rootIDs) > 0 {
						a.incomplete = joinNotices(a.incomplete, t.valueUsesNotice(ctx, s, ws, refs, covered))
					}
				}
				if call.Kind == "callees" && offset == 0 {
					a.incomplete = joinNotices(a.incomplete, unlistedCalleesNotice(placed, calleesRoots(roots, rootIDs, expansions)))
				}
				return nil
			}
			for _, p := range step.Pending {
				if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < hierarchyReserve {
					in["timedOut"] = true
					break
				}
				if isTemplateCaller(p.Item) { // lspseam's, not the server's (hierarchytemplates.go)
					expansions[p.ID] = map[string]any{"error": templateCallerNotExpanded}
					continue
				}
				if isReferencesRoot(p.Item) {
					expansions[p.ID] = map[string]any{"result": t.referenceCallers(ctx, s, refCalls)}
					continue
				}
				if isEnclosingCaller(p.Item) { // hierarchyenclosing.go
					expansions[p.ID] = map[string]any{"error": enclosingCallerNotExpanded}
					continue
				}
				params, _ := json.Marshal(map[string]json.RawMessage{"item": p.Item})
				raw, err := s.Request(ctx, p.Method, params)
				var lerr *lspseam.Error
				switch {
				case err == nil:
					result := placed.filter(p.Method, p.Item, raw)
					if p.Method == "callHierarchy/incomingCalls" {
						result = t.splitModuleCallers(ctx, s, result)
					}
					expansions[p.ID] = map[string]any{"result": result}
				case ctx.Err() != nil:
					return err
				case round == 0 && errors.As(err, &lerr) && lerr.Code == lspseam.CodeUnsupportedOperation:
					// The server prepares items but cannot expand them
					// (clangd 14's outgoing calls): the operation is not
					// there, whatever a graph of the root alone would say.
					return t.insteadOf(ctx, err, prepare, s.Server())
				default:
					expansions[p.ID] = map[string]any{"error": err.Error()}
				}
			}
			if round == 0 {
				for _, p := range step.Pending {
					rootIDs = append(rootIDs, p.ID)
				}
			}
			if round == 0 && call.Kind == "callers" && in["timedOut"] != true {
				// The roots' callers: those in component templates are
				// found by the references (hierarchytemplates.go).
				covered = t.addTemplateCallers(ctx, s, refs, step.Pending, expansions)
			}
		}
	})
	return a, err
}

// noItem says whether a prepare result has no item (null or []).
func noItem(roots json.RawMessage) bool {
	var items []json.RawMessage
	return json.Unmarshal(roots, &items) == nil && len(items) == 0
}

// hierarchyNodeAt is where a node of the graph is: its path as the core
// writes it (workspace-relative inside the workspace) and one-based line.
type hierarchyNodeAt struct {
	Path    string `json:"path"`
	Line    uint32 `json:"line"`
	Outside bool   `json:"outsideWorkspace"`
}

// rootsIn is where the prepared roots in the target's file (uri; path as
// the core writes it) are, for their outline labels.
func rootsIn(roots json.RawMessage, uri, path string) []hierarchyNodeAt {
	var items []struct {
		URI            string `json:"uri"`
		SelectionRange struct {
			Start struct {
				Line uint32 `json:"line"`
			} `json:"start"`
		} `json:"selectionRange"`
	}
	if json.Unmarshal(roots, &items) != nil { // the core refuses it, with its reason
		return nil
	}
	var at []hierarchyNodeAt
	for _, it := range items {
		if it.URI == uri {
			at = append(at, hierarchyNodeAt{Path: path, Line: it.SelectionRange.Start.Line + 1})
		}
	}
	return at
}

// maxLabelledFiles bounds the files whose outlines label a graph's nodes:
// each may be opened and asked for its symbols; a node of a file past it
// keeps the server's kind.
const maxLabelledFiles = 20

// nodeOutlines is the outline entries on the nodes' lines, by node path:
// the target's file's from its outline, the others' from the cache or
// the server. A file that cannot be read or opened is left out.
func (t *Toolbox) nodeOutlines(ctx context.Context, s lspseam.Session, file resolvedFile, nodes []hierarchyNodeAt) map[string][]lspseam.OutlineEntry {
	lines := map[string]map[uint32]bool{}
	var order []string
	for _, n := range nodes {
		if n.Outside || n.Line == 0 {
			continue
		}
		if lines[n.Path] == nil {
			if len(order) == maxLabelledFiles {
				continue
			}
			lines[n.Path] = map[uint32]bool{}
			order = append(order, n.Path)
		}
		lines[n.Path][n.Line-1] = true
	}
	out := map[string][]lspseam.OutlineEntry{}
	for _, path := range order {
		src, err := s.Read(path)
		if err != nil {
			continue
		}
		var outline []lspseam.OutlineEntry
		switch cached, ok := t.outlines.getOutline(t.outlines.key(s.Server(), src.URI, src.Text)); {
		case src.URI == file.URI && file.hasOutline:
			outline = file.outline
		case ok:
			outline = cached
		default:
			opened, err := s.Open(ctx, path)
			if err != nil {
				continue
			}
			if outline, err = t.fileOutline(ctx, s, opened); err != nil {
				if ctx.Err() != nil {
					return out
				}
				continue
			}
		}
		if on := outlineOnLines(outline, lines[path]); len(on) > 0 {
			out[path] = on
		}
	}
	return out
}
