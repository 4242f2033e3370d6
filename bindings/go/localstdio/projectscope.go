package localstdio

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/core"
)

// A file in no configured project is searched only as far as the server
// has loaded. tsserver puts a file outside every tsconfig.json and
// jsconfig.json into an inferred project made of the open files outside
// them and what those import; references and implementations of its
// symbols cover only that project. Measured on sindresorhus/ky's tests
// (outside its tsconfig): one findReferences on a test helper answered 3,
// 3, then 64 after another test file was opened, then 141 after a third —
// of about 336 uses — never marked. lspseam cannot make a project for the
// user's files, so it says what the answer covers.

// projectScopeNotice is the incomplete notice for a references or
// implementation answer about path (implementations: an implementation
// answer alone, which a Vue template cannot hold): "" when the file
// belongs to a configured project, or the server is not one with
// tsserver's project model (its policy's SymbolSearch), or the server
// cannot say.
func (in *instance) projectScopeNotice(ctx context.Context, path string, implementations bool) string {
	scope := in.projectScope(ctx, path, implementations)
	return joinNotices(scope.notice, gapsNotice(scope.gaps))
}

// searchScope is what a search's scope leaves out: its incomplete notice
// ("" none) and, when all the notice says is that the server did not
// search some source files of the workspace (those its compilation
// database does not list), those files, all of them; and the component
// files it did not read (unsearchedimporters.go), which notice leaves
// out: another server may search them.
type searchScope struct {
	notice     string
	unsearched []string
	gaps       []componentGap
}

// projectScope is projectScopeNotice's scope.
func (in *instance) projectScope(ctx context.Context, path string, implementations bool) searchScope {
	if exts := in.neg.Readiness.SearchesOneFile; len(exts) > 0 {
		return searchScope{notice: in.oneFileNotice(ctx, path, exts)}
	}
	if needs := in.neg.Readiness.SearchNeeds; len(needs) > 0 {
		return in.searchNeedsScope(ctx, path, needs)
	}
	if in.neg.Readiness.ProjectInclude == core.ProjectIncludePyright {
		return searchScope{notice: in.pyrightIncludeNotice(ctx)}
	}
	if in.neg.Readiness.SymbolSearch != core.SymbolSearchTsserver {
		return searchScope{}
	}
	importers, gaps := in.unsearchedImporters(ctx, !implementations)
	return searchScope{notice: joinNotices(in.tsserverProjectNotice(ctx, path), importers), gaps: gaps}
}

// indexScope is projectScope's part for a symbol search from path: what
// the server's index of the project leaves out (a build description it
// needs, or files the one it found does not list).
func (in *instance) indexScope(ctx context.Context, path string) searchScope {
	if needs := in.neg.Readiness.SearchNeeds; len(needs) > 0 {
		return in.searchNeedsScope(ctx, path, needs)
	}
	return searchScope{}
}

// joinNotices is the non-empty notices, one after the other.
func joinNotices(notices ...string) string {
	var kept []string
	for _, n := range notices {
		if n != "" {
			kept = append(kept, n)
		}
	}
	return strings.Join(kept, "; ")
}

// tsserverProjectNotice is projectScopeNotice's for tsserver: the files of
// the workspace outside the project that holds path.
func (in *instance) tsserverProjectNotice(ctx context.Context, path string) string {
	params, _ := json.Marshal(map[string]any{
		"command":   "typescript.tsserverRequest",
		"arguments": []any{"projectInfo", map[string]any{"file": path, "needFileNameList": true}},
	})
	var resp struct {
		Success bool `json:"success"`
		Body    struct {
			ConfigFileName string   `json:"configFileName"`
			FileNames      []string `json:"fileNames"`
		} `json:"body"`
	}
	var raw json.RawMessage
	if err := in.call(ctx, "workspace/executeCommand", json.RawMessage(params), &raw); err != nil || json.Unmarshal(raw, &resp) != nil || !resp.Success {
		in.log.Debug("projectInfo not answered; the answer's scope is not checked", "path", path, "err", err, "answer", string(raw))
		return ""
	}
	if configuredProject(resp.Body.ConfigFileName) {
		return in.outsideProjectNotice(ctx, path, resp.Body.ConfigFileName, resp.Body.FileNames)
	}
	return fmt.Sprintf("%s is in no tsconfig.json or jsconfig.json project, so language server %q searched only the files it has loaded (the files open outside every project and what they import), not the whole workspace; add the file to a tsconfig.json's include (or files) to have every use found", in.wsRel(path), in.server.ID)
}

