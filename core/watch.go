package core

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// Watched files: which changes on disk a long-lived server hears about
// (LSP workspace/didChangeWatchedFiles).
//
// A server that stays up between queries must learn that files changed
// under it, or it answers from a stale view of the project. Servers say
// what they want to hear about by registering file watchers
// (client/registerCapability); FileWatchers turns those requests into
// watcher lists a host keeps per server. The host watches the file system
// itself and records, per path, the first and last raw event since its last
// delivery; FileChanges turns that record into the notifications to send.
//
// Two rules come from the lifecycle rather than from LSP:
//
//   - A server that registered nothing still hears about files of its own
//     languages (the extensions it is configured for): many servers never
//     register watchers but do handle the notification, and a server that
//     does not handle it ignores it.
//   - A document the server holds open is the client's to describe: LSP
//     says its content comes from didOpen/didChange, not from disk. So an
//     open document's creation or change is never sent as a watched-file
//     event; it is listed for the host to re-read and resynchronize
//     (didChange, or didClose when it is gone). A deletion is still sent
//     when it matches, since the file really is gone for the server's
//     project model.

// WatchKind bits of a file watcher: which net changes it wants.
const (
	WatchCreate int64 = 1
	WatchChange int64 = 2
	WatchDelete int64 = 4
	WatchAll          = WatchCreate | WatchChange | WatchDelete
)

// FileChangeType values of a FileEvent.
const (
	FileCreated = 1
	FileChanged = 2
	FileDeleted = 3
)

const (
	didChangeWatchedFiles = "workspace/didChangeWatchedFiles"
	// DefaultMaxBatch is FileChanges' default for the most changes in one
	// notification; a huge checkout or branch switch is split so no single
	// message exceeds a server's (or lspseam's) message size limit.
	DefaultMaxBatch = 1000
	maxMaxBatch     = 100_000
	// maxWatchProblems bounds FileWatchers' problem list: a server that
	// sends ten thousand bad watchers gets the first few described.
	maxWatchProblems = 20
)

// FileWatcher is one accepted watcher: a glob pattern, the file: URI of the
// directory it is relative to ("" for a plain pattern, which is matched
// against the absolute path and against the path relative to the server's
// root), and the WatchKind bits it wants.
type FileWatcher struct {
	Pattern string `json:"pattern"`
	BaseURI string `json:"baseUri,omitempty"`
	Kind    int64  `json:"kind"`
}

func (w FileWatcher) appendJSON(b []byte) []byte {
	b = append(b, `{"pattern":`...)
	b = appendString(b, w.Pattern)
	if w.BaseURI != "" {
		b = append(b, `,"baseUri":`...)
		b = appendString(b, w.BaseURI)
	}
	b = append(b, `,"kind":`...)
	b = appendInt(b, w.Kind)
	return append(b, '}')
}

// WatchRegistration is a server's registration of file watchers, by the id
// it will unregister them with.
type WatchRegistration struct {
	ID       string        `json:"id"`
	Watchers []FileWatcher `json:"watchers"`
}

func (r WatchRegistration) appendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, r.ID)
	b = append(b, `,"watchers":`...)
	b = appendArray(b, r.Watchers)
	return append(b, '}')
}

// WatchUpdate is what one registerCapability or unregisterCapability
// request changes: registrations to add (replacing any with the same id),
// ids to remove, and what was skipped and why.
type WatchUpdate struct {
	Register   []WatchRegistration `json:"register"`
	Unregister []string            `json:"unregister"`
	Problems   []string            `json:"problems"`
}

func (u WatchUpdate) appendJSON(b []byte) []byte {
	b = append(b, `{"register":`...)
	b = appendArray(b, u.Register)
	b = append(b, `,"unregister":`...)
	b = appendStrings(b, u.Unregister)
	b = append(b, `,"problems":`...)
	b = appendStrings(b, u.Problems)
	return append(b, '}')
}

