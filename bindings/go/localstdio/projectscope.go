package localstdio

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

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
// implementation answer about path: "" when the file belongs to a
// configured project, or the server is not one with tsserver's project
// model (its policy's SymbolSearch), or the server cannot say.
func (in *instance) projectScopeNotice(ctx context.Context, path string) string {
	if needs := in.neg.Readiness.SearchNeeds; len(needs) > 0 {
		return in.searchNeedsNotice(path, needs)
	}
	if in.neg.Readiness.SymbolSearch != core.SymbolSearchTsserver {
		return ""
	}
	params, _ := json.Marshal(map[string]any{
		"command":   "typescript.tsserverRequest",
		"arguments": []any{"projectInfo", map[string]any{"file": path, "needFileNameList": true}},
	})
	var resp struct {
		Success bool `json:"success"`
		Body    struct {
			ConfigFileName string `json:"configFileName"`
		} `json:"body"`
	}
	var raw json.RawMessage
	if err := in.call(ctx, "workspace/executeCommand", json.RawMessage(params), &raw); err != nil || json.Unmarshal(raw, &resp) != nil || !resp.Success {
		in.log.Debug("projectInfo not answered; the answer's scope is not checked", "path", path, "err", err, "answer", string(raw))
		return ""
	}
	if configuredProject(resp.Body.ConfigFileName) {
		return ""
	}
	rel, err := filepath.Rel(in.ws.Path, path)
	if err != nil {
		rel = path
	}
	return fmt.Sprintf("%s is in no tsconfig.json or jsconfig.json project, so language server %q searched only the files it has loaded (the files open outside every project and what they import), not the whole workspace; add the file to a tsconfig.json's include (or files) to have every use found", filepath.ToSlash(rel), in.server.ID)
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

// searchNeedsNotice is the incomplete notice for a search from path when
// none of needs is found above it ("" when one is).
func (in *instance) searchNeedsNotice(path string, needs []string) string {
	for _, a := range in.server.Config.Args {
		if strings.HasPrefix(a, "--compile-commands-dir") {
			return ""
		}
	}
	for dir := filepath.Dir(path); ; {
		for _, n := range needs {
			if info, err := os.Stat(filepath.Join(dir, filepath.FromSlash(n))); err == nil && info.Mode().IsRegular() {
				return ""
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	rel, err := filepath.Rel(in.ws.Path, path)
	if err != nil {
		rel = path
	}
	notice := fmt.Sprintf("language server %q found no %s for %s (in its directory or a parent), so it has no index of the project and searched only the files it has opened", in.server.ID, strings.Join(needs, " or "), filepath.ToSlash(rel))
	if h := in.neg.Readiness.SearchNeedsHint; h != "" {
		notice += "; " + h
	}
	return notice
}
