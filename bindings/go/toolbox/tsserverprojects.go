package toolbox

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// tsserver's projects. typescript-language-server's workspace/symbol sends
// tsserver's navto with the document it handled last, so it searches only
// that document's projects: the tsconfig.json (or jsconfig.json) project
// that includes it, or, for a file outside every such project, the
// inferred project of the open files outside them (with what they
// import). Measured (typescript-language-server 5.3.0, typescript 5.9.3):
// with source/ in a tsconfig.json and test/ outside it, a search after
// opening source/index.ts does not find test/helpers' functions, and one
// after opening test/other.test.ts finds only that file's.
//
// So a root of such a server is searched project by project: ask with the
// root's shallowest file, learn which files that file's project holds
// (tsserver's projectInfo, through the server's typescript.tsserverRequest
// command), open files of the root outside every project searched so far
// (at most maxLooseDocuments), and ask again with one of them, until every
// file of the root was in a searched project. What could not be reached is
// named as not searched.

// maxLooseDocuments bounds the files a root's search opens beyond its
// first: files outside the projects searched so far.
const maxLooseDocuments = 16

func (t *Toolbox) searchTsserverProjects(ctx context.Context, s lspseam.Session, req lspseam.CodeRequest, job symbolSearchJob, first lspseam.SourceFile, dir string, out *symbolSearchOutcome) error {
	covered := map[string]bool{}
	opened := map[string]lspseam.SourceFile{first.Path: first}
	var unopenable []string
	doc := first
	for round := 0; round <= maxLooseDocuments+1; round++ {
		if _, err := s.Request(ctx, "textDocument/documentSymbol", documentParams(doc.URI)); err != nil {
			return err // the search would not be of this document's projects
		}
		raw, err := s.Request(ctx, req.Method, req.Params)
		if err != nil {
			return err
		}
		names, err := tsserverProjectFiles(ctx, s, doc.Path)
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			why := joinNotices(s.Notice(), "could not list which files the projects of "+relTo(dir, doc.Path)+" hold ("+err.Error()+"): files of the project root "+job.root+" outside them may not have been searched")
			out.results = append(out.results, searchEntry(job, s, json.RawMessage(raw), relTo(dir, doc.Path), why))
			return nil
		}
		out.results = append(out.results, searchEntry(job, s, json.RawMessage(raw), relTo(dir, doc.Path), s.Notice()))
		covered[doc.Path] = true
		for _, n := range names {
			covered[filepath.Clean(n)] = true
		}
		var uncovered []string // shallowest first, as job.files
		for _, f := range job.files {
			abs := filepath.Join(dir, filepath.FromSlash(f.rel))
			if !covered[abs] && !containsString(unopenable, abs) {
				uncovered = append(uncovered, abs)
			}
		}
		if len(uncovered) == 0 {
			break
		}
		// An open file outside the projects searched so far is in a
		// project of its own: ask with it next; else open more.
		next := ""
		for _, u := range uncovered {
			if _, ok := opened[u]; ok {
				next = u
				break
			}
		}
		// Files opened together outside every project share tsserver's
		// inferred project: open as many as the bound allows at once.
		if next == "" {
			for _, u := range uncovered {
				if len(opened) > maxLooseDocuments {
					break
				}
				f, err := s.Open(ctx, u)
				if err != nil {
					if ctx.Err() != nil {
						return err
					}
					unopenable = append(unopenable, u) // too large, not UTF-8: no server can be given it
					continue
				}
				opened[f.Path] = f
				if next == "" {
					next = f.Path
				}
			}
		}
		if next == "" {
			break
		}
		doc = opened[next]
	}
	var missed []string
	for _, f := range job.files {
		if !covered[filepath.Join(dir, filepath.FromSlash(f.rel))] {
			missed = append(missed, f.rel)
		}
	}
	if len(missed) > 0 {
		reason := fmt.Sprintf("%d %s of this project root %s outside the projects searched (%s searches the tsconfig.json or jsconfig.json projects of open files, and the open files outside every project)",
			len(missed), plural(len(missed), "file", "files"), plural(len(missed), "is", "are"), job.server)
		if len(unopenable) > 0 {
			reason += fmt.Sprintf("; %d of them could not be opened (the source rules refuse them: too large, or not UTF-8), such as %s", len(unopenable), relTo(dir, unopenable[0]))
		}
		for _, m := range missed {
			if !containsString(unopenable, filepath.Join(dir, filepath.FromSlash(m))) {
				reason += fmt.Sprintf("; lspseam opens at most %d such files per root: ask with path set to one of them, such as %s, to search its project", maxLooseDocuments, m)
				break
			}
		}
		out.gap = map[string]any{"server": job.server, "languages": job.languages, "root": job.root, "files": len(missed), "reason": reason}
	}
	return nil
}

// documentParams is {textDocument: {uri}}.
func documentParams(uri string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"textDocument": map[string]string{"uri": uri}})
	return b
}

// tsserverProjectFiles lists the files of the project tsserver has for
// path, an open document (tsserver's projectInfo with its file names).
func tsserverProjectFiles(ctx context.Context, s lspseam.Session, path string) ([]string, error) {
	params, _ := json.Marshal(map[string]any{
		"command":   "typescript.tsserverRequest",
		"arguments": []any{"projectInfo", map[string]any{"file": path, "needFileNameList": true}},
	})
	raw, err := s.Request(ctx, "workspace/executeCommand", params)
	if err != nil {
		return nil, err
	}
	var resp struct {
		Success *bool  `json:"success"`
		Message string `json:"message"`
		Body    struct {
			FileNames []string `json:"fileNames"`
		} `json:"body"`
	}
	if err := json.Unmarshal(raw, &resp); err != nil || resp.Success == nil {
		return nil, fmt.Errorf("its typescript.tsserverRequest command answered projectInfo with %s", clipString(strings.TrimSpace(string(raw)), 200))
	}
	if !*resp.Success {
		return nil, fmt.Errorf("tsserver's projectInfo failed: %s", clipString(resp.Message, 200))
	}
	return resp.Body.FileNames, nil
}
