package core

import (
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// planWorkspaceEdit: what a language server's WorkspaceEdit would do, for
// issue 13's applier to check, preview and apply (the host fails closed on
// anything listed in outside or conflicts; the core applies nothing).
//
// Input {edit (the raw WorkspaceEdit; null: none), workspaceUri,
// versions?: {uri: the version the client last sent, or null}}. Output
// {files: [{uri, path, index?, version?, edits: [TextEdit]}], operations:
// [{kind: "create" | "rename" | "delete", index?, uri/path (create,
// delete) or oldUri, oldPath, newUri, newPath (rename), options}],
// outside: [uri], conflicts: [{uri, path, expected, have}], touched:
// [path], summary}.
//
// When documentChanges is present (not null) it is used and changes is
// ignored (LSP). From changes, each URI (in document order) is one file
// without index or version. From documentChanges, each TextDocumentEdit is
// one file entry, with index (its place in documentChanges: files and
// operations interleave by it, and LSP applies them in that order) and
// version (null when unversioned); a document edited by several
// TextDocumentEdits has one entry each, to be applied one after the other,
// since each one's ranges refer to the text the previous one left. edits
// are TextEdits (an AnnotatedTextEdit's annotationId dropped) in the
// server's order, each range checked for shape and order only
// (applyTextEdits checks them against the text). options are filled in:
// create and rename {overwrite, ignoreIfExists}, delete {recursive,
// ignoreIfNotExists}, false unless given.
//
// outside lists, once each and in order, every URI that is not a file: URI
// strictly inside the workspace directory (the workspace itself included).
// With versions, a TextDocumentEdit whose version is not null conflicts
// when the client's version for the document differs (have: null when the
// client has none); URIs are compared by the path they name. touched lists
// once each, in order, every path the edit would change: files with at
// least one edit, created and deleted paths, both paths of a rename. paths
// are relative to the workspace, absolute outside it, the URI itself when
// it is not a file: URI. summary is one line, "3 edits in 2 files; rename
// src/a.ts → src/b.ts" ("no changes" for an empty edit).
//
// Errors: LSP_MALFORMED_RESPONSE naming the JSON path of the first bad
// value (an unknown resource operation kind included: it is not guessed
// at); LSP_INVALID_ARGUMENT for the host's input (workspaceUri, versions).

// FileEdits is the TextEdits of one document (one planWorkspaceEdit file).
type FileEdits struct {
	URI  string
	Path string
	// Index is the TextDocumentEdit's place in documentChanges, -1 for an
	// entry of changes.
	Index int
	// Version is the TextDocumentEdit's version; nil when it is null or
	// the entry comes from changes.
	Version *int64
	Edits   []TextEdit
}

func (f FileEdits) appendJSON(b []byte) []byte {
	b = append(b, `{"uri":`...)
	b = appendString(b, f.URI)
	b = append(b, `,"path":`...)
	b = appendString(b, f.Path)
	if f.Index >= 0 {
		b = append(b, `,"index":`...)
		b = appendInt(b, int64(f.Index))
		b = append(b, `,"version":`...)
		if f.Version == nil {
			b = append(b, "null"...)
		} else {
			b = appendInt(b, *f.Version)
		}
	}
	b = append(b, `,"edits":`...)
	b = appendArray(b, f.Edits)
	return append(b, '}')
}

// ResourceOperation is a CreateFile, RenameFile or DeleteFile.
type ResourceOperation struct {
	Kind      string // "create", "rename", "delete"
	Index     int
	URI, Path string // create, delete
	OldURI    string // rename
	OldPath   string
	NewURI    string
	NewPath   string
	// Options: create and rename {overwrite, ignoreIfExists}, delete
	// {recursive, ignoreIfNotExists}.
	Options [2]bool
}

func (o ResourceOperation) appendJSON(b []byte) []byte {
	b = append(b, `{"kind":`...)
	b = appendString(b, o.Kind)
	b = append(b, `,"index":`...)
	b = appendInt(b, int64(o.Index))
	if o.Kind == "rename" {
		b = append(b, `,"oldUri":`...)
		b = appendString(b, o.OldURI)
		b = append(b, `,"oldPath":`...)
		b = appendString(b, o.OldPath)
		b = append(b, `,"newUri":`...)
		b = appendString(b, o.NewURI)
		b = append(b, `,"newPath":`...)
		b = appendString(b, o.NewPath)
	} else {
		b = append(b, `,"uri":`...)
		b = appendString(b, o.URI)
		b = append(b, `,"path":`...)
		b = appendString(b, o.Path)
	}
	names := optionNames(o.Kind)
	b = append(b, `,"options":{"`...)
	b = append(b, names[0]...)
	b = append(b, `":`...)
	b = appendBool(b, o.Options[0])
	b = append(b, `,"`...)
	b = append(b, names[1]...)
	b = append(b, `":`...)
	b = appendBool(b, o.Options[1])
	return append(b, "}}"...)
}

func optionNames(kind string) [2]string {
	if kind == "delete" {
		return [2]string{"recursive", "ignoreIfNotExists"}
	}
	return [2]string{"overwrite", "ignoreIfExists"}
}

// VersionConflict is a TextDocumentEdit computed on another version of
// the document than the one the client last sent.
type VersionConflict struct {
	URI      string
	Path     string
	Expected int64
	Have     *int64
}

func (c VersionConflict) appendJSON(b []byte) []byte {
	b = append(b, `{"uri":`...)
	b = appendString(b, c.URI)
	b = append(b, `,"path":`...)
	b = appendString(b, c.Path)
	b = append(b, `,"expected":`...)
	b = appendInt(b, c.Expected)
	b = append(b, `,"have":`...)
	if c.Have == nil {
		b = append(b, "null"...)
	} else {
		b = appendInt(b, *c.Have)
	}
	return append(b, '}')
}

// WorkspaceEditPlan is planWorkspaceEdit's ok value.
type WorkspaceEditPlan struct {
	Files      []FileEdits
	Operations []ResourceOperation
	Outside    []string
	Conflicts  []VersionConflict
	Touched    []string
	Summary    string
}

func (p WorkspaceEditPlan) appendJSON(b []byte) []byte {
	b = append(b, `{"files":`...)
	b = appendArray(b, p.Files)
	b = append(b, `,"operations":`...)
	b = appendArray(b, p.Operations)
	b = append(b, `,"outside":`...)
	b = appendStrings(b, p.Outside)
	b = append(b, `,"conflicts":`...)
	b = appendArray(b, p.Conflicts)
	b = append(b, `,"touched":`...)
	b = appendStrings(b, p.Touched)
	b = append(b, `,"summary":`...)
	b = appendString(b, p.Summary)
	return append(b, '}')
}

// maxVersion bounds document versions (LSP integers).
const maxVersion = 1<<31 - 1

func planWorkspaceEditCall(in gjson.Result) (jsonAppender, *Error) {
	if err := requireObject(in, "planWorkspaceEdit's input"); err != nil {
		return nil, err
	}
	ws := get(in, "workspaceUri")
	wsPath, ok := "", false
	if ws.Type == gjson.String {
		wsPath, ok = WorkspacePath(ws.Str)
	}
	if !ok {
		return nil, Errorf(CodeInvalidArgument, "workspaceUri must be the file: URI of the workspace directory (file:///path/to/workspace), got %s", describe(ws))
	}
	edit := get(in, "edit")
	if !edit.Exists() {
		return nil, Errorf(CodeInvalidArgument, "edit must be the language server's WorkspaceEdit (or null), got missing")
	}
	var versions map[string]*int64
	if v := get(in, "versions"); v.Exists() && v.Type != gjson.Null {
		if !v.IsObject() {
			return nil, Errorf(CodeInvalidArgument, "versions must be an object of document URI to the version last sent, got %s", describe(v))
		}
		versions = map[string]*int64{}
		var bad *Error
		v.ForEach(func(k, val gjson.Result) bool {
			if val.Type == gjson.Null {
				versions[uriKey(k.Str, wsPath)] = nil
				return true
			}
			n, ok := integer(val, -maxVersion-1, maxVersion)
			if !ok {
				bad = Errorf(CodeInvalidArgument, "versions[%q] must be an integer version or null, got %s", clip(k.Str, 200), describe(val))
				return false
			}
			versions[uriKey(k.Str, wsPath)] = &n
			return true
		})
		if bad != nil {
			return nil, bad
		}
	}
	return PlanWorkspaceEdit(edit, wsPath, versions)
}

// uriKey is what URIs are compared by: the path a file: URI names (under
// a Windows workspace wsPath, that path with its case folded), else the
// URI itself.
func uriKey(uri, wsPath string) string {
	if windowsDir(wsPath) {
		if p, ok := uriPathIn(uri, wsPath); ok {
			return "file:" + FoldedPathKey(p)
		}
		return uri
	}
	if p, ok := FileURIPath(uri); ok {
		return "file:" + p
	}
	return uri
}

func malformedWorkspaceEdit(problem string) *Error {
	return Errorf(CodeMalformedResponse, "the language server's WorkspaceEdit is malformed: %s", problem)
}

// PlanWorkspaceEdit plans a raw WorkspaceEdit for the workspace directory
// wsPath; versions maps uriKey (under wsPath) of open documents to their versions (nil
// map: not checked) (see planWorkspaceEdit).
func PlanWorkspaceEdit(edit gjson.Result, wsPath string, versions map[string]*int64) (WorkspaceEditPlan, *Error) {
	p := planner{wsPath: wsPath, seenOutside: map[string]bool{}, seenTouched: map[string]bool{}}
	var problem string
	switch {
	case edit.Type == gjson.Null:
	case !edit.IsObject():
		return WorkspaceEditPlan{}, malformedWorkspaceEdit("edit must be a WorkspaceEdit object or null, got " + describe(edit))
	default:
		f := fields(edit, "changes", "documentChanges")
		if dc := f[1]; dc.Exists() && dc.Type != gjson.Null {
			problem = p.documentChanges(dc, versions)
		} else if ch := f[0]; ch.Exists() && ch.Type != gjson.Null {
			problem = p.changes(ch)
		}
	}
	if problem != "" {
		return WorkspaceEditPlan{}, malformedWorkspaceEdit(problem)
	}
	p.plan.Summary = p.summary()
	return p.plan, nil
}

type planner struct {
	wsPath      string
	plan        WorkspaceEditPlan
	seenOutside map[string]bool
	seenTouched map[string]bool
}

// path returns uri's display path and notes it when it is outside.
func (p *planner) path(uri string) string {
	_, inside := insideWorkspace(uri, p.wsPath)
	if !inside && !p.seenOutside[uri] {
		p.seenOutside[uri] = true
		p.plan.Outside = append(p.plan.Outside, uri)
	}
	return displayPath(uri, p.wsPath)
}

func (p *planner) touch(path string) {
	if !p.seenTouched[path] {
		p.seenTouched[path] = true
		p.plan.Touched = append(p.plan.Touched, path)
	}
}

func (p *planner) addFile(f FileEdits) {
	if len(f.Edits) > 0 {
		p.touch(f.Path)
	}
	if f.Edits == nil {
		f.Edits = []TextEdit{}
	}
	p.plan.Files = append(p.plan.Files, f)
}

func (p *planner) changes(ch gjson.Result) string {
	if !ch.IsObject() {
		return "edit.changes must be an object of document URI to TextEdit[], got " + describe(ch)
	}
	if _, dup, has := objectKeys(ch); has {
		return "edit.changes names " + strconvQuote(dup) + " twice"
	}
	var problem string
	ch.ForEach(func(k, v gjson.Result) bool {
		where := "edit.changes[" + strconvQuote(k.Str) + "]"
		if k.Str == "" {
			problem = "edit.changes has an empty document URI"
			return false
		}
		if !v.IsArray() {
			problem = where + " must be an array of TextEdit, got " + describe(v)
			return false
		}
		var edits []TextEdit
		edits, problem = textEditsOf(v, at{where, -1})
		if problem != "" {
			return false
		}
		p.addFile(FileEdits{URI: k.Str, Path: p.path(k.Str), Index: -1, Edits: edits})
		return true
	})
	return problem
}

func (p *planner) documentChanges(dc gjson.Result, versions map[string]*int64) string {
	if !dc.IsArray() {
		return "edit.documentChanges must be an array, got " + describe(dc)
	}
	var problem string
	i := 0
	dc.ForEach(func(_, item gjson.Result) bool {
		where := at{"edit.documentChanges", i}
		problem = p.documentChange(item, where, i, versions)
		i++
		return problem == ""
	})
	return problem
}

func (p *planner) documentChange(item gjson.Result, where at, i int, versions map[string]*int64) string {
	if !item.IsObject() {
		return where.String() + " must be a TextDocumentEdit, CreateFile, RenameFile or DeleteFile object, got " + describe(item)
	}
	kind := get(item, "kind")
	if !kind.Exists() {
		return p.textDocumentEdit(item, where, i, versions)
	}
	if kind.Type != gjson.String || (kind.Str != "create" && kind.Str != "rename" && kind.Str != "delete") {
		return where.field("kind") + ` must be "create", "rename" or "delete", got ` + describe(kind)
	}
	op := ResourceOperation{Kind: kind.Str, Index: i}
	uriField := func(name string) (string, string) {
		v := get(item, name)
		if v.Type != gjson.String || v.Str == "" {
			return "", where.field(name) + " must be a non-empty URI string, got " + describe(v)
		}
		return v.Str, ""
	}
	var problem string
	if op.Kind == "rename" {
		if op.OldURI, problem = uriField("oldUri"); problem != "" {
			return problem
		}
		if op.NewURI, problem = uriField("newUri"); problem != "" {
			return problem
		}
		op.OldPath, op.NewPath = p.path(op.OldURI), p.path(op.NewURI)
	} else {
		if op.URI, problem = uriField("uri"); problem != "" {
			return problem
		}
		op.Path = p.path(op.URI)
	}
	if opts := get(item, "options"); opts.Exists() && opts.Type != gjson.Null {
		if !opts.IsObject() {
			return where.field("options") + " must be an object, got " + describe(opts)
		}
		for j, name := range optionNames(op.Kind) {
			v := get(opts, name)
			switch v.Type {
			case gjson.True:
				op.Options[j] = true
			case gjson.False:
			default:
				if v.Exists() && v.Type != gjson.Null {
					return where.field("options") + "." + name + " must be a boolean, got " + describe(v)
				}
			}
		}
	}
	if op.Kind == "rename" {
		p.touch(op.OldPath)
		p.touch(op.NewPath)
	} else {
		p.touch(op.Path)
	}
	p.plan.Operations = append(p.plan.Operations, op)
	return ""
}

func (p *planner) textDocumentEdit(item gjson.Result, where at, i int, versions map[string]*int64) string {
	f := fields(item, "textDocument", "edits")
	td := f[0]
	if !td.IsObject() {
		return where.field("textDocument") + " must be an object {uri, version} (a TextDocumentEdit; a resource operation has a kind), got " + describe(td)
	}
	uri := get(td, "uri")
	if uri.Type != gjson.String || uri.Str == "" {
		return where.field("textDocument.uri") + " must be a non-empty URI string, got " + describe(uri)
	}
	fe := FileEdits{URI: uri.Str, Path: p.path(uri.Str), Index: i}
	if v := get(td, "version"); v.Exists() && v.Type != gjson.Null {
		n, ok := integer(v, -maxVersion-1, maxVersion)
		if !ok {
			return where.field("textDocument.version") + " must be an integer or null, got " + describe(v)
		}
		fe.Version = &n
	}
	if !f[1].IsArray() {
		return where.field("edits") + " must be an array of TextEdit, got " + describe(f[1])
	}
	var problem string
	if fe.Edits, problem = textEditsOf(f[1], at{where.field("edits"), -1}); problem != "" {
		return problem
	}
	if fe.Version != nil && versions != nil {
		if have, ok := versions[uriKey(uri.Str, p.wsPath)]; !ok || have == nil || *have != *fe.Version {
			p.plan.Conflicts = append(p.plan.Conflicts, VersionConflict{URI: uri.Str, Path: fe.Path, Expected: *fe.Version, Have: have})
		}
	}
	p.addFile(fe)
	return ""
}

// maxSummaryOperations bounds the operations a summary names.
const maxSummaryOperations = 5

func (p *planner) summary() string {
	var parts []string
	edits := 0
	files := map[string]bool{}
	for _, f := range p.plan.Files {
		if len(f.Edits) > 0 {
			edits += len(f.Edits)
			files[uriKey(f.URI, p.wsPath)] = true
		}
	}
	if edits > 0 {
		parts = append(parts, strconv.Itoa(edits)+" "+plural(edits, "edit", "edits")+" in "+strconv.Itoa(len(files))+" "+plural(len(files), "file", "files"))
	}
	for i, op := range p.plan.Operations {
		if i == maxSummaryOperations {
			n := len(p.plan.Operations) - i
			parts = append(parts, "and "+strconv.Itoa(n)+" more "+plural(n, "operation", "operations"))
			break
		}
		switch op.Kind {
		case "rename":
			parts = append(parts, "rename "+op.OldPath+" → "+op.NewPath)
		default:
			parts = append(parts, op.Kind+" "+op.Path)
		}
	}
	if len(parts) == 0 {
		return "no changes"
	}
	return strings.Join(parts, "; ")
}

func strconvQuote(s string) string { return strconv.Quote(clip(s, 200)) }