// FileWatchers reads a server's client/registerCapability or
// client/unregisterCapability params and returns the watched-file part.
// Registrations for other methods are ignored (lspseam acknowledges them and
// uses none). A watcher lspseam cannot honour — a pattern that does not
// compile, a base that is not a local directory, a kind outside 1..7 — is
// skipped and described in Problems, and the rest of its registration is
// kept: the server still asked to be told about what remains.
func FileWatchers(method string, params gjson.Result) WatchUpdate {
	u := WatchUpdate{Register: []WatchRegistration{}, Unregister: []string{}, Problems: []string{}}
	dropped := 0
	problem := func(format string, args ...any) {
		if len(u.Problems) < maxWatchProblems {
			u.Problems = append(u.Problems, fmt.Sprintf(format, args...))
		} else {
			dropped++
		}
	}
	switch method {
	case "client/registerCapability":
		regs := get(params, "registrations")
		if !regs.IsArray() {
			problem("client/registerCapability params must have a registrations array, got %s; nothing registered", describe(regs))
			break
		}
		eachWatchedFilesEntry(regs, func(i int, r gjson.Result) {
			id := get(r, "id")
			if id.Type != gjson.String {
				problem("registrations[%d] (%s) has no string id (got %s), so it could never be unregistered; skipped", i, didChangeWatchedFiles, describe(id))
				return
			}
			where := "registration " + quoteClipped(id.Str)
			watchers := get(get(r, "registerOptions"), "watchers")
			if !watchers.IsArray() {
				problem("%s has no registerOptions.watchers array (got %s); skipped", where, describe(watchers))
				return
			}
			reg := WatchRegistration{ID: id.Str, Watchers: []FileWatcher{}}
			k := -1
			watchers.ForEach(func(_, w gjson.Result) bool {
				k++
				fw, msg := decodeServerWatcher(w)
				if msg != "" {
					problem("%s watcher %d: %s; skipped", where, k, msg)
				} else {
					reg.Watchers = append(reg.Watchers, fw)
				}
				return true
			})
			u.Register = append(u.Register, reg)
		})
	case "client/unregisterCapability":
		// LSP spells the field "unregisterations"; accept the correct
		// spelling too, which some servers send.
		list := get(params, "unregisterations")
		if !list.Exists() {
			list = get(params, "unregistrations")
		}
		if !list.IsArray() {
			problem("client/unregisterCapability params must have an unregisterations array, got %s; nothing unregistered", describe(list))
			break
		}
		eachWatchedFilesEntry(list, func(i int, r gjson.Result) {
			if id := get(r, "id"); id.Type == gjson.String {
				u.Unregister = append(u.Unregister, id.Str)
			} else {
				problem("unregisterations[%d] (%s) has no string id (got %s); skipped", i, didChangeWatchedFiles, describe(id))
			}
		})
	default:
		problem("fileWatchers reads client/registerCapability and client/unregisterCapability params, not %s", quoteClipped(method))
	}
	if dropped > 0 {
		u.Problems = append(u.Problems, fmt.Sprintf("…and %d more problems", dropped))
	}
	return u
}

// eachWatchedFilesEntry calls fn with the index and value of every entry of
// a registrations or unregisterations list whose method is
// workspace/didChangeWatchedFiles.
func eachWatchedFilesEntry(list gjson.Result, fn func(i int, r gjson.Result)) {
	i := -1
	list.ForEach(func(_, r gjson.Result) bool {
		i++
		if m := get(r, "method"); m.Type == gjson.String && m.Str == didChangeWatchedFiles {
			fn(i, r)
		}
		return true
	})
}

