package main

import (
	"context"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/localstdio"
	"github.com/lspseam/lspseam/core"
)

// An MCP session with --workspace starts the language server of the
// workspace's main language (the census's language with the most files,
// when its server is installed) as soon as the servers are registered,
// not at the first call that needs it: a language server's start is
// seconds of loading (gopls on cobra: 3–5 s) that a model's first turn
// can hide, and that a first call otherwise waits for in full. The peers
// start theirs with the process. Only with --workspace: without it the
// workspace is the client's root, known at the first call, or the
// current directory, which may be one lspseam refuses. Nothing is opened
// and nothing is asked: the server starts (initialize) and the turn ends;
// its idle timer stops it as any server's.

// startMainServer starts, in the background, the server of the
// workspace's main language (above). The first call that needs it waits
// only for what is left of its start, in the queue of its workspace.
func (t *mcpTool) startMainServer(ctx context.Context) {
	if t.host == nil || t.workspace == "" || t.languages == nil || !offersLanguageTools(t.toolsets) {
		return
	}
	main, ok := mainLanguage(t.languages.languages)
	if !ok {
		return
	}
	h, workspace := t.host, t.languages.workspace
	go func() {
		ctx, cancel := context.WithTimeout(ctx, time.Duration(h.timeout)*time.Millisecond)
		defer cancel()
		if err := h.waitStarted(ctx); err != nil {
			return // every call answers why
		}
		began := time.Now()
		err := h.service.Session(ctx, main.Example, workspace, func(context.Context, lspseam.Session) error { return nil })
		if err != nil {
			h.log.Info("the main language's server was not started ahead of the first call", "language", main.Name, "file", main.Example, "reason", err)
			return
		}
		h.log.Info("started the main language's server ahead of the first call", "language", main.Name, "file", main.Example, "elapsed", time.Since(began).Round(time.Millisecond))
	}()
}

// mainLanguage is the census's language with the most files when a
// server of the config serves it.
func mainLanguage(languages []localstdio.LanguageServing) (localstdio.LanguageServing, bool) {
	if len(languages) == 0 || languages[0].State != localstdio.ServingFound || languages[0].Example == "" {
		return localstdio.LanguageServing{}, false
	}
	return languages[0], true
}

// offersLanguageTools reports whether toolsets offer a tool that asks a
// language server (every toolset but fs).
func offersLanguageTools(toolsets []string) bool {
	for _, ts := range toolsets {
		if ts != core.ToolsetFS {
			return true
		}
	}
	return false
}
