package core

import (
	"testing"
)

// FuzzParseCodeArgs feeds parseCodeArgs a model's hostile arguments: a
// well-formed envelope with a documented code; an ok call keeps its
// bounds (limit 1–500, context 0–3, depth 1–4) and names a path (or, for
// the workspace-wide reads, a query; for a next page, a cursor).
func FuzzParseCodeArgs(f *testing.F) {
	seed(f, "parseCodeArgs")
	f.Fuzz(func(t *testing.T, input []byte) {
		env := Call("parseCodeArgs", input)
		ok := checkEnvelope(t, input, env, 8*len(input)+1<<14)
		if !ok.Exists() {
			return
		}
		workspaceWide := ok.Get("tool").Str == ToolCodeDiagnostics || ok.Get("tool").Str == ToolCodeSymbols && ok.Get("query").Str != ""
		nextPage := ok.Get("cursor").Str != "" // the host holds the question
		if ok.Get("path").Str == "" && !workspaceWide && !nextPage {
			t.Fatalf("ok call without a path: %s", env)
		}
		maxLimit := int64(MaxLimit)
		if ok.Get("tool").Str == ToolRead {
			maxLimit = maxReadLimit
		}
		if l := ok.Get("limit"); l.Exists() && (l.Int() < 1 || l.Int() > maxLimit) {
			t.Fatalf("limit out of bounds: %s", env)
		}
		if c := ok.Get("context"); c.Exists() && (c.Int() < 0 || c.Int() > MaxContext) {
			t.Fatalf("context out of bounds: %s", env)
		}
		if d := ok.Get("depth"); d.Exists() && (d.Int() < 1 || d.Int() > MaxDepth) {
			t.Fatalf("depth out of bounds: %s", env)
		}
		if def, _ := codeToolByName(ok.Get("tool").Str); ok.Get("toolset").Str != def.Toolset {
			t.Fatalf("toolset: %s", env)
		}
	})
}

// FuzzCodeRequest: any input gives a well-formed envelope; an ok request
// has a method and params that are a JSON object.
func FuzzCodeRequest(f *testing.F) {
	seed(f, "codeRequest")
	f.Fuzz(func(t *testing.T, input []byte) {
		env := Call("codeRequest", input)
		ok := checkEnvelope(t, input, env, 8*len(input)+1<<14)
		if !ok.Exists() {
			return
		}
		if ok.Get("method").Str == "" || !ok.Get("params").IsObject() {
			t.Fatalf("bad request: %s", env)
		}
	})
}