// decodeServerWatcher reads one LSP FileSystemWatcher: globPattern (a
// pattern string, or a RelativePattern whose baseUri is a URI or a
// WorkspaceFolder) and kind. The problem is "" when the watcher is usable.
func decodeServerWatcher(w gjson.Result) (FileWatcher, string) {
	fw := FileWatcher{Kind: WatchAll}
	switch gp := get(w, "globPattern"); {
	case gp.Type == gjson.String:
		fw.Pattern = gp.Str
	case gp.IsObject():
		pat := get(gp, "pattern")
		if pat.Type != gjson.String {
			return fw, "the relative pattern's pattern must be a string, got " + describe(pat)
		}
		fw.Pattern = pat.Str
		base := get(gp, "baseUri")
		if base.IsObject() { // a WorkspaceFolder
			base = get(base, "uri")
		}
		if base.Type != gjson.String {
			return fw, "the relative pattern's baseUri must be a URI string or a workspace folder {uri, name}, got " + describe(base)
		}
		fw.BaseURI = base.Str
		if _, ok := FileURIPath(base.Str); !ok {
			return fw, "baseUri " + quoteClipped(base.Str) + " is not the file: URI of a local directory"
		}
	default:
		return fw, "globPattern must be a pattern string or a relative pattern {baseUri, pattern}, got " + describe(gp)
	}
	if _, err := CompileGlob(fw.Pattern); err != nil {
		return fw, err.Message
	}
	if k := get(w, "kind"); k.Exists() && k.Type != gjson.Null {
		n, ok := integer(k, 1, WatchAll)
		if !ok {
			return fw, kindProblem(describe(k))
		}
		fw.Kind = n
	}
	return fw, ""
}

func kindProblem(got string) string {
	return "kind must be an integer from 1 to 7 (WatchKind bits: Create 1, Change 2, Delete 4), got " + got
}

// PathChange is what a host saw happen to one path since its last
// delivery: the first and last raw event ("created", "changed",
// "deleted"). Only the two ends matter: whether the file existed before
// (first is not "created") and whether it exists now (last is not
// "deleted").
type PathChange struct {
	Path  string `json:"path"`
	First string `json:"first"`
	Last  string `json:"last"`
}

func (c PathChange) appendJSON(b []byte) []byte {
	b = append(b, `{"path":`...)
	b = appendString(b, c.Path)
	b = append(b, `,"first":`...)
	b = appendString(b, c.First)
	b = append(b, `,"last":`...)
	b = appendString(b, c.Last)
	return append(b, '}')
}

// FileChangesInput is FileChanges' input. Registrations nil means the
// server registered no watchers (match by extension); non-nil, even empty,
// means only its watchers count.
type FileChangesInput struct {
	Changes       []PathChange        `json:"changes"`
	Registrations []WatchRegistration `json:"registrations"`
	Extensions    []string            `json:"extensions"`
	// FileNames are whole base names the server serves (Dockerfile),
	// matched like Extensions.
	FileNames     []string `json:"fileNames,omitempty"`
	Root          string   `json:"root"`
	OpenDocuments []string `json:"openDocuments"`
	MaxBatch      int      `json:"maxBatch,omitempty"`
	// OpenNewDirectories asks for Open: the server (gopls) finds the files
	// of a new directory only once one of them is opened.
	OpenNewDirectories bool `json:"openNewDirectories,omitempty"`
	// Windows: the paths are a Windows host's drive paths, each written
	// as PathRules.WatchPath writes it (/C:/src/a.go); events name them by
	// WindowsFileURI (file:///C:/src/a.go) and a watcher's baseUri is read
	// by WindowsURIPath, so they meet the URIs the host sent.
	Windows bool `json:"windows,omitempty"`
}

func (in FileChangesInput) appendJSON(b []byte) []byte {
	b = append(b, `{"changes":`...)
	b = appendArray(b, in.Changes)
	b = append(b, `,"registrations":`...)
	if in.Registrations == nil {
		b = append(b, "null"...)
	} else {
		b = appendArray(b, in.Registrations)
	}
	b = append(b, `,"extensions":`...)
	b = appendStrings(b, in.Extensions)
	if len(in.FileNames) > 0 {
		b = append(b, `,"fileNames":`...)
		b = appendStrings(b, in.FileNames)
	}
	b = append(b, `,"root":`...)
	b = appendString(b, in.Root)
	b = append(b, `,"openDocuments":`...)
	b = appendStrings(b, in.OpenDocuments)
	if in.MaxBatch != 0 {
		b = append(b, `,"maxBatch":`...)
		b = appendInt(b, int64(in.MaxBatch))
	}
	if in.OpenNewDirectories {
		b = append(b, `,"openNewDirectories":true`...)
	}
	if in.Windows {
		b = append(b, `,"windows":true`...)
	}
	return append(b, '}')
}

