package toolbox

import (
	"encoding/json"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// A workspace symbol search's unit of work: one server and project root
// (symbolSearchJob), and what it gave (symbolSearchOutcome).

// symbolSearchJob is one server and project root to ask.
type symbolSearchJob struct {
	server    string
	languages []string
	root      string       // relative to the workspace ("." itself)
	files     []sourceFile // the root's files, shallowest first
}

// symbolSearchOutcome is what one job gave: codeSymbols' results entries,
// and a notSearched entry when it could not search (all or part).
type symbolSearchOutcome struct {
	results []map[string]any
	gap     map[string]any
}

// searchEntry is one results entry of codeSymbols' merged search.
func searchEntry(job symbolSearchJob, s lspseam.Session, raw json.RawMessage, document, incomplete string) map[string]any {
	e := map[string]any{"server": job.server, "languages": job.languages, "root": job.root, "result": raw}
	if c := s.Policy().SymbolCap; c > 0 {
		e["cap"] = c
	}
	if document != "" {
		e["document"], e["followsDocument"] = document, true
	}
	if incomplete != "" {
		e["incomplete"] = incomplete
	}
	return e
}