// configuredProject says whether tsserver's projectInfo configFileName
// names a config file (an inferred project's is a made-up path such as
// /dev/null/inferredProject1*).
func configuredProject(configFileName string) bool {
	base := strings.ToLower(filepath.Base(configFileName))
	return strings.HasSuffix(base, ".json") && !strings.Contains(configFileName, "inferredProject")
}

// scopedOperation says whether an operation's answer depends on which
// files the server has loaded (a search), rather than on the file itself.
func scopedOperation(op lspseam.Operation) bool {
	return op == lspseam.OpReferences || op == lspseam.OpImplementation
}

// A server that indexes only the files a build description lists has no
// index without one, and then searches only the files it has opened.
// clangd with compile_flags.txt alone (or nothing): references of a
// header's function answered 1 location where the project has 17 (sds on
// antirez/sds), and code_delete, trusting that, deleted a function used 16
// times. The policy's SearchNeeds names the files one of which must be in
// the file's directory or a parent (as clangd looks for its compilation
// database); without any, the answer says what it covers and how to fix
// it. A --compile-commands-dir in the server's arguments points clangd
// elsewhere: lspseam does not second-guess it.

// searchNeedsScope is the scope of a search from path when none of needs
// is found above it (the notice alone), or when the one found leaves
// source files of the workspace out (compiledb.go: the notice and those
// files); none when it covers them.
func (in *instance) searchNeedsScope(ctx context.Context, path string, needs []string) searchScope {
	for _, a := range in.server.Config.Args {
		if strings.HasPrefix(a, "--compile-commands-dir") {
			return searchScope{}
		}
	}
	if db, dir, ok := findAbove(path, needs); ok {
		return in.compileDBScope(ctx, db, dir)
	}
	notice := fmt.Sprintf("language server %q found no %s for %s (in its directory or a parent), so it has no index of the project and searched only the files it has opened", in.server.ID, strings.Join(needs, " or "), in.wsRel(path))
	if h := in.neg.Readiness.SearchNeedsHint; h != "" {
		notice += "; " + h
	}
	return searchScope{notice: notice}
}

// foundAbove says whether one of names (slash paths) is a regular file in
// path's directory or one of its parents, up to the filesystem's root (as
// servers look for their project files: clangd's compilation database,
// tsserver's tsconfig.json).
func foundAbove(path string, names []string) bool {
	_, _, ok := findAbove(path, names)
	return ok
}

// findAbove is the first of names (slash paths) that is a regular file in
// path's directory, else in the nearest parent holding one, as
// foundAbove looks for it, and that directory.
func findAbove(path string, names []string) (file, dir string, found bool) {
	for d := filepath.Dir(path); ; {
		for _, n := range names {
			p := filepath.Join(d, filepath.FromSlash(n))
			if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
				return p, d, true
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "", false
		}
		d = parent
	}
}

// The other way round: the file is in a configured project, and files of
// the workspace outside it are not searched unless a project holding
// them is loaded. sindresorhus/ky's tsconfig.json includes source/ only:
// references of getBodySize from source/ answered 2 locations in 1 file
// of 27 in 2 (test/ held the rest), and a rename and a delete, trusting
// them, broke test/body-size.ts while saying no other file used it. The
// project's file list (projectInfo) against the workspace's files of the
// same family (TypeScript or JavaScript) says whether such files exist.
// The whole workspace, not the instance's project root: in a monorepo the
// root is the nested package (colinhacks/zod's packages/zod, which has its
// own tsconfig.json and package.json), and the files that import it from
// the workspace's other projects (zod's scripts/, in the root
// tsconfig.json's project) lie outside that root — a rename of `version`
// broke scripts/check-versions.ts with no notice while only the root was
// compared. Searching those projects too would mean loading each of them
// into this server (tsserver loads a project when one of its files is
// opened); in zod that is the root project of every .ts file in the
// repository, for every search, so lspseam says what it did not search.

// maxScopeWalk bounds the files the walk below looks at.
const maxScopeWalk = 20000