// MarshalJSON encodes the input exactly as fileChanges reads it: nil
// Registrations is null (match by extension), nil lists are [].
func (in FileChangesInput) MarshalJSON() ([]byte, error) { return in.appendJSON(nil), nil }

// FileEvent is one LSP FileEvent: a file: URI and its FileChangeType.
type FileEvent struct {
	URI  string `json:"uri"`
	Type int    `json:"type"`
}

func (e FileEvent) appendJSON(b []byte) []byte {
	b = append(b, `{"uri":`...)
	b = appendString(b, e.URI)
	b = append(b, `,"type":`...)
	b = appendInt(b, int64(e.Type))
	return append(b, '}')
}

// FileChangeBatch is the params of one workspace/didChangeWatchedFiles
// notification.
type FileChangeBatch struct {
	Changes []FileEvent `json:"changes"`
}

func (c FileChangeBatch) appendJSON(b []byte) []byte {
	b = append(b, `{"changes":`...)
	b = appendArray(b, c.Changes)
	return append(b, '}')
}

// FileChangesResult is what to tell a server: the notifications to send in
// order, the open documents to re-read and resynchronize, and counts.
// Matched is the number of events in Batches; Ignored counts changes that
// netted to nothing or that no watcher (or extension) wanted. An open
// document's creation or change counts as neither: it is in Reverify.
// Open (only with OpenNewDirectories) lists, for each directory created in
// this change set, its first created file with one of the extensions, for
// the host to open; at most maxOpenNew, and OpenOmitted counts the new
// directories beyond that (the host says the answer may miss them).
// Uncovered lists the files of the server's own kinds (Extensions,
// FileNames), inside Root (when given), not open or deleted, whose change its
// watcher registrations do not select: counted in Ignored, but a server that reads them from the disk
// (terraform-ls registers watchers for .terraform/ only) answers as if
// they had not changed unless the host does something else.
type FileChangesResult struct {
	Batches  []FileChangeBatch `json:"batches"`
	Reverify []string          `json:"reverify"`
	Matched  int               `json:"matched"`
	Ignored  int               `json:"ignored"`
	Open     []string          `json:"open,omitempty"`
	// OpenOmitted counts new directories left out of Open.
	OpenOmitted int      `json:"openOmitted,omitempty"`
	Uncovered   []string `json:"uncovered,omitempty"`
}

// maxOpenNew bounds FileChangesResult.Open: a burst of new directories
// opens some files, not thousands.
const maxOpenNew = 64

func (r FileChangesResult) appendJSON(b []byte) []byte {
	b = append(b, `{"batches":`...)
	b = appendArray(b, r.Batches)
	b = append(b, `,"reverify":`...)
	b = appendStrings(b, r.Reverify)
	b = append(b, `,"matched":`...)
	b = appendInt(b, int64(r.Matched))
	b = append(b, `,"ignored":`...)
	b = appendInt(b, int64(r.Ignored))
	if len(r.Open) > 0 {
		b = append(b, `,"open":`...)
		b = appendStrings(b, r.Open)
	}
	if r.OpenOmitted > 0 {
		b = append(b, `,"openOmitted":`...)
		b = appendInt(b, int64(r.OpenOmitted))
	}
	if len(r.Uncovered) > 0 {
		b = append(b, `,"uncovered":`...)
		b = appendStrings(b, r.Uncovered)
	}
	return append(b, '}')
}

