package core

//go:generate go run ../cmd/contractgen

import "github.com/tidwall/gjson"

// The ABI's contract in one place. Every method of lspseam_call has one
// entry in ABIMethods: its name, what it takes and answers (as docs/abi.md
// documents them and as the npm package types them) and the handler Call
// dispatches to. cmd/contractgen (`go generate ./core`, run by `make wasm`)
// writes from the table docs/abi.md's method table and the npm package's
// AbiMethods map (bindings/js/src/types.ts), between their "generated"
// markers; its test fails when either is stale. The Go binding's typed
// wrappers (bindings/go/methods.go) are checked against the table by
// TestTypedMethodsCoverTheABI: one exported method of *Core per entry.

// ABIMethod is one method of the module's ABI.
type ABIMethod struct {
	Name string
	// Input and Output are docs/abi.md's description of the method's input
	// and ok value (Markdown).
	Input, Output string
	// TSInput and TSOutput are the TypeScript types of the input and the
	// ok value in the npm package; TSDoc, when set, their doc comment.
	TSInput, TSOutput, TSDoc string
	// AnyInput: the method takes any JSON value and names what is wrong
	// with it itself; the others take an object.
	AnyInput bool
	run      func(in gjson.Result) (jsonAppender, *Error)
}

// ABIMethods lists every method Call understands, in documentation order.
var ABIMethods = []ABIMethod{
	{
		Name: "toolDefinition", run: toolDefinitionCall,
		Input:   "`{}`",
		Output:  "`{name, description, inputSchema}`",
		TSInput: "Record<string, never>", TSOutput: "ToolDefinition",
	},
	{
		Name: "parseToolArgs", run: parseToolArgsCall, AnyInput: true,
		Input:   "the model's raw arguments",
		Output:  "`{operation, filePath, position:{line, character}}`, zero-based",
		TSInput: "unknown", TSOutput: "ToolCall",
	},
	{
		Name: "normalizeProvider", run: normalizeProviderCall,
		Input:   "`{id, extensionToLanguage}`",
		Output:  "the same, extensions lowercase with a leading dot",
		TSInput: "NormalizeProviderInput", TSOutput: "ProviderSpec",
	},
	{
		Name: "checkProviders", run: checkProvidersCall,
		Input:   "`{providers:[{id, extensionToLanguage}]}`",
		Output:  "`{providers}` normalized; `LSP_CONFLICT` on a shared id or extension",
		TSInput: "CheckProvidersInput", TSOutput: "CheckProvidersOutput",
	},
	{
		Name: "selectProvider", run: selectProviderCall,
		Input:   "`{filePath, providers}`",
		Output:  "`{id, languageId}`; `LSP_UNAVAILABLE` names the configured extensions",
		TSInput: "SelectProviderInput", TSOutput: "Selection",
	},
	{
		Name: "initializeParams", run: initializeParamsCall,
		Input:   "`{workspaceUri, initializationOptions?}`",
		Output:  "LSP `InitializeParams` (`processId: null`, `rootUri` and one workspace folder, the capabilities below)",
		TSInput: "InitializeParamsInput", TSOutput: "InitializeParams",
	},
	{
		Name: "negotiate", run: negotiateCall,
		Input:   "`{initializeResult, serverCommand?}`",
		Output:  "`{positionEncoding, transientOpen, changeSync, save, operations:{goToDefinition, findReferences, goToImplementation, hover}, methods:{LSP method: bool} (the catalog's twelve methods), readiness:{server, settleMs, readyLog?, expectSignal, changeSettleMs?, ignoresWatchedFiles?, openNewDirectories?, diagnosticsQuietMs?, diagnosticsCommand?, searchNeeds?, searchNeedsHint?, searchesOneFile?, moduleSearch?, projectInclude?, concurrentRequests?, headersFromDisk?, reportsUnopened?, signalNeeds?, cleanConfirmedBy?, reportsOnlySynced?, reportsSettleWithProgress?, failureLog?}}`",
		TSInput: "NegotiateInput", TSOutput: "Negotiation",
	},
	{
		Name: "checkOperation", run: checkOperationCall,
		Input:   "`{negotiation, operation}`",
		Output:  "`{}`, or `LSP_UNSUPPORTED_SYNC` / `LSP_UNSUPPORTED_OPERATION`",
		TSInput: "CheckOperationInput", TSOutput: "Record<string, never>",
	},
	{
		Name: "request", run: requestCall,
		Input:   "`{operation, uri, position, text?, line?, positionTerms?}`: `positionTerms` the coordinates a position error restates, `\"zero-based\"` (default: the numbers as sent) or `\"one-based\"` (the position came from the `lsp` tool's one-based arguments)",
		Output:  "`{method, params, subject?}` (references with `context.includeDeclaration: true`); with the document's `text`, the position is checked against it first (`LSP_INVALID_ARGUMENT`, in `positionTerms`' coordinates) and `subject` names what is at it; `line` instead of `text` is the text of the line at `position.line` (without its terminator), all the check needs when the host found the line (past the end, send `text`: the error quotes the last line)",
		TSInput: "RequestInput", TSOutput: "LspRequest",
	},
	{
		Name: "translate", run: translateCall,
		Input:   "`{operation, result}` (`result` absent = missing)",
		Output:  "`{kind:\"locations\", locations:[{uri, range}]}` or `{kind:\"hover\", hover:{contents, range?}|null}`",
		TSInput: "TranslateInput", TSOutput: "LspQueryResult",
	},
	{
		Name: "render", run: renderMethod,
		Input:   "`{result, workspaceUri, maxLocations?, maxResultChars?}` (`result` may carry `workspaceUri`, `incomplete` and `subject`)",
		Output:  "`{text, shown, omitted, truncated}`; a `subject` is the first line and an `incomplete` result ends with a `(possibly incomplete: …)` line, both inside the limit",
		TSInput: "RenderInput", TSOutput: "Rendered",
	},
	{
		Name: "translateRender", run: translateRenderCall,
		Input:   "`{operation, result, workspaceUri, subject?, incomplete?, maxLocations?, maxResultChars?}`",
		Output:  "`{result, rendered}`: `translate`'s result with `workspaceUri` (for locations), `subject` and `incomplete` set, and `render`'s answer for it, the same bytes as the two calls give; the lsp tool's path uses it so a query costs one call into the module after the server answers, not two",
		TSInput: "TranslateRenderInput", TSOutput: "TranslatedRendered",
	},
	{
		Name: "present", run: presentCall, AnyInput: true,
		Input:   "the model's raw arguments",
		Output:  "`{card:\"generic\", kind:\"search\", title, locations:[{path, line}]}`",
		TSInput: "unknown", TSOutput: "PresentationCard",
	},
	{
		Name: "serverRequest", run: serverRequestCall,
		Input:   "`{method, params, configuration?, workspaceUri?}`",
		Output:  "`{result}` or `{error:{code, message}}` to send back to the server",
		TSInput: "ServerRequestInput", TSOutput: "ServerReply",
	},
	{
		Name: "validateConfig", run: validateConfigCall, AnyInput: true,
		Input:   "`{servers:{ID:{…}}, timeoutMs?, maxRequestBytes?, approval?}`",
		Output:  "the config with every default filled in, servers sorted by id",
		TSInput: "unknown", TSOutput: "Config",
		TSDoc: "Input is `ConfigInput` when valid; anything else is answered with LSP_CONFIG_INVALID.",
	},
	{
		Name: "fileWatchers", run: fileWatchersCall,
		Input:   "`{method, params}` of a `client/registerCapability` or `client/unregisterCapability` request",
		Output:  "`{register:[{id, watchers:[{pattern, baseUri?, kind}]}], unregister:[id], problems:[…]}` (only `workspace/didChangeWatchedFiles` registrations)",
		TSInput: "FileWatchersInput", TSOutput: "WatchUpdate",
	},
	{
		Name: "fileChanges", run: fileChangesCall,
		Input:   "`{changes:[{path, first, last}], registrations:null|[…], extensions, root, openDocuments, maxBatch?, windows?}`",
		Output:  "`{batches:[{changes:[{uri, type}]}], reverify:[path], matched, ignored, open?, openOmitted?, uncovered?}`: each batch is the params of one `workspace/didChangeWatchedFiles`; `uncovered`, the changed files of the server's kinds (not open, inside `root`) its registrations do not select",
		TSInput: "FileChangesInput", TSOutput: "FileChangesResult",
	},
	{
		Name: "resolveTarget", run: resolveTargetCall,
		Input:   "`{target:{path, symbol?, kind?, line?, column?, matchText?}, firstMatch?, text?, symbols?, outline?, lines?}`: one-based target, the file's `text`, `symbols` the raw `textDocument/documentSymbol` result (absent: the server has none); instead of `symbols`, `outline`: entries of `flattenSymbols`' answer the host picked; with `outline`, a symbol target may send `lines` (`[{start, lines}]`, the lines of the entries' names, and for a name no entry has, the lines holding it: `LinesNaming`) instead of `text` (see below); `request?`: `codeRequest`'s input without `position`, for the request at the resolved target",
		Output:  "`{path, line, column, position:{line, character}, identifier, symbol?, kind?, container?, by, range?, note?, text}`: one-based `line`/`column`, zero-based `position` for the request, `by` one of `symbol`, `matchText`, `column`, `line`, `note` what of the target was not used (a line the symbol is not on), `text` the answer's subject line, `request` (when asked) `codeRequest`'s answer for the target's position; `LSP_AMBIGUOUS_TARGET` / `LSP_TARGET_NOT_FOUND` with `candidates`, then `codeRequest`'s errors",
		TSInput: "ResolveTargetInput", TSOutput: "ResolvedTarget",
	},
	{
		Name: "planSnippets", run: planSnippetsCall,
		Input:   "`{locations, workspaceUri, context?, includeBody?, limit?, offset?, symbols?:{uri: documentSymbol result}, outlines?:{uri: flattenSymbols entries}}` (`locations` as `translate` accepts them; an outline wins over raw symbols for its file; `offset`: the locations of earlier pages, skipped)",
		Output:  "`{locations, totalFound, truncated, offset?, resultKey, files:[{uri, path, spans:[{start, end}], needSymbols?}]}`: the locations kept and the zero-based, inclusive line spans to read from files inside the workspace; `truncated`: locations follow this page; `resultKey` names the whole list of unique locations in the order pages take them (a host's check that a next page is of the same answer)",
		TSInput: "PlanSnippetsInput", TSOutput: "SnippetPlan",
	},
	{
		Name: "codeLocations", run: codeLocationsCall,
		Input:   "`planSnippets`' input plus `files?:{uri: text | [{start, lines}]}`, `subject?`, `maxResultChars?`, `implementationOf?:{uri, position, name?}` (an implementation answer's target, zero-based, its outline entries among `outlines`: a line under the subject says when the locations are interfaces the target implements, not implementations of it)",
		Output:  "`{locations:[{path, line, column, endLine, endColumn, snippet?, snippetLine?, bodyEndLine?, symbol?, kind?, container?, outsideWorkspace?}], totalFound, truncated, offset?, resultKey, rendered:{text, shown, omitted, truncated}}`",
		TSInput: "CodeLocationsInput", TSOutput: "CodeLocations",
	},
	{
		Name: "flattenSymbols", run: flattenSymbolsCall,
		Input:   "`{symbols, text}`: a file's raw `textDocument/documentSymbol` result and its whole text",
		Output:  "`{symbols:[{name, kind, container?, range, selectionRange}]}`: the symbols flattened in document order, members split from their receivers (`(*T).M` → `M` in `T`), each name placed on the text (stale ones dropped); once per version of a file, the host keeps it",
		TSInput: "FlattenSymbolsInput", TSOutput: "Outline",
	},
	{
		Name: "toolDefinitions", run: toolDefinitionsCall,
		Input:   "`{toolsets?: [\"lsp\", \"code\"]}` (absent: all)",
		Output:  "`[{name, title, toolset, description, inputSchema, readOnly}]` (`title`: the few words clients list the tool by), the `lsp` tool first; an unknown toolset is `LSP_INVALID_ARGUMENT`",
		TSInput: "ToolDefinitionsInput", TSOutput: "CatalogToolDefinition[]",
	},
	{
		Name: "parseCodeArgs", run: parseCodeArgsCall,
		Input:   "`{name, arguments}`: a catalog tool and the model's raw arguments",
		Output:  "`{tool, toolset, path, target?, firstMatch?, kind?, context?, includeBody?, depth?, limit?, query?, range?:{startLine, endLine}}` with defaults filled in (`limit` 100, `depth` 1, `context` 0); every problem at once as `LSP_INVALID_ARGUMENT`, with \"did you mean\" and the target forms",
		TSInput: "ParseCodeArgsInput", TSOutput: "CodeCall",
	},
	{
		Name: "codeRequest", run: codeRequestCall,
		Input:   "`{method, uri?, position?, query?, text?, range?, methods?, server?}`",
		Output:  "`{method, params}` of one catalog request (references with `includeDeclaration: true`; `textDocument/inlayHint` over the given one-based lines of `text`, or all of it); with `methods` (the negotiation's), a method the server lacks is `LSP_UNSUPPORTED_OPERATION` naming what to use instead",
		TSInput: "CodeRequestInput", TSOutput: "CodeRequest",
	},
	{
		Name: "codeSymbols", run: codeSymbolsCall,
		Input:   "`{mode: \"document\" | \"workspace\", result, workspaceUri, uri? (document), query? (workspace), dependencies? (workspace: true keeps matches outside the workspace, which are otherwise left out and counted in `dependenciesLeftOut`), offset? (the symbols (document: in document order, nested ones counted) or matches of earlier pages, skipped), scope? (workspace: `{server, path, root?, followsDocument?, cap?}`, what one server searched), limit?}`: `result` the raw `documentSymbol` / `workspace/symbol` answer; or, for a search of several servers, `results: [{server, languages?, root?, document?, followsDocument?, cap?, result, incomplete?}]` with `notSearched?: [{server?, languages?, root?, files?, reason}]`, `unconfigured?: [{extension, files}]`, `partial?`",
		Output:  "`{mode, path?, query?, symbols, totalFound, truncated, offset?, resultKey? (workspace, and a document's page: names the whole ranked set or outline, for a next page's check), dependenciesLeftOut?, exact? (a search that found matches: how many are named exactly as the query, 0 included), searched?, notSearched?, notice?, incomplete?, rendered}`: document mode a tree `{name, kind, container?, detail?, line, endLine, column, children?}` (on a page from an offset, a member whose container is on an earlier page is at the top with `container` set), workspace mode a flat list `{name, kind, container?, path, line?, column?, server?}` in the server's order, or with `results` merged and ranked (exact name, then case, prefix, substring, fuzzy)",
		TSInput: "CodeSymbolsInput", TSOutput: "CodeSymbols",
	},
	{
		Name: "codeHover", run: codeHoverCall,
		Input:   "`{hover, signatureHelp?, subject?}`: the raw answers",
		Output:  "`{text, signature?:{label, activeParameter?, parameters}, notice?, rendered}`: the signature and first paragraph of the documentation, the active parameter in `**bold**`",
		TSInput: "CodeHoverInput", TSOutput: "CodeHover",
	},
	{
		Name: "inlayHints", run: inlayHintsCall,
		Input:   "`{result, uri, workspaceUri, lines?: {startLine, endLine}, limit?, offset? (the hints of earlier pages, skipped)}`: `lines` (one-based, inclusive: the range the tool asked for) keeps only the hints on those lines, whatever the server answered for",
		Output:  "`{path, hints:[{line, column, label, kind: \"type\" | \"parameter\" | \"\", paddingLeft?, paddingRight?}], totalFound, truncated, offset?, resultKey, notice?, rendered}`: the hints from `offset`, at most `limit`; `truncated`: hints follow this page; `resultKey` names the whole ordered list of hints on the lines asked for (position, label, kind: a host's check that a next page is of the same answer)",
		TSInput: "InlayHintsInput", TSOutput: "InlayHints",
	},
	{
		Name: "hierarchy", run: hierarchyCall,
		Input:   "`{kind: \"callers\" | \"callees\" | \"supertypes\" | \"subtypes\", depth? (1–4), limit? (nodes), maxEdges?, offset? (0–1,999: the nodes of earlier pages), roots, expansions?:{nodeId: {result} | {error}}, workspaceUri, timedOut?, subject?, noItem?, maxResultChars?, outlines?:{path: flattenSymbols entries}}`: `roots` the raw prepare answer; `noItem`, the host's reason why the target has no item (roots empty), replaces the notice's guesses; `outlines`, the entries on the nodes' lines by node path, name each node's kind and qualified name",
		Output:  "`{kind, depth, limit, maxEdges, edgeMeaning, nodes:[{id, name, kind?, symbol?, detail?, path, line, column, endLine, endColumn, depth, expanded, unexpanded?, cycle?, outsideWorkspace?}], edges:[{from, to, callSites?, cycle?}], pending:[{id, method, item}], failures:[{id, message}], truncated, truncatedReason?, totalNodes, totalEdges, offset, priorKey, resultKey, nextOffset?, notice?, rendered}`: a page's nodes from `offset` and the edges whose later node is among them; `priorKey` and `resultKey` name the node ids before the page and through it, `nextOffset` where the next page starts",
		TSInput: "HierarchyInput", TSOutput: "HierarchyGraph",
	},
	{
		Name: "editText", run: editTextCall,
		Input:   "`{text, oldString, newString, replaceAll?, path?, window?:{linesBefore, lines, lineBreaks:[crlf, lf, cr], bom}}`: the file's text as read, or with `window` (`core.EditWindowOf`) only the lines holding the matches; `path` for messages",
		Output:  "`{text, replacements, replaceAll, lineEnding: \"lf\" | \"crlf\" | \"mixed\" | \"none\", bom, changedLines:{first, last}, linesBefore, linesAfter}`: the whole new text with its byte order mark and line endings (with `window`: the window's new text, to splice back; any error: ask again without `window`); `FS_NO_MATCH` (with where a whitespace- or case-insensitive match is), `FS_AMBIGUOUS_MATCH` (the lines), `FS_INVALID_ARGUMENT`",
		TSInput: "EditTextInput", TSOutput: "EditTextResult",
	},
	{
		Name: "readView", run: readViewCall,
		Input:   "`{text, path, offset? (one-based), limit? (1–10,000, default 2,000), maxLineChars? (default 2,000)}`",
		Output:  "`{path, text, startLine, returnedLines, totalLines, partial, nextOffset?, footer}`: `text` the lines as `%6d\\t` numbered lines",
		TSInput: "ReadViewInput", TSOutput: "ReadView",
	},
	{
		Name: "diagnostics", run: diagnosticsCall,
		Input:   "`{workspaceUri, files:[{uri, diagnostics, version?, how: \"pull\" | \"push\" | \"none\", fresh}], scope: \"file\" | \"workspace\", severity?, limit?, offset? (the problems of earlier pages, skipped), partial?, subject?}`",
		Output:  "`{status: \"fresh\" | \"stale\" | \"partial\", scope, counts, countsAll, problems:[{path, line, column, endLine, endColumn, severity, code?, source?, message}], totalFound, truncated, offset?, resultKey, coverage:[{path, how, version?, fresh}], notice?, rendered}`",
		TSInput: "DiagnosticsInput", TSOutput: "DiagnosticsSnapshot",
	},
	{
		Name: "diagnosticsDelta", run: diagnosticsDeltaCall,
		Input:   "`{workspaceUri, files:[{uri, lines:{beforeCount, afterCount, hunks:[{first, before:[line], after:[line]}]} (the runs of changed lines, in order; or beforeText and afterText), before, after, how, fresh, unreported? (with how \"none\": why the server that covers the file gave no report; after, if given, is its report after the edit, listed as current, not compared)}], dependents?:{files:[{uri, before, after, how, fresh}], notChecked:[{uri, reason}], notCheckedMore?, unasked?, unaskedNames?, unaskedWhy?, asked?, insideBodies?, partial?}, limit?, subject?}`",
		Output:  "`{files:[{path, how, fresh, introduced, resolved, persisting, introducedTotal, resolvedTotal, withheld?, withheldTotal?, reappeared?, reappearedTotal?, unchecked?, uncheckedTotal?, rechecked?, recheckedTotal?, unreported?, current?, currentTotal?}], counts:{introduced, resolved, persisting, introducedErrors, withheld?, reappeared?, unchecked?, rechecked?, current?}, truncated, uncovered, unreported?, stale, others?:{checked, files, withIntroduced, withResolved, counts, truncated, stale, notChecked:[{path, reason}], notCheckedMore?, unasked, unaskedNames?, unaskedWhy?, insideBodies?, partial?}, rendered}`",
		TSInput: "DiagnosticsDeltaInput", TSOutput: "DiagnosticsDeltaResult",
	},
	{
		Name: "applyTextEdits", run: applyTextEditsCall,
		Input:   "`{uri, text, edits: [TextEdit | AnnotatedTextEdit] | null, workspaceUri?, context? (0–1,000, default 3), verbatim? (default false)}`: the document's current text; instead of `text`, `windows: [{line, text}], lines, lineBreaks: [crlf, lf, cr]`: the whole lines around the edits and the whole text's line count and line breaks (`core.TextEditWindows`)",
		Output:  "`{uri, path, text, edits, diff, changedLines:{first, last}, linesAdded, linesRemoved}`: the new text (with `windows`: `windows: [{line, text}]`, each window's new text, to splice back; any error: ask again with `text`) and a unified diff (`\"\"` when unchanged; the same either way), keeping the text's leading byte order mark (edits at 0:0 start after it; none adds one) and writing the line breaks that overlap new text in the text's dominant style, unless `verbatim`; a range past its line or the document, splitting a surrogate pair, ending before its start, or overlapping another edit is `LSP_MALFORMED_RESPONSE` naming `edits[i]`",
		TSInput: "ApplyTextEditsInput", TSOutput: "AppliedTextEdits",
	},
	{
		Name: "planWorkspaceEdit", run: planWorkspaceEditCall,
		Input:   "`{edit: WorkspaceEdit | null, workspaceUri, versions?:{uri: version | null}}`",
		Output:  "`{files:[{uri, path, index?, version?, edits}], operations:[{kind: \"create\" | \"rename\" | \"delete\", index, uri, path | oldUri, oldPath, newUri, newPath, options}], outside:[uri], conflicts:[{uri, path, expected, have}], touched:[path], summary}`; `documentChanges` wins over `changes`; a document edited more than once has one entry per edit, in order",
		TSInput: "PlanWorkspaceEditInput", TSOutput: "WorkspaceEditPlan",
	},
	{
		Name: "targetEdit", run: targetEditCall,
		Input:   "`{text, path? (the file's, for its language), line (zero-based), range? (the symbol's, zero-based), where: \"before\" | \"after\" | \"start\" | \"end\" | \"replace\", newText, endLine? (one-based)}`",
		Output:  "a TextEdit `{range, newText}`: whole new lines above or below (the file's dominant line break, a final one added; line 1 starts after a byte order mark), as the first or last statements of the symbol's body, indented as its statements (after a Python docstring; inside the `{…}` that ends the declaration elsewhere; a declaration without one is `LSP_INVALID_ARGUMENT`), at a line's first non-blank character or end, or replacing the range, whole lines to `endLine`, or the line's text",
		TSInput: "TargetEditInput", TSOutput: "TextEditValue",
	},
	{
		Name: "commandDiagnosticsRequests", run: commandDiagnosticsRequestsCall,
		Input:   "`{command, uri}`: `command` a negotiation's `readiness.diagnosticsCommand` (`typescript.tsserverRequest`), `uri` an open document's",
		Output:  "`{requests:[{method, params}]}`: the `workspace/executeCommand` requests to send, in order (tsserver's syntactic, semantic and suggestion passes)",
		TSInput: "CommandDiagnosticsRequestsInput", TSOutput: "CommandDiagnosticsRequests",
	},
	{
		Name: "commandDiagnostics", run: commandDiagnosticsCall,
		Input:   "`{command, answers}`: the server's results to those requests, in their order",
		Output:  "`{diagnostics}`: the LSP `Diagnostic[]` the server would publish (typescript-language-server's conversion: zero-based positions, severity from the category, `source` `typescript` unless named); a failed pass is `LSP_SERVER_ERROR`, a malformed answer `LSP_MALFORMED_RESPONSE`",
		TSInput: "CommandDiagnosticsInput", TSOutput: "CommandDiagnostics",
	},
}

// Methods lists the names of ABIMethods, in the same order.
var Methods = func() []string {
	names := make([]string, len(ABIMethods))
	for i, m := range ABIMethods {
		names[i] = m.Name
	}
	return names
}()

// methodByName finds a method of ABIMethods (a linear scan: 37 short
// names, cheaper than a map's hashing in the module).
func methodByName(name string) (*ABIMethod, bool) {
	for i := range ABIMethods {
		if ABIMethods[i].Name == name {
			return &ABIMethods[i], true
		}
	}
	return nil, false
}

func knownMethod(method string) bool {
	_, ok := methodByName(method)
	return ok
}