// outsideProjectNotice is the incomplete notice for a search from path,
// in the project of config (whose files are names), when files of the
// workspace like path's are outside that project ("" when none is).
func (in *instance) outsideProjectNotice(ctx context.Context, path, config string, names []string) string {
	family := scriptFamily(path)
	if family == "" {
		return ""
	}
	inProject := make(map[string]bool, len(names))
	for _, n := range names {
		inProject[filepath.Clean(n)] = true
	}
	key := "tsserver\x00" + config + "\x00" + family + "\x00" + strconv.Itoa(len(names))
	outside := in.scopeWalks.files(ctx, in.ws.Path, key, func(p string) bool {
		return scriptFamily(p) == family && !inProject[p]
	})
	if len(outside) > 0 {
		pkg := packageName(path, in.ws.Path)
		importers := outside[:0:0]
		for _, f := range outside {
			if in.imports.mayImport(f, path, pkg) {
				importers = append(importers, f)
			}
		}
		outside = importers
	}
	if len(outside) == 0 {
		return ""
	}
	return fmt.Sprintf("%s outside %s's project and may import this file (such as %s): language server %q searches them only while a project holding them is loaded, so uses there may be missing; search from one of those files too (its own project is searched then), or add them to this project's include (or files), to have every use found", filesOfWorkspace(len(outside), ""), in.wsRel(config), in.wsRel(outside[0]), in.server.ID)
}

// filesOfRoot counts n files of the instance's root in a notice: "3 files
// of the workspace are", "1 Python file of the project root web is".
func (in *instance) filesOfRoot(n int, kind string) string {
	files, are := "files", "are"
	if n == 1 {
		files, are = "file", "is"
	}
	if kind != "" {
		files = kind + " " + files
	}
	where := "the workspace"
	if in.root.Path != in.ws.Path {
		where = "the project root " + in.wsRel(in.root.Path)
	}
	return strconv.Itoa(n) + " " + files + " of " + where + " " + are
}

// filesOfWorkspace counts n files of the workspace in a notice: "3 files
// of the workspace are", "1 Svelte file of the workspace is".
func filesOfWorkspace(n int, kind string) string {
	files, are := "files", "are"
	if n == 1 {
		files, are = "file", "is"
	}
	if kind != "" {
		files = kind + " " + files
	}
	return strconv.Itoa(n) + " " + files + " of the workspace " + are
}

// wsRel is path relative to the workspace, with slashes, as notices name
// files (path itself when it is not under it).
func (in *instance) wsRel(path string) string {
	rel, err := filepath.Rel(in.ws.Path, path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(rel)
}

// scopeWalks remembers the last walk of a project root for a few seconds:
// a change's dependents ask for the references of several declarations
// in a row, each of which would walk the root again.
type scopeWalks struct {
	mu       sync.Mutex
	key      string
	at       time.Time
	result   []string
	complete bool // the walk looked at every file under the root
}

// scopeWalkTTL is how long a walk is reused: a file created since is seen
// by the next search after it.
const scopeWalkTTL = 5 * time.Second

// files is the regular files under root (the census's directories left
// out, at most maxScopeWalk looked at) that match says to take, sorted;
// the last walk for the same root and key is reused for scopeWalkTTL.
func (w *scopeWalks) files(ctx context.Context, root, key string, match func(path string) bool) []string {
	out, _ := w.walk(ctx, root, key, match)
	return out
}

// walk is files', and whether the walk looked at every file under root
// (not stopped by maxScopeWalk or the context).
func (w *scopeWalks) walk(ctx context.Context, root, key string, match func(path string) bool) ([]string, bool) {
	key = root + "\x00" + key
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.key == key && time.Since(w.at) < scopeWalkTTL {
		return w.result, w.complete
	}
	var out []string
	seen, complete := 0, true
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil || seen >= maxScopeWalk {
			complete = false
			return filepath.SkipAll
		}
		if err != nil {
			return nil // an unreadable directory: what the server cannot read either
		}
		if d.IsDir() {
			if p != root && CensusSkipsDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		seen++
		if d.Type().IsRegular() && match(p) {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	if ctx.Err() == nil {
		w.key, w.at, w.result, w.complete = key, time.Now(), out, complete
	}
	return out, complete && ctx.Err() == nil
}

// scriptFamily is "ts" for a TypeScript source (not a declaration file),
// "js" for a JavaScript one, else "": a TypeScript project without allowJs
// holds no JavaScript, which is not a gap in a search from TypeScript.
func scriptFamily(path string) string {
	base := strings.ToLower(filepath.Base(path))
	switch {
	case strings.HasSuffix(base, ".d.ts"), strings.HasSuffix(base, ".d.mts"), strings.HasSuffix(base, ".d.cts"):
		return ""
	case strings.HasSuffix(base, ".ts"), strings.HasSuffix(base, ".tsx"), strings.HasSuffix(base, ".mts"), strings.HasSuffix(base, ".cts"):
		return "ts"
	case strings.HasSuffix(base, ".js"), strings.HasSuffix(base, ".jsx"), strings.HasSuffix(base, ".mjs"), strings.HasSuffix(base, ".cjs"):
		return "js"
	}
	return ""
}