// compiledWatcher is a FileWatcher ready to match: its glob, the canonical
// path of its base directory ("" for a plain pattern) and its kind bits.
type compiledWatcher struct {
	glob *Glob
	base string
	kind int64
}

// FileChanges computes the workspace/didChangeWatchedFiles notifications for
// a host's recorded changes. Per path, the net change is Created (did not
// exist before, exists now), Changed (existed and exists), Deleted (existed,
// does not) or nothing (created and deleted again), which is dropped. A net
// change is sent when it matches: by extension when the server registered
// no watchers, else when some watcher wants its kind and its pattern
// matches. Changes keep their input order and are split into batches of at
// most MaxBatch. Cost is O(changes × watchers) matches, each glob compiled
// once.
func FileChanges(in FileChangesInput) (FileChangesResult, *Error) {
	maxBatch := in.MaxBatch
	if maxBatch == 0 {
		maxBatch = DefaultMaxBatch
	}
	if maxBatch < 1 || maxBatch > maxMaxBatch {
		return FileChangesResult{}, Errorf(CodeInvalidArgument, "maxBatch must be an integer from 1 to %d (changes per notification), got %d", maxMaxBatch, in.MaxBatch)
	}
	if in.Root != "" {
		if err := checkCanonicalPath(in.Root, "root"); err != nil {
			return FileChangesResult{}, err
		}
	}
	exts := map[string]bool{}
	for i, e := range in.Extensions {
		ext, problem := NormalizeExtension(e)
		if problem != "" {
			return FileChangesResult{}, Errorf(CodeInvalidArgument, "extensions[%d]: %s", i, problem)
		}
		exts[ext] = true
	}
	for _, name := range in.FileNames {
		exts["name:"+name] = true
	}
	open := make(map[string]bool, len(in.OpenDocuments))
	for i, p := range in.OpenDocuments {
		if err := checkCanonicalPath(p, fmt.Sprintf("openDocuments[%d]", i)); err != nil {
			return FileChangesResult{}, err
		}
		open[p] = true
	}
	watchers, err := compileWatchers(in.Registrations, in.Windows)
	if err != nil {
		return FileChangesResult{}, err
	}
	res := FileChangesResult{Batches: []FileChangeBatch{}, Reverify: []string{}}
	reverified := map[string]bool{}
	var events []FileEvent
	for i, c := range in.Changes {
		if err := checkCanonicalPath(c.Path, fmt.Sprintf("changes[%d].path", i)); err != nil {
			return FileChangesResult{}, err
		}
		for _, ev := range []struct{ field, value string }{{"first", c.First}, {"last", c.Last}} {
			if ev.value != "created" && ev.value != "changed" && ev.value != "deleted" {
				return FileChangesResult{}, Errorf(CodeInvalidArgument, "changes[%d].%s must be \"created\", \"changed\" or \"deleted\" (the %s raw event seen for the path), got %s", i, ev.field, ev.field, quoteClipped(ev.value))
			}
		}
		typ := netChange(c.First != "created", c.Last != "deleted")
		if open[c.Path] {
			if !reverified[c.Path] {
				reverified[c.Path] = true
				res.Reverify = append(res.Reverify, c.Path)
			}
			if typ == FileCreated || typ == FileChanged {
				continue
			}
		}
		switch {
		case typ == 0:
			res.Ignored++
		case in.Registrations == nil && !servesFile(exts, c.Path):
			res.Ignored++
		case in.Registrations != nil && !watched(watchers, c.Path, in.Root, typ):
			res.Ignored++
			// An open document is here only when it was deleted: the
			// didClose that follows asks the server to read the disk, but
			// one that keeps its module's files (terraform-ls) kept the
			// deleted file in its answers.
			if servesFile(exts, c.Path) && (in.Root == "" || relativeStart(in.Root, c.Path) > 0) {
				res.Uncovered = append(res.Uncovered, c.Path)
			}
		default:
			events = append(events, FileEvent{URI: watchURI(c.Path, in.Windows), Type: typ})
		}
	}
	if in.OpenNewDirectories {
		res.Open, res.OpenOmitted = newDirectoryFiles(in.Changes, exts)
	}
	res.Matched = len(events)
	for len(events) > 0 {
		n := min(maxBatch, len(events))
		res.Batches = append(res.Batches, FileChangeBatch{Changes: events[:n:n]})
		events = events[n:]
	}
	return res, nil
}

