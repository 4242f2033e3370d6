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
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/localstdio"
	"github.com/lspseam/lspseam/bindings/go/toolbox"
	"github.com/lspseam/lspseam/core"
)

// `lspseam tools` prints the tools' definitions; `lspseam call TOOL JSON`
// runs any tool as a model would, with the same arguments, budget and
// answer.

func runTools(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tools", flag.ContinueOnError)
	toolsets := fs.String("tools", "", "comma-separated toolsets, or all (default: all)")
	format := fs.String("format", "text", "text or json")
	logLevel := fs.String("log-level", "warn", "debug, info, warn or error")
	positionals, code, ok := parseSubcommand("tools", fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(positionals) > 0 || (*format != "text" && *format != "json") {
		fmt.Fprint(stderr, "usage: lspseam tools [--tools LIST] [--format text|json] (run 'lspseam tools --help')\n")
		return exitUsage
	}
	log, err := newLogger(*logLevel, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "lspseam tools: %v\n", err)
		return exitUsage
	}
	ctx := context.Background()
	c, err := lspseam.NewCore(ctx, lazyCoreOptions(log)...)
	if err != nil {
		lerr := lspError(err)
		fmt.Fprintf(stderr, "%s: %s\n", lerr.Code, lerr.Message)
		return exitError
	}
	defer c.Close(ctx)
	defs, err := c.ToolDefinitions(ctx, toolsetList(*toolsets))
	if err != nil {
		lerr := lspError(err)
		fmt.Fprintf(stderr, "lspseam tools: %s: %s\n", lerr.Code, lerr.Message)
		return exitUsage
	}
	if *format == "json" {
		out, _ := json.MarshalIndent(defs, "", "  ")
		fmt.Fprintln(stdout, string(out))
		return exitOK
	}
	for i, d := range defs {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintf(stdout, "%s (toolset %s)\n%s\n", d.Name, d.Toolset, indent(d.Description))
		var schema struct {
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		if json.Unmarshal(d.InputSchema, &schema) == nil {
			names := make([]string, 0, len(schema.Properties))
			for name := range schema.Properties {
				names = append(names, name)
			}
			fmt.Fprintf(stdout, "  arguments: %s (required: %s)\n", strings.Join(sortedStrings(names), ", "), strings.Join(schema.Required, ", "))
		}
	}
	return exitOK
}

func runCall(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("call", flag.ContinueOnError)
	var common commonFlags
	common.register(fs)
	workspace := fs.String("workspace", "", "workspace root (default: the current directory)")
	format := fs.String("format", "text", "text or json")
	approval := approvalFlag(fs)
	pages := fs.Int("pages", 1, "pages of a cut answer to show, following its cursor in this process (1 to 100)")
	positionals, code, ok := parseSubcommand("call", fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "lspseam call: --format must be text or json, got %q\n", *format)
		return exitUsage
	}
	if *pages < 1 || *pages > maxCallPages {
		fmt.Fprintf(stderr, "lspseam call: --pages must be from 1 to %d, got %d\n", maxCallPages, *pages)
		return exitUsage
	}
	if len(positionals) < 1 || len(positionals) > 2 {
		fmt.Fprint(stderr, "usage: lspseam call [flags] TOOL ['JSON_ARGUMENTS'] (run 'lspseam call --help'; 'lspseam tools' lists the tools)\n")
		return exitUsage
	}
	toolArgs := "{}"
	if len(positionals) == 2 {
		toolArgs = positionals[1]
	}
	if !json.Valid([]byte(toolArgs)) {
		fmt.Fprintf(stderr, "lspseam call: the arguments must be one JSON object, e.g. '{\"path\":\"main.go\"}'; got %q\n", clipArg(toolArgs))
		return exitUsage
	}
	if err := checkApprovalFlag("call", *approval); err != nil {
		fmt.Fprintf(stderr, "lspseam call: %v\n", err)
		return exitUsage
	}
	root := *workspace
	if root == "" {
		var err error
		if root, err = os.Getwd(); err != nil {
			fmt.Fprintf(stderr, "lspseam call: %v\n", err)
			return exitError
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	h, err := startHost(ctx, common, stderr, false)
	if err != nil {
		var u usageError
		if errors.As(err, &u) {
			fmt.Fprintf(stderr, "lspseam call: %v\n", err)
			return exitUsage
		}
		lerr := lspError(err)
		fmt.Fprintf(stderr, "%s: %s\n", lerr.Code, lerr.Message)
		return exitError
	}
	defer h.close()
	if err := setApproval(h.toolbox, h.approvalMode(*approval, false)); err != nil {
		fmt.Fprintf(stderr, "lspseam call: --approval: %s\n", lspError(err).Message)
		return exitUsage
	}
	interactive := *format == "text" && isTerminal(os.Stdin)
	// A previewId does not outlive this process: say what does work.
	h.toolbox.SetApplyHint(func(tool, _ string) string {
		if interactive {
			return "To apply it, answer y below (a previewId ends with this process; the same lspseam call " + tool + " with --approval auto applies without asking)."
		}
		return "To apply it from the command line, run the same lspseam call " + tool + " with --approval auto (a previewId ends with this process; on a terminal, lspseam call asks instead)."
	})
	// Nor do the servers: waiting out their reports is this call's only
	// chance to see them.
	h.toolbox.SetReportWait(time.Duration(h.timeout) * time.Millisecond)
	// Nor does a cursor, on a terminal or not: --pages follows it here.
	remaining := *pages
	h.toolbox.SetPageHint(func(tool, _ string) string {
		if remaining > 1 {
			return "" // the next page follows
		}
		return "To see more from the command line, run the same lspseam call " + tool + " with a larger \"limit\" or with --pages " + strconv.Itoa(*pages+1) + " (or more), which follows the cursor in one process (a cursor ends with its process; lspseam mcp and serve page with it)."
	})
	res := h.callTool(ctx, h.toolbox, positionals[0], json.RawMessage(toolArgs), root, budgetSource(common.timeout > 0, false), h.timeout)
	// A preview on a terminal: ask, and apply it in this process (a
	// previewId does not outlive it).
	// A conflict on applying (a file changed while the user looked) comes
	// with a fresh preview: that one is asked about too, a few times.
	for asked := 0; asked < maxTerminalAsks && interactive; asked++ {
		id := askablePreviewID(res)
		if id == "" {
			break
		}
		if res.IsError {
			fmt.Fprintln(stderr, res.Text)
		} else {
			fmt.Fprintln(stdout, res.Text)
		}
		fmt.Fprint(stderr, "Apply this change? [y/N] ")
		var reply string
		fmt.Fscanln(os.Stdin, &reply)
		if reply != "y" && reply != "Y" && reply != "yes" {
			fmt.Fprintln(stderr, "Not applied.")
			return exitOK
		}
		var m map[string]any
		json.Unmarshal([]byte(toolArgs), &m)
		m["previewId"] = id
		again, _ := json.Marshal(m)
		res = h.callTool(ctx, h.toolbox, positionals[0], again, root, budgetSource(common.timeout > 0, false), h.timeout)
	}
	// Each further page asked with the last one's cursor, in this process.
	for remaining > 1 && !res.IsError {
		cursor := cursorOf(res)
		if cursor == "" {
			break
		}
		printResult(stdout, res, *format)
		remaining-- // the page asked now is the last when 1 remains
		next, _ := json.Marshal(map[string]string{"cursor": cursor})
		res = h.callTool(ctx, h.toolbox, positionals[0], next, root, budgetSource(common.timeout > 0, false), h.timeout)
	}
	res = explainNotObserved(res)
	if res.IsError && *format != "json" {
		fmt.Fprintln(stderr, res.Text)
	} else {
		printResult(stdout, res, *format)
	}
	if res.IsError {
		return exitError
	}
	return exitOK
}

// callTool runs one tool within a budget of timeoutMs, naming the budget's
// source when it runs out. The workspace is made canonical first, so a
// bad root fails before any server starts.
func (h *host) callTool(ctx context.Context, tb *toolbox.Toolbox, name string, args json.RawMessage, workspaceRoot, budget string, timeoutMs int64) toolbox.ToolResult {
	if err := h.waitStarted(ctx); err != nil {
		return toolbox.ErrorResult(err)
	}
	if strings.TrimSpace(workspaceRoot) != "" {
		ws, err := localstdio.CanonicalWorkspace(workspaceRoot)
		if err != nil {
			return toolbox.ErrorResult(err)
		}
		workspaceRoot = ws.Path
	}
	ctx, cancel := context.WithTimeout(ctx, time.Duration(timeoutMs)*time.Millisecond)
	defer cancel()
	res := tb.Call(ctx, name, args, workspaceRoot)
	if lerr := resultError(res, lspseam.CodeTimeout); lerr != nil {
		return toolbox.ErrorResult(explainTimeout(lerr, timeoutMs, budget))
	}
	return res
}

// resultError is res's structured error when res is an error answer of
// code, else nil.
func resultError(res toolbox.ToolResult, code lspseam.Code) *lspseam.Error {
	if !res.IsError || !strings.HasPrefix(res.Text, string(code)+":") {
		return nil
	}
	var env struct {
		Error lspseam.Error `json:"error"`
	}
	if json.Unmarshal(res.Structured, &env) != nil {
		return nil
	}
	return &env.Error
}

// explainNotObserved adds to an FS_NOT_OBSERVED answer of `lspseam
// call` what works instead of "read it first": every call is a session of
// its own, so no call of the command line has read the file.
func explainNotObserved(res toolbox.ToolResult) toolbox.ToolResult {
	lerr := resultError(res, lspseam.CodeFSNotObserved)
	if lerr == nil {
		return res
	}
	return toolbox.ErrorResult(lspseam.Errorf(lerr.Code, "%s. From the command line every lspseam call is a session of its own, so none has read the file: lspseam call can create files but not update them; update them through lspseam serve or lspseam mcp, whose session reads, then edits", strings.TrimSuffix(lerr.Message, ".")))
}

// toolsetList is a --tools value's toolsets; "all" names every one (the
// tools subcommand's default, as its help says).
func toolsetList(s string) []string {
	list := splitList(s)
	if len(list) == 1 && list[0] == "all" {
		return append([]string(nil), core.Toolsets...)
	}
	return list
}

func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if p := strings.TrimSpace(part); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}

func sortedStrings(s []string) []string {
	sort.Strings(s)
	return s
}

func clipArg(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// maxCallPages bounds --pages: a page is at most a tool's limit of
// results, and every page is printed.
const maxCallPages = 100

// printResult prints an answer: its text, or with --format json its
// structured answer on a line of its own.
func printResult(stdout io.Writer, res toolbox.ToolResult, format string) {
	if format == "json" {
		fmt.Fprintln(stdout, string(res.Structured))
		return
	}
	fmt.Fprintln(stdout, res.Text)
}

// cursorOf is the cursor of a cut answer ("" when nothing follows).
func cursorOf(res toolbox.ToolResult) string {
	var v struct {
		Cursor string `json:"cursor"`
	}
	json.Unmarshal(res.Structured, &v)
	return v.Cursor
}

// maxTerminalAsks bounds the previews lspseam call asks about on a
// terminal: the first, and the fresh ones conflicts come with.
const maxTerminalAsks = 3

// previewIDOf is the previewId of a successful preview answer.
func previewIDOf(res toolbox.ToolResult) string {
	if res.IsError {
		return ""
	}
	var v struct {
		PreviewID string `json:"previewId"`
	}
	json.Unmarshal(res.Structured, &v)
	return v.PreviewID
}

// askablePreviewID is the previewId a terminal asks about: a preview
// answer's, or that of the fresh preview an LSP_CONFLICT comes with.
func askablePreviewID(res toolbox.ToolResult) string {
	if !res.IsError {
		return previewIDOf(res)
	}
	var v struct {
		Preview struct {
			PreviewID string `json:"previewId"`
		} `json:"preview"`
	}
	json.Unmarshal(res.Structured, &v)
	return v.Preview.PreviewID
}
