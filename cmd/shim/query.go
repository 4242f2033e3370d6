package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/localstdio"
)

// `lspseam query`: one query for a person or a script, with the same
// validation, budget and rendering a model gets.

func runQuery(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("query", flag.ContinueOnError)
	var common commonFlags
	common.register(fs)
	workspace := fs.String("workspace", "", "workspace root (default: the current directory)")
	format := fs.String("format", "text", "text or json")
	positionals, code, ok := parseSubcommand("query", fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "lspseam query: --format must be text or json, got %q\n", *format)
		return exitUsage
	}
	if len(positionals) != 2 {
		fmt.Fprint(stderr, "usage: lspseam query [flags] OPERATION FILE:LINE:CHARACTER (run 'lspseam query --help')\n")
		return exitUsage
	}
	toolArgs, err := toolArgsFromCLI(positionals[0], positionals[1])
	if err != nil {
		fmt.Fprintf(stderr, "lspseam query: %v\n", err)
		return exitUsage
	}
	root := *workspace
	if root == "" {
		if root, err = os.Getwd(); err != nil {
			fmt.Fprintf(stderr, "lspseam query: %v\n", err)
			return exitError
		}
	}

	// SIGINT/SIGTERM cancel the query; servers are shut down either way.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fail := func(err error) int {
		lerr := lspError(err)
		if *format == "json" {
			out, _ := json.Marshal(map[string]any{"error": lerr})
			fmt.Fprintln(stdout, string(out))
		} else {
			fmt.Fprintf(stderr, "%s: %s\n", lerr.Code, lerr.Message)
		}
		return exitError
	}
	h, err := startHost(ctx, common, stderr, false)
	if err != nil {
		var u usageError
		if errors.As(err, &u) {
			fmt.Fprintf(stderr, "lspseam query: %v\n", err)
			return exitUsage
		}
		return fail(err)
	}
	defer h.close()

	answer, err := h.toolCall(ctx, toolArgs, root, h.timeout, common.timeout > 0)
	if err != nil {
		return fail(err)
	}
	if *format == "json" {
		out, err := json.Marshal(map[string]any{"ok": map[string]any{"result": answer.result, "text": answer.rendered.Text}})
		if err != nil {
			return fail(err)
		}
		fmt.Fprintln(stdout, string(out))
	} else {
		fmt.Fprintln(stdout, answer.rendered.Text)
	}
	return exitOK
}

// toolArgsFromCLI turns `OPERATION FILE:LINE:CHARACTER` into the model's
// tool arguments, so the core validates them exactly as it validates a
// model's. The position is split at the last two colons, so paths may
// contain colons.
func toolArgsFromCLI(operation, location string) ([]byte, error) {
	i := strings.LastIndexByte(location, ':')
	j := -1
	if i > 0 {
		j = strings.LastIndexByte(location[:i], ':')
	}
	if i < 0 || j <= 0 {
		return nil, fmt.Errorf("%q: want FILE:LINE:CHARACTER (one-based), e.g. shapes/area.go:12:6", location)
	}
	line, err1 := strconv.ParseInt(location[j+1:i], 10, 64)
	char, err2 := strconv.ParseInt(location[i+1:], 10, 64)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("%q: LINE and CHARACTER must be integers (one-based), e.g. shapes/area.go:12:6", location)
	}
	return json.Marshal(map[string]any{"operation": operation, "file_path": location[:j], "line": line, "character": char})
}

// toolAnswer is one successful lsp tool call.
type toolAnswer struct {
	result       lspseam.Result   // the seam result, zero-based
	rendered     lspseam.Rendered // the text the model reads, one-based
	workspaceURI string           // what the text's paths are relative to
}

// toolCall is the lsp tool end to end: validate the model's arguments,
// query within the budget, render. timeoutFlag says whether the budget
// came from --timeout, which an LSP_TIMEOUT then names.
func (h *host) toolCall(ctx context.Context, toolArgs []byte, workspaceRoot string, timeoutMs int64, timeoutFlag bool) (toolAnswer, error) {
	if err := h.waitStarted(ctx); err != nil {
		return toolAnswer{}, err
	}
	call, err := h.core.ParseToolArgs(ctx, toolArgs)
	if err != nil {
		return toolAnswer{}, err
	}
	ws, err := localstdio.CanonicalWorkspace(workspaceRoot)
	if err != nil {
		return toolAnswer{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, time.Duration(timeoutMs)*time.Millisecond)
	defer cancel()
	// The provider renders the answer in the call that translates it (one
	// call into the core instead of two); Render below is for a provider
	// that did not.
	ctx, rendering := lspseam.WithRendering(ctx, lspseam.Limits{})
	res, err := h.service.Query(ctx, lspseam.QueryRequest{Operation: call.Operation, FilePath: call.FilePath, Position: call.Position, WorkspaceRoot: ws.Path, PositionTerms: lspseam.OneBasedTerms})
	if err != nil {
		return toolAnswer{}, explainTimeout(err, timeoutMs, budgetSource(timeoutFlag, false))
	}
	uri := res.WorkspaceURI
	if uri == "" {
		uri = ws.URI
	}
	out, ok := rendering.For(res, uri)
	if !ok {
		if out, err = h.core.Render(ctx, res, uri, lspseam.Limits{}); err != nil {
			return toolAnswer{}, err
		}
	}
	return toolAnswer{result: res, rendered: out, workspaceURI: uri}, nil
}

// Where a query's budget came from, as explainTimeout names it.
const (
	budgetFromFlag    = "set by --timeout %d; a larger --timeout gives the server more time"
	budgetFromConfig  = "the config's timeoutMs; raise it with --timeout MS or timeoutMs in the config"
	budgetFromRequest = "the request's timeoutMs; send a larger one"
)

func budgetSource(fromFlag, fromRequest bool) string {
	switch {
	case fromRequest:
		return budgetFromRequest
	case fromFlag:
		return budgetFromFlag
	}
	return budgetFromConfig
}

// explainTimeout adds the budget and how to change it to an LSP_TIMEOUT,
// so a person (or a model relaying it) knows which knob ran out: the
// provider that reports it does not know where the budget came from.
func explainTimeout(err error, budgetMs int64, source string) error {
	var lerr *lspseam.Error
	if !errors.As(err, &lerr) || lerr.Code != lspseam.CodeTimeout {
		return err
	}
	if strings.Contains(source, "%d") {
		source = fmt.Sprintf(source, budgetMs)
	}
	return lspseam.Errorf(lerr.Code, "%s (the budget was %d ms, %s)", lerr.Message, budgetMs, source)
}