// newDirectoryFiles picks, for each directory whose net change is Created,
// the first created file in it with one of the extensions.
func newDirectoryFiles(changes []PathChange, exts map[string]bool) (open []string, omitted int) {
	created := map[string]bool{}
	for _, c := range changes {
		if netChange(c.First != "created", c.Last != "deleted") == FileCreated {
			created[c.Path] = true
		}
	}
	chosen := map[string]bool{}
	for _, c := range changes {
		dir := path.Dir(c.Path)
		if !created[c.Path] || !created[dir] || chosen[dir] || !servesFile(exts, c.Path) {
			continue
		}
		chosen[dir] = true
		if len(open) == maxOpenNew {
			omitted++
			continue
		}
		open = append(open, c.Path)
	}
	return open, omitted
}

// servesFile says whether a path is one of the server's files: its final
// extension, or its whole base name ("name:"+base), is in served.
func servesFile(served map[string]bool, p string) bool {
	return served[FinalExtension(p)] || served["name:"+BaseName(p)]
}

// netChange is the FileChangeType for a path that existed (or not) before
// and exists (or not) now; 0 when it neither existed nor exists.
func netChange(existedBefore, existsAfter bool) int {
	switch {
	case existedBefore && existsAfter:
		return FileChanged
	case existsAfter:
		return FileCreated
	case existedBefore:
		return FileDeleted
	}
	return 0
}

// checkCanonicalPath requires what the host promised: an absolute path in
// canonical form, which is what watcher bases and the root are compared
// against byte for byte.
func checkCanonicalPath(p, where string) *Error {
	switch {
	case strings.IndexByte(p, 0) >= 0:
		return Errorf(CodeInvalidArgument, "%s must not contain NUL", where)
	case !strings.HasPrefix(p, "/") || path.Clean(p) != p:
		return Errorf(CodeInvalidArgument, "%s must be an absolute, canonical path (starting with '/', without '.', '..', empty segments or a trailing '/'), got %s", where, quoteClipped(p))
	}
	return nil
}

// compileWatchers compiles every watcher of the registrations, each
// distinct pattern once.
func compileWatchers(regs []WatchRegistration, windows bool) ([]compiledWatcher, *Error) {
	var out []compiledWatcher
	globs := map[string]*Glob{}
	for i, r := range regs {
		for k, w := range r.Watchers {
			where := fmt.Sprintf("registrations[%d].watchers[%d]", i, k)
			if w.Kind < 1 || w.Kind > WatchAll {
				return nil, Errorf(CodeInvalidArgument, "%s.%s", where, kindProblem(strconv.FormatInt(w.Kind, 10)))
			}
			cw := compiledWatcher{glob: globs[w.Pattern], kind: w.Kind}
			if cw.glob == nil {
				g, err := CompileGlob(w.Pattern)
				if err != nil {
					return nil, Errorf(CodeInvalidArgument, "%s.pattern: %s", where, err.Message)
				}
				globs[w.Pattern], cw.glob = g, g
			}
			if w.BaseURI != "" {
				base, ok := watchBase(w.BaseURI, windows)
				if !ok {
					return nil, Errorf(CodeInvalidArgument, "%s.baseUri must be the file: URI of a local directory (or absent for a plain pattern), got %s", where, quoteClipped(w.BaseURI))
				}
				cw.base = base
			}
			out = append(out, cw)
		}
	}
	return out, nil
}

