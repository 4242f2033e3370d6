package toolbox

import (
	"encoding/json"
	"fmt"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// A call hierarchy answer's call sites are shown as lines of one file: an
// incoming call's in its caller's file, an outgoing call's in the
// expanded item's. clangd 14 merges callers that share a symbol ID (every
// program's main) into one item whose fromRanges are each in its own
// program's file, and the answer then put 19 other files' calls at lines
// of tests/cjson_add.c that do not exist (findings s26 #7). Each site is
// checked against the text of the file it would be shown in
// (core.CallSiteThere) before the core sees the answer; the ones that
// cannot be there are left out, and the answer says how many and where.

// hierarchyPending is an expansion the core asks for: the LSP method and
// the item as the server sent it.
type hierarchyPending struct {
	ID     string          `json:"id"`
	Method string          `json:"method"`
	Item   json.RawMessage `json:"item"`
}

// placedSites keeps one hierarchy turn's checks: the files read (by URI;
// nil text for one that cannot be read, whose sites are kept unchecked)
// and the sites left out, by the caller and file they were given for.
type placedSites struct {
	s      lspseam.Session
	wsPath string
	texts  map[string]*string
	order  []string
	left   map[string]*leftSites
}

// leftSites is what was left out of one caller's sites in one file.
type leftSites struct {
	caller, callee, path string
	incoming             bool
	sites                int
	whole                bool // no site of the call was there: the call is left out
}

func newPlacedSites(s lspseam.Session) *placedSites {
	wsPath, _ := workspacefs.HostPaths.URIPath(s.WorkspaceURI())
	return &placedSites{s: s, wsPath: wsPath, texts: map[string]*string{}, left: map[string]*leftSites{}}
}

// hierarchyCallItem is what the check reads of a CallHierarchyItem.
type hierarchyCallItem struct {
	Name string `json:"name"`
	URI  string `json:"uri"`
}

// filter is raw (the answer of method for item) without the sites that
// are not where it puts them; raw itself when nothing is left out or it
// is not a list of calls (the core says what is wrong with it).
func (p *placedSites) filter(method string, item, raw json.RawMessage) json.RawMessage {
	incoming := method == "callHierarchy/incomingCalls"
	if !incoming && method != "callHierarchy/outgoingCalls" {
		return raw
	}
	var expanded hierarchyCallItem
	var calls []map[string]json.RawMessage
	if json.Unmarshal(item, &expanded) != nil || json.Unmarshal(raw, &calls) != nil {
		return raw
	}
	other := "to"
	if incoming {
		other = "from"
	}
	changed := false
	kept := calls[:0:0]
	for _, c := range calls {
		var peer hierarchyCallItem
		var ranges []core.Range
		if json.Unmarshal(c[other], &peer) != nil || json.Unmarshal(c["fromRanges"], &ranges) != nil || len(ranges) == 0 {
			kept = append(kept, c)
			continue
		}
		caller, callee, uri := peer, expanded, peer.URI
		if !incoming {
			caller, callee, uri = expanded, peer, expanded.URI
		}
		text := p.text(uri)
		if text == nil {
			kept = append(kept, c)
			continue
		}
		there := ranges[:0:0]
		for _, r := range ranges {
			if core.CallSiteThere(*text, r, callee.Name) {
				there = append(there, r)
			}
		}
		if len(there) == len(ranges) {
			kept = append(kept, c)
			continue
		}
		changed = true
		p.note(caller.Name, callee.Name, uri, incoming, len(ranges)-len(there), len(there) == 0)
		if len(there) == 0 {
			continue
		}
		c["fromRanges"], _ = json.Marshal(there)
		kept = append(kept, c)
	}
	if !changed {
		return raw
	}
	out, err := json.Marshal(kept)
	if err != nil {
		return raw
	}
	return out
}

// text is the file at uri, read once per turn; nil when it cannot be read
// (outside the workspace, too large).
func (p *placedSites) text(uri string) *string {
	if t, ok := p.texts[uri]; ok {
		return t
	}
	var t *string
	if path, ok := workspacefs.HostPaths.URIPath(uri); ok {
		if src, err := p.s.Read(path); err == nil {
			t = &src.Text
		}
	}
	p.texts[uri] = t
	return t
}

func (p *placedSites) note(caller, callee, uri string, incoming bool, n int, whole bool) {
	key := caller + "\x00" + callee + "\x00" + uri
	l := p.left[key]
	if l == nil {
		path := uri
		if abs, ok := workspacefs.HostPaths.URIPath(uri); ok {
			path = relTo(p.wsPath, abs)
		}
		l = &leftSites{caller: caller, callee: callee, path: path, incoming: incoming, whole: true}
		p.left[key] = l
		p.order = append(p.order, key)
	}
	l.sites += n
	l.whole = l.whole && whole
}

// notice says which sites were left out, and where every use is listed;
// "" when none was.
func (p *placedSites) notice() string {
	var parts []string
	merged := false
	for _, key := range p.order {
		l := p.left[key]
		are := "are"
		if l.sites == 1 {
			are = "is"
		}
		if l.incoming {
			merged = true
			s := fmt.Sprintf("%d %s the server attributed to %s in %s %s not there", l.sites, plural(l.sites, "call site", "call sites"), l.caller, l.path, are)
			if l.whole {
				s += ", so that caller of " + l.callee + " is left out"
			}
			parts = append(parts, s)
			continue
		}
		s := fmt.Sprintf("%d %s of %s the server gave for %s in %s %s not there", l.sites, plural(l.sites, "call site", "call sites"), l.callee, l.caller, l.path, are)
		if l.whole {
			s += ", so that callee is left out"
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return ""
	}
	why := ""
	if merged {
		// clangd 14 names callers by symbol ID: the main of every program
		// is one caller to it.
		why = " (the server merged callers that share a name, such as the main of several programs)"
	}
	return strings.Join(parts, "; ") + why + "; code_navigate kind references lists every use"
}