// watched reports whether some watcher wants a net change of type typ to
// p. A plain pattern may match the absolute path or the path relative to
// the server's root: servers write both ("**/*.go", "/abs/**"), and
// accepting either cannot miss a change the server asked for. A relative
// pattern matches the path relative to its base directory.
func watched(watchers []compiledWatcher, p, root string, typ int) bool {
	bit := int64(1) << (typ - 1)
	var segs [][]rune
	for _, w := range watchers {
		if w.kind&bit == 0 {
			continue
		}
		if segs == nil {
			segs = splitSegments(p)
		}
		if w.base != "" {
			if start := relativeStart(w.base, p); start > 0 && w.glob.matchSegments(segs[start:]) {
				return true
			}
			continue
		}
		if w.glob.matchSegments(segs) {
			return true
		}
		if root != "" {
			if start := relativeStart(root, p); start > 0 && w.glob.matchSegments(segs[start:]) {
				return true
			}
		}
	}
	return false
}

// relativeStart is the index, in p's segments (the first is the empty one
// before the leading '/'), of p's first segment below the directory dir;
// -1 when p is not strictly inside dir. Both are canonical absolute paths.
func relativeStart(dir, p string) int {
	switch {
	case dir == "/":
		if p != "/" {
			return 1
		}
	case len(p) > len(dir) && p[len(dir)] == '/' && strings.HasPrefix(p, dir):
		return strings.Count(dir, "/") + 1
	}
	return -1
}

// decodeFileChangesInput reads fileChanges' JSON input; FileChanges checks
// the values.
func decodeFileChangesInput(v gjson.Result) (FileChangesInput, *Error) {
	var in FileChangesInput
	changes := get(v, "changes")
	if !changes.IsArray() {
		return in, Errorf(CodeInvalidArgument, `changes must be an array of {"path": "/abs/file", "first": "created"|"changed"|"deleted", "last": …}, got %s`, describe(changes))
	}
	var err *Error
	changes.ForEach(func(_, c gjson.Result) bool {
		where := fmt.Sprintf("changes[%d]", len(in.Changes))
		var pc PathChange
		for _, f := range []struct {
			name string
			dst  *string
		}{{"path", &pc.Path}, {"first", &pc.First}, {"last", &pc.Last}} {
			if err = requireString(get(c, f.name), where+"."+f.name); err != nil {
				return false
			}
			*f.dst = get(c, f.name).Str
		}
		in.Changes = append(in.Changes, pc)
		return true
	})
	if err != nil {
		return in, err
	}
	if regs := get(v, "registrations"); regs.Exists() && regs.Type != gjson.Null {
		if in.Registrations, err = decodeWatchRegistrations(regs); err != nil {
			return in, err
		}
	}
	if in.Extensions, err = decodeStrings(get(v, "extensions"), "extensions"); err != nil {
		return in, err
	}
	if names := get(v, "fileNames"); names.Exists() && names.Type != gjson.Null {
		if in.FileNames, err = decodeStrings(names, "fileNames"); err != nil {
			return in, err
		}
	}
	if in.OpenDocuments, err = decodeStrings(get(v, "openDocuments"), "openDocuments"); err != nil {
		return in, err
	}
	if root := get(v, "root"); root.Exists() && root.Type != gjson.Null {
		if err = requireString(root, "root"); err != nil {
			return in, err
		}
		in.Root = root.Str
	}
	for _, flag := range []struct {
		name string
		dst  *bool
	}{{"openNewDirectories", &in.OpenNewDirectories}, {"windows", &in.Windows}} {
		switch o := get(v, flag.name); o.Type {
		case gjson.True:
			*flag.dst = true
		case gjson.False, gjson.Null:
		default:
			if o.Exists() {
				return in, Errorf(CodeInvalidArgument, "%s must be a boolean, got %s", flag.name, describe(o))
			}
		}
	}
	if mb := get(v, "maxBatch"); mb.Exists() && mb.Type != gjson.Null {
		n, ok := integer(mb, 1, maxMaxBatch)
		if !ok {
			return in, Errorf(CodeInvalidArgument, "maxBatch must be an integer from 1 to %d (changes per notification), got %s", maxMaxBatch, describe(mb))
		}
		in.MaxBatch = int(n)
	}
	return in, nil
}

// decodeWatchRegistrations reads registrations as FileWatchers returned
// them; a watcher's kind defaults to 7 (all) as in LSP.
func decodeWatchRegistrations(regs gjson.Result) ([]WatchRegistration, *Error) {
	if !regs.IsArray() {
		return nil, Errorf(CodeInvalidArgument, "registrations must be null (the server registered no watchers) or an array of the registrations fileWatchers returned, got %s", describe(regs))
	}
	out := []WatchRegistration{}
	var err *Error
	regs.ForEach(func(_, r gjson.Result) bool {
		where := fmt.Sprintf("registrations[%d]", len(out))
		watchers := get(r, "watchers")
		if !watchers.IsArray() {
			err = Errorf(CodeInvalidArgument, "%s.watchers must be an array of {pattern, baseUri?, kind}, got %s", where, describe(watchers))
			return false
		}
		reg := WatchRegistration{ID: get(r, "id").Str, Watchers: []FileWatcher{}}
		watchers.ForEach(func(_, w gjson.Result) bool {
			at := fmt.Sprintf("%s.watchers[%d]", where, len(reg.Watchers))
			fw := FileWatcher{Kind: WatchAll}
			if err = requireString(get(w, "pattern"), at+".pattern"); err != nil {
				return false
			}
			fw.Pattern = get(w, "pattern").Str
			if b := get(w, "baseUri"); b.Exists() && b.Type != gjson.Null {
				if err = requireString(b, at+".baseUri"); err != nil {
					return false
				}
				fw.BaseURI = b.Str
			}
			if k := get(w, "kind"); k.Exists() && k.Type != gjson.Null {
				n, ok := integer(k, 1, WatchAll)
				if !ok {
					err = Errorf(CodeInvalidArgument, "%s.%s", at, kindProblem(describe(k)))
					return false
				}
				fw.Kind = n
			}
			reg.Watchers = append(reg.Watchers, fw)
			return true
		})
		out = append(out, reg)
		return err == nil
	})
	return out, err
}

// decodeStrings reads an optional array of strings (absent or null is
// empty).
func decodeStrings(v gjson.Result, where string) ([]string, *Error) {
	if !v.Exists() || v.Type == gjson.Null {
		return nil, nil
	}
	if !v.IsArray() {
		return nil, Errorf(CodeInvalidArgument, "%s must be an array of strings, got %s", where, describe(v))
	}
	var out []string
	var err *Error
	v.ForEach(func(_, s gjson.Result) bool {
		err = requireString(s, fmt.Sprintf("%s[%d]", where, len(out)))
		out = append(out, s.Str)
		return err == nil
	})
	return out, err
}

func requireString(v gjson.Result, where string) *Error {
	if v.Type != gjson.String {
		return Errorf(CodeInvalidArgument, "%s must be a string, got %s", where, describe(v))
	}
	return nil
}

// watchURI is the URI of a path of fileChanges' input: FileURI's, or for
// a Windows host's drive path (/C:/x) WindowsFileURI's.
func watchURI(p string, windows bool) string {
	if windows {
		if uri, ok := WindowsFileURI(p[1:]); ok {
			return uri
		}
	}
	return FileURI(p)
}

// watchBase is the path of a watcher's baseUri in the form of
// fileChanges' paths: FileURIPath's, or for a Windows host the drive path
// WindowsURIPath reads, written /C:/x (a UNC base is //server/share/x,
// which no input path is).
func watchBase(uri string, windows bool) (string, bool) {
	if !windows {
		return FileURIPath(uri)
	}
	p, ok := WindowsURIPath(uri)
	if !ok {
		return "", false
	}
	p = strings.ReplaceAll(p, `\`, "/")
	if strings.HasPrefix(p, "//") {
		return p, true
	}
	return "/" + strings.TrimSuffix(p, "/"), true
}
