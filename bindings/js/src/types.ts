// The typed API surface of lspseam: every seam type and the input and output
// of every method of the core module's ABI (docs/abi.md). Declarations only, except LspError, re-exported from errors.ts.

export { LspError, isLspError, LSP_ERROR_CODES } from './errors.js';

declare global {
  // For projects compiled without the DOM lib (Node with @types/node, which
  // does not declare WebAssembly): the names this API mentions. They merge
  // with the full declarations wherever those exist.
  namespace WebAssembly {
    interface Module {}
    interface Memory {}
  }
}

/** The four operations of the model-facing `lsp` tool (a closed union). */
export type LspOperation = 'goToDefinition' | 'findReferences' | 'goToImplementation' | 'hover';

/** Every stable error code (docs/errors.md). */
export type LspErrorCode =
  | 'LSP_INVALID_ARGUMENT'
  | 'LSP_WORKSPACE_REQUIRED'
  | 'LSP_WORKSPACE_INVALID'
  /** A catalog target names no symbol, or its matchText is not on its line (the core's target resolution). */
  | 'LSP_TARGET_NOT_FOUND'
  /** A catalog symbol target matches several symbols (the message lists them; so does `candidates`). */
  | 'LSP_AMBIGUOUS_TARGET'
  | 'LSP_UNAVAILABLE'
  | 'LSP_CONFLICT'
  | 'LSP_DISPOSED'
  | 'LSP_UNSUPPORTED_OPERATION'
  | 'LSP_UNSUPPORTED_SYNC'
  | 'LSP_SOURCE_REJECTED'
  | 'LSP_MALFORMED_RESPONSE'
  | 'LSP_PROTOCOL_ERROR'
  | 'LSP_SERVER_FAILED'
  | 'LSP_SERVER_ERROR'
  | 'LSP_CANCELLED'
  | 'LSP_TIMEOUT'
  | 'LSP_CONFIG_INVALID'
  | 'FS_NOT_OBSERVED'
  | 'FS_STALE'
  | 'FS_NOT_FOUND'
  | 'FS_NO_MATCH'
  | 'FS_AMBIGUOUS_MATCH'
  | 'FS_INVALID_ARGUMENT'
  | 'FS_REJECTED'
  | 'LSP_UNKNOWN_METHOD'
  | 'LSP_INTERNAL_ERROR'
  /** This package only: a core method was called before init() finished. */
  | 'LSP_NOT_INITIALIZED'
  /**
   * This package only: init() could not load the core module from a location
   * (core.wasm missing next to a bundle, an HTTP or read error, something
   * else served in its place); the message says where it looked and what to do.
   */
  | 'LSP_CORE_UNAVAILABLE';

/** A structured seam error as it travels in JSON. */
export interface LspErrorData {
  code: LspErrorCode;
  message: string;
  /** resolveTarget's LSP_AMBIGUOUS_TARGET (every match) or symbol LSP_TARGET_NOT_FOUND (the nearest names). */
  candidates?: TargetCandidate[];
  /** The input member an LSP_INVALID_ARGUMENT is about, where a host must know it (`locations`: a server's result passed on). */
  field?: string;
  /** LSP_UNSUPPORTED_OPERATION: what to use instead (the message says it too). */
  instead?: string;
  /** Tells apart kinds of one code a host acts on differently: `editsOverlap`. Branch on these fields, never on the message. */
  reason?: string;
  /** LSP_CONFIG_INVALID from validateConfig: each problem with the config path it is about. */
  problems?: ConfigProblem[];
}

/**
 * One problem of an invalid configuration. `path` names the member as the message does
 * (`servers.gopls.command`, `servers.gopls.env["A"]`, `servers.gopls.args[2]`; "" for the
 * config as a whole); `line` is set by a host that read the config from a file.
 */
export interface ConfigProblem {
  path: string;
  message: string;
  line?: number;
}

/** Any JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A zero-based LSP position; `character` counts UTF-16 code units. */
export interface LspPosition {
  line: number;
  character: number;
}

export interface LspRange {
  start: LspPosition;
  end: LspPosition;
}

export interface LspLocation {
  uri: string;
  range: LspRange;
}

/** Normalized hover contents (markdown). */
export interface LspHover {
  contents: string;
  range?: LspRange;
}

/** A navigation answer: locations, possibly none. */
export interface LspLocationsResult {
  kind: 'locations';
  locations: LspLocation[];
  /** The provider's canonical workspace `file:` URI (set by providers, not by translate). */
  workspaceUri?: string;
  /** Why the answer may be partial (e.g. the server was still loading). */
  incomplete?: string;
  /** What the answer is for: the identifier at the position, or that there is none. `render` makes it the first line. */
  subject?: string;
}

/** A hover answer; `null` hover is a successful "nothing here". */
export interface LspHoverResult {
  kind: 'hover';
  hover: LspHover | null;
  workspaceUri?: string;
  incomplete?: string;
  subject?: string;
}

/** The seam's answer to one query. */
export type LspQueryResult = LspLocationsResult | LspHoverResult;

/** One query of `lspseam serve` (`lsp/query`): zero-based position. */
export interface LspQueryRequest {
  operation: LspOperation;
  filePath: string;
  position: LspPosition;
  /** The session's workspace root (never from the model). */
  workspaceRoot: string;
  /** The shim's own budget for this query; defaults to the config's timeoutMs. */
  timeoutMs?: number;
  /**
   * The coordinates a position error restates: `'zero-based'` (the default:
   * the numbers as sent) or `'one-based'`, for a position converted from a
   * model's one-based line and column (createLspTool sends it).
   */
  positionTerms?: PositionTerms;
}

/** The coordinates a caller spoke, which a position error restates. */
export type PositionTerms = 'zero-based' | 'one-based';

/** The model's raw tool arguments (validated by parseToolArgs). */
export interface ToolArgs {
  operation: LspOperation;
  file_path: string;
  /** One-based. */
  line: number;
  /** One-based, UTF-16 code units. */
  character: number;
}

/** parseToolArgs' answer: the tool call with a zero-based position. */
export interface ToolCall {
  operation: LspOperation;
  filePath: string;
  position: LspPosition;
}

/** A JSON Schema object (as the core emits it). */
export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema & { description?: string; enum?: string[] }>;
  required?: string[];
  additionalProperties?: boolean;
  [key: string]: unknown;
}

/** The model-facing tool: name, prompt guidance and input schema. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

/** Rendering limits; absent or 0 = the defaults (100 locations, 16,000 code points). */
export interface Limits {
  maxLocations?: number;
  maxResultChars?: number;
}

/** render's answer. */
export interface Rendered {
  text: string;
  shown: number;
  omitted: number;
  truncated: boolean;
}

export interface PresentationLocation {
  path: string;
  /** One-based. */
  line: number;
}

/** The UI card for one tool call, derived from the arguments alone. */
export interface PresentationCard {
  card: 'generic';
  kind: 'search';
  title: string;
  locations: PresentationLocation[];
}

/** A provider registration. */
export interface ProviderSpec {
  id: string;
  /** Final extension (lowercase, leading dot after normalization) → LSP language id. */
  extensionToLanguage: Record<string, string>;
}

export interface Selection {
  id: string;
  languageId: string;
}

/** The readiness policy the core picked for a server. */
export interface Readiness {
  server: string;
  settleMs: number;
  readyLog?: string;
  expectSignal: boolean;
  /** After created/deleted files are delivered: wait for readyLog again, at most this long (absent: no wait). */
  changeSettleMs?: number;
  /** changeSettleMs applies to edited files of the server's languages too, not only to created and deleted ones. */
  changeSettleEdits?: boolean;
  /** The server ignores watched-file events: a change to a file it has not opened means a restart. */
  ignoresWatchedFiles?: boolean;
  /** The server finds a new directory's files only once one is opened. */
  openNewDirectories?: boolean;
  /** How far workspace/symbol searches: absent, the server's workspace; 'tsserverProjects', the projects of its last document. */
  symbolSearch?: 'tsserverProjects';
  /** The most workspace/symbol matches the server answers with (gopls: 100); an answer that reaches it is incomplete. */
  symbolCap?: number;
  /** How long a pushed diagnostics report must stand before it counts (absent: the host's default). */
  diagnosticsQuietMs?: number;
  /** The command through which the server is asked for a document's diagnostics (commandDiagnosticsRequests). */
  diagnosticsCommand?: string;
  /** The server answers independent requests asked at once as it answers them one by one (gopls): a host may have several in flight. */
  concurrentRequests?: boolean;
  /** Extensions of files the server reads from the disk, not from its open documents, when it parses the files that include them (clangd): a speculative check cannot show their new text to those files. */
  headersFromDisk?: string[];
  /** The server's searches (references, renames) cover only the document asked about; these are the extensions of the other files that may use what it declares (vscode-css-language-server: other stylesheets and markup), whose presence makes such an answer incomplete. */
  searchesOneFile?: string[];
  /** How the server's searches depend on what it decoded: 'terraform' (terraform-ls decodes a module's uses only once one of its files was opened, and resource and data arguments only with their provider's schema). */
  moduleSearch?: 'terraform';
  /** The server publishes reports for files it has not opened and nothing new when one is opened with the content it read (terraform-ls): such a report, after everything sent before the didOpen, stands for the opened document. */
  reportsUnopened?: boolean;
  /** Files one of which must be in a file's directory or a parent for the loading signal (expectSignal) to come for it: typescript-language-server signals loading a tsconfig.json or jsconfig.json project only, never an inferred one. */
  signalNeeds?: string[];
  /** A request (an LSP method taking a textDocument) whose answer comes only after the server validated every change sent before it, for a server that publishes nothing for a document that was and is clean (terraform-ls: textDocument/documentSymbol): its answer, with no report after it within the quiet window, confirms a document whose last report was empty clean. */
  cleanConfirmedBy?: string;
  /** The server checks a document only when it is opened or changed, not when a file it imports changes (buf): a host syncs it again, same text, before awaiting its report after a content change to another file. */
  reportsOnlySynced?: boolean;
  /** The server's pushed reports are interim while work-done progress it announced runs (pyright: a just-opened file's parse-only report, then each open file's checked report in turn under "N files to analyze"): a host takes a report as its word only once no progress it created or began is running. */
  reportsSettleWithProgress?: boolean;
  /** A regular expression a window/logMessage or window/showMessage text matches when the server lost what answers for it and stays up answering nothing (typescript-language-server: its tsserver child exited): a host treats it as the server's crash, failing what is in flight and restarting the server at the next query. */
  failureLog?: string;
}

/** negotiate's answer: what a server can do. */
export interface Negotiation {
  positionEncoding: string;
  transientOpen: boolean;
  /**
   * The server's TextDocumentSyncKind for didChange: 0 (None: close and
   * reopen a document to update it), 1 (Full) or 2 (Incremental; send full
   * text for both).
   */
  changeSync: 0 | 1 | 2;
  /** The server asks for didSave (textDocumentSync.save): send it after syncing a document to bytes read from the disk. */
  save: boolean;
  operations: Record<LspOperation, boolean>;
  readiness: Readiness;
}

/** An LSP request ready to send to a server. */
export interface LspRequest {
  method: string;
  params: Json;
  /** With `text`: what is at the position (the first line of the answer's text); copy it into the result. */
  subject?: string;
}

/** LSP InitializeParams as the core builds them. */
export interface InitializeParams {
  processId: null;
  clientInfo: { name: string; version: string };
  locale: string;
  rootUri: string;
  workspaceFolders: Array<{ uri: string; name: string }>;
  capabilities: { [key: string]: Json };
  initializationOptions?: Json;
}

/** serverRequest's answer: the reply to send back to the server. */
export type ServerReply = { result: Json } | { error: { code: number; message: string } };

/** One server of a configuration, every default filled in. */
export interface ServerConfig {
  command: string;
  args: string[];
  env: Record<string, string>;
  extensionToLanguage: Record<string, string>;
  initializationOptions: Json;
  configuration: Json;
  maxMessageBytes: number;
  maxStderrBytes: number;
  maxDocumentBytes: number;
  shutdownTimeoutMs: number;
  killGraceMs: number;
  settleMs: number | null;
  /** File names (go.mod, package.json, …) that mark a project root; empty = the workspace root only. */
  rootMarkers: string[];
  /** The most documents a long-lived server is kept holding open at once. */
  maxOpenDocuments: number;
  /** How long a long-lived server may sit unused before it is shut down. */
  idleTimeoutMs: number;
  /** Host variables passed to the server beyond the environment allowlist. */
  passEnv: string[];
  /** A server the table can do without: a host that cannot find its command skips it with a warning. */
  optional: boolean;
}

/** A validated configuration. */
export interface Config {
  servers: Record<string, ServerConfig>;
  timeoutMs: number;
  /** The largest message `lspseam serve` accepts from its client. */
  maxRequestBytes: number;
  /**
   * How the refactor tools apply changes: `preview` (the default: a diff and
   * a previewId first), `auto` (at once) or `elicit` (`lspseam mcp` asks the
   * user through the client's elicitation; elsewhere as `preview`).
   */
  approval: ApprovalMode;
}

/** An approval mode of the refactor tools (the config's `approval`). */
export type ApprovalMode = 'preview' | 'auto' | 'elicit';

/** A configuration as a user writes it (validateConfig's input). */
export interface ConfigInput {
  servers: Record<string, Partial<ServerConfig> & { command: string; extensionToLanguage: Record<string, string> }>;
  timeoutMs?: number;
  maxRequestBytes?: number;
  approval?: ApprovalMode;
}

/**
 * One accepted file watcher: a glob pattern, the `file:` URI of the directory
 * it is relative to (absent for a plain pattern, matched against the absolute
 * path and the path relative to the server's root) and its WatchKind bits
 * (Create 1, Change 2, Delete 4).
 */
export interface FileWatcher {
  pattern: string;
  baseUri?: string;
  kind: number;
}

/** A server's registration of file watchers, by the id it will unregister them with. */
export interface WatchRegistration {
  id: string;
  watchers: FileWatcher[];
}

/**
 * fileWatchers' answer: registrations to add (replacing any with the same
 * id), ids to remove, and the watchers skipped and why.
 */
export interface WatchUpdate {
  register: WatchRegistration[];
  unregister: string[];
  problems: string[];
}

/** What a host saw happen to one path since its last delivery: the first and last raw event. */
export interface PathChange {
  /** Absolute and canonical. */
  path: string;
  first: 'created' | 'changed' | 'deleted';
  last: 'created' | 'changed' | 'deleted';
}

/** One LSP FileEvent: a `file:` URI and its FileChangeType (Created 1, Changed 2, Deleted 3). */
export interface FileEvent {
  uri: string;
  type: 1 | 2 | 3;
}

/** The params of one workspace/didChangeWatchedFiles notification. */
export interface FileChangeBatch {
  changes: FileEvent[];
}

/**
 * fileChanges' answer: the notifications to send in order, the open
 * documents to re-read and resynchronize, and counts (`matched` events are
 * in `batches`; `ignored` netted to nothing or matched no watcher).
 */
export interface FileChangesResult {
  batches: FileChangeBatch[];
  reverify: string[];
  matched: number;
  ignored: number;
  /** With openNewDirectories: a file of each created directory, to open (at most 64). */
  open?: string[];
  /** New directories beyond `open`'s limit. */
  openOmitted?: number;
  /**
   * Changed files of the server's own kinds (not open, inside `root`) that its watcher
   * registrations do not select: counted in `ignored`; a host that wants
   * the server's answers to follow them restarts it.
   */
  uncovered?: string[];
}

// ---- ABI method inputs ------------------------------------------------------

export interface NormalizeProviderInput extends ProviderSpec {}

export interface CheckProvidersInput {
  providers: ProviderSpec[];
}

export interface CheckProvidersOutput {
  providers: ProviderSpec[];
}

export interface SelectProviderInput {
  filePath: string;
  providers: ProviderSpec[];
}

export interface InitializeParamsInput {
  workspaceUri: string;
  initializationOptions?: Json;
}

export interface NegotiateInput {
  initializeResult: Json;
  /** The configured command; helps choose the readiness policy. */
  serverCommand?: string;
}

export interface CheckOperationInput {
  negotiation: Negotiation;
  operation: LspOperation;
}

export interface RequestInput {
  operation: LspOperation;
  uri: string;
  position: LspPosition;
  /**
   * The document's text (what the host sends in didOpen). When given, the
   * position is checked against it (a line or column past the end is
   * `LSP_INVALID_ARGUMENT` in positionTerms' coordinates) and the request
   * carries a `subject`.
   */
  text?: string;
  /**
   * Instead of text: the text of the line at position.line, without its
   * terminator (a host that found the line sends only it; past the end of
   * the document it sends text, which the error describes).
   */
  line?: string;
  /** The coordinates a position error restates; default `'zero-based'` (as sent). */
  positionTerms?: PositionTerms;
}

export interface TranslateInput {
  operation: LspOperation;
  /** The server's raw result; absent means the response had no result member. */
  result?: Json;
}

export interface RenderInput extends Limits {
  result: LspQueryResult;
  workspaceUri: string;
}

/** translateRender's input: translate's and render's in one (the translated result gets `workspaceUri` when it is locations, and `subject` and `incomplete`, before it is rendered). */
export interface TranslateRenderInput extends Limits {
  operation: LspOperation;
  /** The server's raw result; absent means the response had no result member. */
  result?: Json;
  workspaceUri: string;
  subject?: string;
  incomplete?: string;
}

/** translateRender's answer: what translate then render give. */
export interface TranslatedRendered {
  result: LspQueryResult;
  rendered: Rendered;
}

export interface ServerRequestInput {
  method: string;
  params?: Json;
  configuration?: Json;
  workspaceUri?: string;
}

export interface FileWatchersInput {
  /** client/registerCapability or client/unregisterCapability. */
  method: string;
  params?: Json;
}

export interface FileChangesInput {
  changes: PathChange[];
  /** What fileWatchers registered; `null` = the server registered no watchers (changes match by extension). */
  registrations: WatchRegistration[] | null;
  /** The server's extensions, matched when `registrations` is null. */
  extensions: string[];
  /** The server's root (absolute, canonical); plain patterns also match paths relative to it. */
  root: string;
  /** The documents the server holds open (absolute, canonical). */
  openDocuments: string[];
  /** The most changes in one notification; default 1,000. */
  maxBatch?: number;
  /** Ask for `open`: one file of each new directory (for servers such as gopls). */
  openNewDirectories?: boolean;
  /** The paths are a Windows host's drive paths written `/C:/src/a.go`: events name them `file:///C:/src/a.go` and baseUris are read as Windows URIs. */
  windows?: boolean;
}

// ---- the code-intelligence catalog: targets and code locations ---------------

/** A model's target, one-based (columns in UTF-16 code units, as in the lsp tool). */
export interface Target {
  path: string;
  /** A name ("Helper") or a dotted "Container.member" ("Circle.Area"; "::" works as "."). */
  symbol?: string;
  /** An LSP SymbolKind name, any case ("method", "struct"). */
  kind?: string;
  line?: number;
  column?: number;
  /** Text on `line`: the target is its first occurrence. */
  matchText?: string;
}

/** A symbol offered by LSP_AMBIGUOUS_TARGET or LSP_TARGET_NOT_FOUND, one-based. */
export interface TargetCandidate {
  qualifiedName: string;
  kind: string;
  path: string;
  line: number;
  column: number;
  endLine: number;
  container?: string;
}

export interface ResolveTargetInput {
  target: Target;
  /** Take the first of several matching symbols instead of LSP_AMBIGUOUS_TARGET (reads only). */
  firstMatch?: boolean;
  /** A change's target: firstMatch is refused, and an ambiguous target's message does not offer it. */
  exact?: boolean;
  /** The target file's text (needed by a column target; with outline, a symbol target, or a line target with matchText or alone, may send lines instead). */
  text?: string;
  /** The server's raw textDocument/documentSymbol result; omit when the server has no documentSymbol provider. */
  symbols?: Json;
  /**
   * Instead of symbols: flattenSymbols' entries the host picked (for a
   * symbol target, those whose name is in the query; on
   * LSP_TARGET_NOT_FOUND, ask again with all of them for the nearest names).
   */
  outline?: OutlineEntry[];
  /**
   * With outline, instead of text (they win over it): for a symbol target,
   * the lines holding the entries' names; for a line target, its line (any
   * error is then LSP_INVALID_ARGUMENT: ask again with text for the
   * explanation).
   */
  lines?: LineChunk[];
  /**
   * codeRequest's input without position: the answer carries the request
   * at the resolved target (one call instead of two).
   */
  request?: Omit<CodeRequestInput, 'position'>;
}

/** flattenSymbols' input: a file's raw documentSymbol result and its whole text (once per version of the file). */
export interface FlattenSymbolsInput {
  symbols: Json;
  text: string;
}

/** One entry of a flattened outline: placed on the text, in document order. */
export interface OutlineEntry {
  name: string;
  /** LSP SymbolKind. */
  kind: number;
  /** Qualified name of the symbol it is in. */
  container?: string;
  range: LspRange;
  selectionRange: LspRange;
}

/** flattenSymbols' answer. */
export interface Outline {
  symbols: OutlineEntry[];
}

/** How a target was resolved. */
export type TargetResolvedBy = 'symbol' | 'matchText' | 'column' | 'line';

/** resolveTarget's answer: where the target points. */
export interface ResolvedTarget {
  path: string;
  /** One-based. */
  line: number;
  /** One-based, UTF-16 code units. */
  column: number;
  /** Zero-based, for the LSP request. */
  position: LspPosition;
  /** The identifier at the position ("" when there is none). */
  identifier: string;
  /** Qualified name of the symbol targeted (or whose name is at the position). */
  symbol?: string;
  kind?: string;
  container?: string;
  by: TargetResolvedBy;
  /** The targeted symbol's whole range (zero-based), when known. */
  range?: LspRange;
  /** What of the target was not used: a line given with a symbol that is elsewhere (also in text). */
  note?: string;
  /** The subject line to echo in the answer: "Target: `Area` (method Circle.Area) at geom/geom.go:10:18". */
  text: string;
  /** The request at the target, when the input had request. */
  request?: CodeRequest;
}

/** planSnippets' input (and the first part of codeLocations'). */
export interface PlanSnippetsInput {
  /** The server's locations (Location or LocationLink, as translate accepts them). */
  locations: Json[];
  /** The workspace's file: URI; only files inside it are planned for reading. */
  workspaceUri: string;
  /** Lines of source around each location, 0–3 (default 0: the trimmed line). */
  context?: number;
  /** A definition's whole symbol range (at most 200 lines); needs the file's symbols. */
  includeBody?: boolean;
  /** Locations kept, 1–500 (default 100). */
  limit?: number;
  /** Locations of earlier pages, skipped (default 0). */
  offset?: number;
  /** Raw documentSymbol results the host has, by file URI. */
  symbols?: Record<string, Json>;
  /** flattenSymbols' entries by file URI (any that hold the locations' lines); they win over symbols. */
  outlines?: Record<string, OutlineEntry[]>;
}

/** A zero-based, inclusive range of lines. */
export interface LineSpan {
  start: number;
  end: number;
}

/** One file to read: the spans needed, and whether its document symbols are needed first. */
export interface FileRead {
  uri: string;
  /** Absolute path. */
  path: string;
  spans: LineSpan[];
  /** includeBody without the file's symbols: ask the server and plan again. */
  needSymbols?: boolean;
}

/** planSnippets' answer. */
export interface SnippetPlan {
  locations: LspLocation[];
  totalFound: number;
  /** Locations follow this page. */
  truncated: boolean;
  offset?: number;
  /** Names the whole list of unique locations in page order: a next page is of the same answer only with the same key. */
  resultKey: string;
  files: FileRead[];
}

/** Consecutive lines from a zero-based start line, without line terminators. */
export interface LineChunk {
  start: number;
  lines: string[];
}

export interface CodeLocationsInput extends PlanSnippetsInput {
  /** What the host read, by file URI: chunks of lines (any superset of the planned spans) or the whole text. */
  files?: Record<string, LineChunk[] | string>;
  /** The first line of the text (a ResolvedTarget's `text`). */
  subject?: string;
  /** Budget of the text in code points (default 16,000). */
  maxResultChars?: number;
  /** An implementation answer's target (zero-based; its outline entries among `outlines`): the text says when the locations are what it implements. */
  implementationOf?: { uri: string; position: LspPosition; name?: string };
}

/** One location for the model, one-based (UTF-16 columns). */
export interface CodeLocation {
  /** Relative inside the workspace, absolute outside. */
  path: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** The trimmed line, or (snippetLine set) the lines from snippetLine on; absent outside the workspace. */
  snippet?: string;
  snippetLine?: number;
  /** Where a body cut at 200 lines really ends. */
  bodyEndLine?: number;
  symbol?: string;
  kind?: string;
  container?: string;
  /** The file is outside the workspace: never read. */
  outsideWorkspace?: true;
}

/** codeLocations' answer: the locations grouped by file and their text for the model. */
export interface CodeLocations {
  locations: CodeLocation[];
  totalFound: number;
  /** Locations follow this page. */
  truncated: boolean;
  offset?: number;
  resultKey: string;
  rendered: Rendered;
}

// <generated by cmd/contractgen from core.ABIMethods (core/contract.go): edit the table there>
/** Every ABI method: its input and its ok value. */
export interface AbiMethods {
  toolDefinition: { input: Record<string, never>; output: ToolDefinition };
  parseToolArgs: { input: unknown; output: ToolCall };
  normalizeProvider: { input: NormalizeProviderInput; output: ProviderSpec };
  checkProviders: { input: CheckProvidersInput; output: CheckProvidersOutput };
  selectProvider: { input: SelectProviderInput; output: Selection };
  initializeParams: { input: InitializeParamsInput; output: InitializeParams };
  negotiate: { input: NegotiateInput; output: Negotiation };
  checkOperation: { input: CheckOperationInput; output: Record<string, never> };
  request: { input: RequestInput; output: LspRequest };
  translate: { input: TranslateInput; output: LspQueryResult };
  render: { input: RenderInput; output: Rendered };
  translateRender: { input: TranslateRenderInput; output: TranslatedRendered };
  present: { input: unknown; output: PresentationCard };
  serverRequest: { input: ServerRequestInput; output: ServerReply };
  /** Input is `ConfigInput` when valid; anything else is answered with LSP_CONFIG_INVALID. */
  validateConfig: { input: unknown; output: Config };
  fileWatchers: { input: FileWatchersInput; output: WatchUpdate };
  fileChanges: { input: FileChangesInput; output: FileChangesResult };
  resolveTarget: { input: ResolveTargetInput; output: ResolvedTarget };
  planSnippets: { input: PlanSnippetsInput; output: SnippetPlan };
  codeLocations: { input: CodeLocationsInput; output: CodeLocations };
  flattenSymbols: { input: FlattenSymbolsInput; output: Outline };
  toolDefinitions: { input: ToolDefinitionsInput; output: CatalogToolDefinition[] };
  parseCodeArgs: { input: ParseCodeArgsInput; output: CodeCall };
  codeRequest: { input: CodeRequestInput; output: CodeRequest };
  codeSymbols: { input: CodeSymbolsInput; output: CodeSymbols };
  codeHover: { input: CodeHoverInput; output: CodeHover };
  inlayHints: { input: InlayHintsInput; output: InlayHints };
  hierarchy: { input: HierarchyInput; output: HierarchyGraph };
  editText: { input: EditTextInput; output: EditTextResult };
  readView: { input: ReadViewInput; output: ReadView };
  diagnostics: { input: DiagnosticsInput; output: DiagnosticsSnapshot };
  diagnosticsDelta: { input: DiagnosticsDeltaInput; output: DiagnosticsDeltaResult };
  applyTextEdits: { input: ApplyTextEditsInput; output: AppliedTextEdits };
  planWorkspaceEdit: { input: PlanWorkspaceEditInput; output: WorkspaceEditPlan };
  targetEdit: { input: TargetEditInput; output: TextEditValue };
  commandDiagnosticsRequests: { input: CommandDiagnosticsRequestsInput; output: CommandDiagnosticsRequests };
  commandDiagnostics: { input: CommandDiagnosticsInput; output: CommandDiagnostics };
}
// </generated>

export type AbiMethod = keyof AbiMethods;

/** The module's answer to one call, exactly as it is encoded. */
export type Envelope<T> = { ok: T } | { error: LspErrorData };

/** What init() accepts: the module's bytes, where to fetch them, or the compiled module. */
export type CoreSource = ArrayBuffer | ArrayBufferView | URL | string | WebAssembly.Module | Response | Promise<Response>;

/** Where the module's stdout/stderr go (only a Go runtime crash writes there). */
export interface WasiOptions {
  /** Receives each write to fd 1; default console.log. */
  stdout?: (text: string) => void;
  /** Receives each write to fd 2; default console.error. */
  stderr?: (text: string) => void;
}

export interface InitOptions extends WasiOptions {}

// ---- the tool layer -----------------------------------------------------------

/** Anything that answers seam queries: ShimClient, or your own provider. */
export interface LspQueryClient {
  query(request: LspQueryRequest, options?: { signal?: AbortSignal }): Promise<LspQueryResult>;
}

export interface LspToolOptions {
  client: LspQueryClient;
  /** The session's workspace root (absolute path). Required: the model never supplies it. */
  workspaceRoot: string | undefined;
  limits?: Limits;
  /** Budget of one call (queue + start + open + query + close); default 60,000. */
  timeoutMs?: number;
}

/** What the tool resolves: the text for the model, the structured value and the UI card. */
export interface LspToolResult {
  text: string;
  value: LspQueryResult;
  presentation: PresentationCard;
  rendered: Rendered;
}

/** A harness-ready tool object. */
export interface LspTool {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  execute(args: unknown, options?: { signal?: AbortSignal }): Promise<LspToolResult>;
}

// ---- every tool: definitions, arguments, answers (createTools) ----------------

/** The toolsets the core defines tools for: `lsp` (the lsp tool) and `code` (the code_* tools). */
export type Toolset = 'lsp' | 'code' | 'fs' | 'refactor';

/** The refactor toolset's tools: each previews a change, then applies it. */
export type RefactorToolName =
  | 'code_rename'
  | 'code_rename_file'
  | 'code_actions'
  | 'code_format'
  | 'code_insert'
  | 'code_replace'
  | 'code_replace_batch'
  | 'code_delete';

/** Every tool's name. */
export type ToolName =
  | 'lsp'
  | 'code_symbols'
  | 'code_navigate'
  | 'code_hover'
  | 'code_hierarchy'
  | 'code_inlay_hints'
  | 'code_diagnostics'
  | RefactorToolName
  | 'read'
  | 'write'
  | 'edit';

/** toolDefinitions' input: the toolsets to list (absent or empty: every toolset). An unknown name is LSP_INVALID_ARGUMENT. */
export interface ToolDefinitionsInput {
  toolsets?: readonly (Toolset | (string & {}))[];
}

/** One tool's definition as the core module states it (toolDefinitions, `lspseam tools --format json`, `tools/list`). */
export interface CatalogToolDefinition extends ToolDefinition {
  name: ToolName;
  /** The tool's human-readable name in clients' lists (MCP's `title`). */
  title: string;
  toolset: Toolset;
  /** The tool changes nothing (MCP's readOnlyHint). */
  readOnly: boolean;
}

/**
 * code_symbols' arguments: a file's outline (path), a search of every
 * language in the workspace (query), or the search of one file's server and
 * project (path and query). path or query is required.
 */
export interface CodeSymbolsArgs {
  path?: string;
  query?: string;
  /** With query: keep matches outside the workspace (dependencies, the standard library); default false. */
  dependencies?: boolean;
  /** An earlier search's cursor: its next page (given alone, `{cursor}`, or with the same arguments). */
  cursor?: string;
  /** 1–500, default 100. */
  limit?: number;
}

export type NavigateKind = 'definition' | 'typeDefinition' | 'declaration' | 'implementation' | 'references';

/** code_navigate's arguments. */
export interface CodeNavigateArgs {
  target: Target;
  kind: NavigateKind;
  /** Lines of source around each result, 0–3 (default 0). */
  context?: number;
  /** A definition's whole symbol (at most 200 lines). */
  includeBody?: boolean;
  /** 1–500, default 100. */
  limit?: number;
  /** Take the first of several matching symbols instead of an LSP_AMBIGUOUS_TARGET answer. */
  firstMatch?: boolean;
  /** An earlier answer's cursor: its next page (given alone, `{cursor}`, or with the same arguments). */
  cursor?: string;
}

/** code_navigate (or code_hierarchy) with only the cursor of an earlier answer: its next page. */
export interface CodeNavigatePageArgs {
  cursor: string;
}

/** code_hover's arguments. */
export interface CodeHoverArgs {
  target: Target;
  firstMatch?: boolean;
}

export type HierarchyKind = 'callers' | 'callees' | 'supertypes' | 'subtypes';

/** code_hierarchy's arguments. */
export interface CodeHierarchyArgs {
  target: Target;
  kind: HierarchyKind;
  /** Levels to follow, 1–4 (default 1). */
  depth?: number;
  /** At most this many nodes, 1–500 (default 100). */
  limit?: number;
  firstMatch?: boolean;
  /** An earlier answer's cursor: its next page (given alone, `{cursor}`, or with the same arguments). */
  cursor?: string;
}

/** code_inlay_hints' arguments. */
export interface CodeInlayHintsArgs {
  path: string;
  /** One-based, inclusive lines (default: the whole file). */
  range?: { startLine: number; endLine: number };
  /** 1–500, default 100. */
  limit?: number;
  /** An earlier answer's cursor: its next page (given alone, `{cursor}`, or with the same arguments). */
  cursor?: string;
}

/** code_inlay_hints with only the cursor of an earlier answer: its next page. */
export interface CodeInlayHintsPageArgs {
  cursor: string;
}

/** code_diagnostics' arguments. */
export interface CodeDiagnosticsArgs {
  path: string;
  /** The least severe problems to list (default: all). */
  severity?: 'error' | 'warning' | 'information' | 'hint';
  /** 1–500, default 100. */
  limit?: number;
  /** An earlier answer's cursor: its next page (given alone, `{cursor}`, or with the same arguments). */
  cursor?: string;
}

/** code_rename's arguments: a previewId applies that call's preview. */
export interface CodeRenameArgs {
  target: Target;
  newName: string;
  previewId?: string;
}

/** code_rename_file's arguments: the file and its new path (which must not exist). */
export interface CodeRenameFileArgs {
  path: string;
  newPath: string;
  previewId?: string;
}

/** code_actions' arguments: list the actions of some lines, or apply one (an actionId, or an exact unique title). */
export interface CodeActionsArgs {
  path: string;
  /** One-based. */
  line: number;
  endLine?: number;
  /** An action kind, e.g. source.organizeImports. */
  only?: string;
  apply?: string;
  previewId?: string;
}

/** code_format's arguments. */
export interface CodeFormatArgs {
  path: string;
  /** One-based, inclusive lines (default: the whole file). */
  range?: { startLine: number; endLine: number };
  previewId?: string;
}

/** code_insert's arguments. */
export interface CodeInsertArgs {
  target: Target;
  position: 'before' | 'after' | 'start' | 'end';
  text: string;
  previewId?: string;
}

/** code_replace's arguments: the symbol's declaration, or whole lines to endLine. */
export interface CodeReplaceArgs {
  target: Target;
  text: string;
  endLine?: number;
  previewId?: string;
}

/** code_replace_batch's arguments. */
export interface CodeReplaceBatchArgs {
  edits: { target: Target; text: string; endLine?: number }[];
  previewId?: string;
}

/** code_delete's arguments: a symbol target (its declaration and doc comment go, if nothing else uses it). */
export interface CodeDeleteArgs {
  target: Target;
  previewId?: string;
}

/** read's arguments (seed 002: snake_case). */
export interface ReadArgs {
  file_path: string;
  /** One-based first line (default 1). */
  offset?: number;
  /** At most this many lines (default 2000, at most 10000). */
  limit?: number;
}

/** write's arguments. */
export interface WriteArgs {
  file_path: string;
  /** The whole new UTF-8 content. */
  content: string;
}

/** edit's arguments. */
export interface EditArgs {
  file_path: string;
  /** Exact text to replace; must occur once unless replace_all. */
  old_string: string;
  /** The replacement; "" deletes old_string. */
  new_string: string;
  replace_all?: boolean;
}

/** Each tool's arguments (the model's, one-based). */
export interface ToolArgsByName {
  lsp: ToolArgs;
  code_symbols: CodeSymbolsArgs;
  code_navigate: CodeNavigateArgs | CodeNavigatePageArgs;
  code_hover: CodeHoverArgs;
  code_hierarchy: CodeHierarchyArgs | CodeNavigatePageArgs;
  code_inlay_hints: CodeInlayHintsArgs | CodeInlayHintsPageArgs;
  code_diagnostics: CodeDiagnosticsArgs;
  code_rename: CodeRenameArgs;
  code_rename_file: CodeRenameFileArgs;
  code_actions: CodeActionsArgs;
  code_format: CodeFormatArgs;
  code_insert: CodeInsertArgs;
  code_replace: CodeReplaceArgs;
  code_replace_batch: CodeReplaceBatchArgs;
  code_delete: CodeDeleteArgs;
  read: ReadArgs;
  write: WriteArgs;
  edit: EditArgs;
}

/** The resolved target as an answer echoes it (one-based), so an off-by-one is visible. */
export interface EchoedTarget {
  path: string;
  line: number;
  column: number;
  /** The identifier at the position ("" when there is none). */
  identifier: string;
  symbol?: string;
  kind?: string;
  container?: string;
  by: TargetResolvedBy;
}

/** What every successful catalog answer may carry besides its own fields. */
interface CodeAnswer<N extends ToolName> {
  ok: true;
  tool: N;
  /** Why the answer is empty (also in the text). */
  notice?: string;
  /** Why the answer may be partial (e.g. the server was still loading). */
  incomplete?: string;
}

/** One symbol of a file's outline (code_symbols without query), one-based. */
export interface OutlineSymbol {
  name: string;
  kind: string;
  container?: string;
  detail?: string;
  line: number;
  endLine: number;
  column: number;
  children?: OutlineSymbol[];
}

/** One match of a workspace symbol search (code_symbols with query). */
export interface WorkspaceSymbolMatch {
  name: string;
  kind: string;
  container?: string;
  path: string;
  line?: number;
  column?: number;
  /** The server that found it (a search of the whole workspace). */
  server?: string;
}

/** A server a workspace-wide search asked (code_symbols with query and no path). */
export interface SymbolSearchSource {
  server: string;
  languages: string[];
  /** Its project roots asked, relative to the workspace ("." itself). */
  roots: string[];
  /** For a server that searches the projects of one document: the documents it was asked with. */
  documents?: string[];
  found: number;
}

/** What a workspace-wide search could not ask, and why (the answer is then incomplete). */
export interface SymbolSearchGap {
  server?: string;
  languages: string[];
  /** Source files no configured server owns: their extensions. */
  extensions?: string[];
  roots?: string[];
  files?: number;
  reason: string;
}

/** What a page of results carries: where it starts, and the next page's cursor. */
interface PagedAnswer {
  /** The results of earlier pages: this page's first result's index. */
  offset?: number;
  /** More results follow: call the tool again with `{cursor}` for the next page. */
  cursor?: string;
}

export type CodeSymbolsAnswer = CodeAnswer<'code_symbols'> &
  PagedAnswer & {
    totalFound: number;
    truncated: boolean;
    /** Names the whole ranked set of matches (a search) or the outline (a page of it). */
    resultKey?: string;
  } & (
    | { mode: 'document'; path: string; symbols: OutlineSymbol[] }
    | {
        mode: 'workspace';
        query: string;
        /** With path: the file whose language's server was asked. */
        path?: string;
        symbols: WorkspaceSymbolMatch[];
        /** Matches outside the workspace left out (ask with dependencies: true). */
        dependenciesLeftOut?: number;
        /** The matches named exactly as the query (a member by Container.name too). */
        exact?: number;
        /** Without path: the servers asked, and what was not searched. */
        searched?: SymbolSearchSource[];
        notSearched?: SymbolSearchGap[];
      }
  );

export interface CodeNavigateAnswer extends CodeAnswer<'code_navigate'>, PagedAnswer {
  kind: NavigateKind;
  target: EchoedTarget;
  locations: CodeLocation[];
  totalFound: number;
  truncated: boolean;
}

export interface CodeHoverAnswer extends CodeAnswer<'code_hover'> {
  target: EchoedTarget;
  /** The signature and the first paragraph of the documentation. */
  text: string;
  /** Inside a call's parentheses: the called function's signature. */
  signature?: { label: string; activeParameter?: string; parameters: string[] };
}

/** One node of a call or type hierarchy, one-based. */
export interface HierarchyNode {
  /** "path:line:column#name". */
  id: string;
  name: string;
  /** The outline's kind when the host gave outlines, else the item's. */
  kind?: string;
  /** The outline's qualified name ("Circle.Area"), when the host gave outlines. */
  symbol?: string;
  detail?: string;
  path: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  depth: number;
  expanded: boolean;
  /** Why it was not expanded. */
  unexpanded?: string;
  cycle?: true;
  outsideWorkspace?: true;
}

export interface HierarchyEdge {
  from: string;
  to: string;
  callSites?: Array<{ path: string; line: number; column: number; endLine: number; endColumn: number }>;
  cycle?: true;
}

export interface CodeHierarchyAnswer extends CodeAnswer<'code_hierarchy'> {
  /** More nodes follow: call the tool again with `{cursor}` for the next page. */
  cursor?: string;
  target: EchoedTarget;
  kind: HierarchyKind;
  depth: number;
  limit: number;
  maxEdges: number;
  /** What an edge from → to means for this kind ("to calls from", …). */
  edgeMeaning: string;
  nodes: HierarchyNode[];
  edges: HierarchyEdge[];
  pending: Array<{ id: string; method: string; item: Json }>;
  failures: Array<{ id: string; message: string }>;
  truncated: boolean;
  truncatedReason?: string;
  totalNodes: number;
  totalEdges: number;
  /** The nodes of earlier pages: this page's first node's index. */
  offset: number;
}

/** One inlay hint, one-based. */
export interface InlayHint {
  line: number;
  column: number;
  label: string;
  /** "type", "parameter" or "" (the server did not say). */
  kind: string;
  paddingLeft?: true;
  paddingRight?: true;
}

export interface CodeInlayHintsAnswer extends CodeAnswer<'code_inlay_hints'> {
  path: string;
  hints: InlayHint[];
  totalFound: number;
  /** Hints follow this page. */
  truncated: boolean;
  /** The next page: call code_inlay_hints with `{cursor}`. */
  cursor?: string;
  /** The hints of earlier pages: this page's first hint's index. */
  offset?: number;
  /** Names the whole ordered list of hints on the lines asked for. */
  resultKey: string;
  [field: string]: unknown;
}

/** One problem a language server reports, one-based (end exclusive). */
export interface Problem {
  path: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: 'error' | 'warning' | 'information' | 'hint';
  code?: string;
  source?: string;
  message: string;
}

/** code_diagnostics' answer: a snapshot of one file's problems. */
export interface CodeDiagnosticsAnswer extends CodeAnswer<'code_diagnostics'> {
  /** fresh: for the current content; stale: the server had not reported on it in time; partial: not every file covered. */
  status: 'fresh' | 'stale' | 'partial';
  scope: string;
  problems: Problem[];
  /** At the severity filter. */
  counts: Record<'error' | 'warning' | 'information' | 'hint', number>;
  /** Every severity. */
  countsAll: Record<'error' | 'warning' | 'information' | 'hint', number>;
  totalFound: number;
  /** Problems follow this page. */
  truncated: boolean;
  offset?: number;
  /** Names the whole ordered list of problems at the filter. */
  resultKey: string;
  /** How each file's problems were had. */
  coverage: { path: string; how: string; version?: number; fresh: boolean }[];
  /** The next page: call code_diagnostics with `{cursor}`. */
  cursor?: string;
  [field: string]: unknown;
}

/** What a write or edit introduced and resolved, per the language server. */
export interface DiagnosticsDelta {
  /** withheld, reappeared: analyzer findings that vanished, or came back, with their package's compile errors; unchecked, rechecked: problems the server does not report for a file that does not parse (gopls: type errors) that vanished with its syntax error, or came back with its fix (neither resolved nor introduced). */
  counts: { introduced: number; resolved: number; persisting: number; introducedErrors?: number; withheld?: number; reappeared?: number; unchecked?: number; rechecked?: number; current?: number };
  files: { path: string; introduced: Problem[]; resolved: Problem[]; persisting: number; withheld?: Problem[]; withheldTotal?: number; reappeared?: Problem[]; reappearedTotal?: number; unchecked?: Problem[]; uncheckedTotal?: number; rechecked?: Problem[]; recheckedTotal?: number; /** Why the server that covers the file gave no report (how 'none'). */ unreported?: string; /** What the server reported on an unreported file after the edit, not compared (the first limit; currentTotal counts all). */ current?: Problem[]; currentTotal?: number; [field: string]: unknown }[];
  /** The other files that use what the change touched (its dependents), when the host looked for them. */
  others?: DiagnosticsDeltaOthers;
  [field: string]: unknown;
}

/** A delta's other files: those checked, with new or resolved problems, and those not checked, and why. */
export interface DiagnosticsDeltaOthers {
  checked: number;
  files: { path: string; how: string; fresh: boolean; introduced: Problem[]; resolved: Problem[]; persisting: number; introducedTotal: number; resolvedTotal: number; withheld?: Problem[]; withheldTotal?: number; reappeared?: Problem[]; reappearedTotal?: number; unchecked?: Problem[]; uncheckedTotal?: number; rechecked?: Problem[]; recheckedTotal?: number }[];
  withIntroduced: string[];
  withResolved: string[];
  counts: { introduced: number; resolved: number; persisting: number; introducedErrors: number; withheld?: number; reappeared?: number; unchecked?: number; rechecked?: number };
  truncated: boolean;
  stale: string[];
  notChecked: { path: string; reason: 'limit' | 'time' | 'noServer' | 'failed' | 'otherUnit' | 'otherServer' }[];
  /** Files found and not checked (over the files checked) beyond those `notChecked` lists. */
  notCheckedMore?: number;
  /** Changed declarations whose references were not asked (a changed file not looked into counts as one). */
  unasked: number;
  /** The changed declarations whose references were not asked, by name (the one whose name line changed first). */
  unaskedNames?: string[];
  /** Why they were not asked: out of time, over the bound of declarations asked, or both. */
  unaskedWhy?: 'time' | 'limit' | 'timeAndLimit';
}

/**
 * A refactor tool's answer: a preview (`applied: false`, a `previewId` and each file's diff; call again with the
 * previewId to apply it) or the applied change (`applied: true`, the files and the diagnostics delta).
 */
export interface RefactorAnswer<N extends RefactorToolName> extends CodeAnswer<N> {
  applied: boolean;
  previewId?: string;
  edits?: number;
  /** Each file changed; created, deleted or renamedFrom for resource operations. */
  files: { path: string; edits: number; diff?: string; created?: boolean; deleted?: boolean; renamedFrom?: string }[];
  /** The server command an action runs (its changes show once it has run). */
  command?: string;
  diagnostics?: DiagnosticsDelta;
  diagnosticsError?: string;
  /** A preview: the files its speculative check could not cover (they are checked when the change is applied). */
  speculativeLeftOut?: string[];
  /** A preview whose speculative check failed: why it has no diagnostics delta. */
  speculativeError?: string;
  /** code_format of a file the server would not format: its errors ("line:column message"). */
  fileErrors?: string[];
}

/** code_actions' answer: the listed actions, or (with apply) the applied or previewed change. */
export interface CodeActionsAnswer extends RefactorAnswer<'code_actions'> {
  path?: string;
  actions?: { actionId: string; title: string; kind: string; preferred: boolean; command: boolean; disabled?: string }[];
}

/** read's answer: the window of lines (numbered in `content`) and where it is in the file. */
export interface ReadAnswer extends CodeAnswer<'read'> {
  path: string;
  startLine: number;
  returnedLines: number;
  totalLines: number;
  partial: boolean;
  nextOffset?: number;
  /** The content hash this session observed. */
  version: string;
  content: string;
}

/** write's answer. */
export interface WriteAnswer extends CodeAnswer<'write'> {
  path: string;
  operation: 'create' | 'update';
  version: string;
  diagnostics?: DiagnosticsDelta;
  diagnosticsError?: string;
}

/** edit's answer. */
export interface EditAnswer extends CodeAnswer<'edit'> {
  path: string;
  replacements: number;
  replaceAll: boolean;
  changedLines: { first: number; last: number };
  version: string;
  diagnostics?: DiagnosticsDelta;
  diagnosticsError?: string;
}

/** The lsp tool's structured answer: the seam result. */
export interface LspAnswer {
  ok: true;
  tool: 'lsp';
  result: LspQueryResult;
}

/** Each tool's structured answer when it succeeded. */
export interface ToolAnswerByName {
  lsp: LspAnswer;
  code_symbols: CodeSymbolsAnswer;
  code_navigate: CodeNavigateAnswer;
  code_hover: CodeHoverAnswer;
  code_hierarchy: CodeHierarchyAnswer;
  code_inlay_hints: CodeInlayHintsAnswer;
  code_diagnostics: CodeDiagnosticsAnswer;
  code_rename: RefactorAnswer<'code_rename'>;
  code_rename_file: RefactorAnswer<'code_rename_file'>;
  code_actions: CodeActionsAnswer;
  code_format: RefactorAnswer<'code_format'>;
  code_insert: RefactorAnswer<'code_insert'>;
  code_replace: RefactorAnswer<'code_replace'>;
  code_replace_batch: RefactorAnswer<'code_replace_batch'>;
  code_delete: RefactorAnswer<'code_delete'>;
  read: ReadAnswer;
  write: WriteAnswer;
  edit: EditAnswer;
}

/** A failed call's structured answer: the error's code and message (the text says the same, for the model). */
export interface ToolFailure {
  ok: false;
  error: { code: LspErrorCode; message: string };
  /** LSP_AMBIGUOUS_TARGET: call again with one of `candidates`. */
  ambiguous?: true;
  /** The symbols an ambiguous target matched, or the nearest names of one not found. */
  candidates?: TargetCandidate[];
  /** LSP_CONFLICT of a stale preview: a fresh preview to apply instead (its previewId and diffs). */
  preview?: { applied: false; previewId: string; edits: number; files: { path: string; edits: number; diff: string }[] };
}

/**
 * A tool's answer: `text` for the model, `structured` the same answer as an
 * object, `isError` for a failed call (a failure is an answer too: hand its
 * text to the model, it says what to do next).
 */
export type ToolResult<N extends ToolName = ToolName> =
  | { text: string; structured: ToolAnswerByName[N]; isError: false }
  | { text: string; structured: ToolFailure; isError: true };

/** Anything that runs tools by name: ShimClient (`tools/call`), or your own. */
export interface ToolCallClient {
  callTool(
    name: string,
    args: unknown,
    workspaceRoot: string,
    options?: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<ToolResult>;
}

export interface CreateToolsOptions {
  client: ToolCallClient;
  /** The session's workspace root (absolute path). Required: the model never supplies it. */
  workspaceRoot: string | undefined;
  /** The toolsets to offer; default ["lsp", "code"]. */
  toolsets?: readonly (Toolset | (string & {}))[];
  /** Budget of one call, sent to the shim as its timeoutMs; default 60,000. */
  timeoutMs?: number;
}

/** A harness-ready tool object for one tool (createTools). */
export interface CatalogTool<N extends ToolName = ToolName> {
  name: N;
  /** The tool's human-readable name in clients' lists. */
  title: string;
  toolset: Toolset;
  description: string;
  inputSchema: JsonSchema;
  readOnly: boolean;
  /**
   * Runs the tool on the model's raw arguments (an object, or its JSON
   * text; its shape is `ToolArgsByName[N]`, e.g. CodeNavigateArgs). Failures of the call (bad arguments, an unknown symbol, an
   * ambiguous target, a server error) resolve with `isError: true`; only
   * cancellation, the timeout and a failed transport reject (LspError).
   */
  execute(args: unknown, options?: { signal?: AbortSignal }): Promise<ToolResult<N>>;
}

/** createTools' answer: one tool object per tool, narrowed by `name`. */
export type AnyCatalogTool = { [N in ToolName]: CatalogTool<N> }[ToolName];

// ---- the code tools' core methods (what a host running the tools itself calls) --

/** parseCodeArgs' input: a code tool's name and the model's raw arguments. */
export interface ParseCodeArgsInput {
  name: string;
  arguments: unknown;
}

/** parseCodeArgs' answer: a validated code tool call, defaults filled in; `path` is the file the call is about. */
export interface CodeCall {
  tool: Exclude<ToolName, 'lsp'>;
  toolset: Toolset;
  path: string;
  target?: Target;
  firstMatch?: boolean;
  kind?: string;
  context?: number;
  includeBody?: boolean;
  limit?: number;
  depth?: number;
  query?: string;
  range?: { startLine: number; endLine: number };
}

/** codeRequest's input: the LSP method and what it needs; `methods` (the server's negotiated methods) and `server` name a missing one. */
export interface CodeRequestInput {
  method: string;
  uri?: string;
  /** Zero-based. */
  position?: LspPosition;
  query?: string;
  text?: string;
  /** One-based, inclusive lines (inlay hints). */
  range?: { startLine: number; endLine: number };
  methods?: Record<string, boolean>;
  server?: string;
}

/** A catalog request, ready to send to the server. */
export interface CodeRequest {
  method: string;
  params: Json;
}

/** codeSymbols' input: a documentSymbol (document mode, with the file's uri) or workspace/symbol result. */
export interface CodeSymbolsInput {
  mode: 'document' | 'workspace';
  result?: Json;
  uri?: string;
  workspaceUri: string;
  query?: string;
  /** Workspace mode: keep matches outside the workspace; otherwise they are left out and counted. */
  dependencies?: boolean;
  /** The symbols (document mode: in document order, nested ones counted) or matches of earlier pages, skipped. */
  offset?: number;
  /** Workspace mode, one server: what it searched, for the wording of an empty answer. */
  scope?: { server: string; path: string; root?: string; followsDocument?: boolean; cap?: number };
  /** Workspace mode, several servers (instead of result): one entry per workspace/symbol request. */
  results?: {
    server: string;
    languages?: string[];
    root?: string;
    document?: string;
    followsDocument?: boolean;
    cap?: number;
    result: Json;
    incomplete?: string;
  }[];
  notSearched?: { server?: string; languages?: string[]; root?: string; files?: number; reason: string }[];
  unconfigured?: { extension: string; files: number }[];
  partial?: string;
  limit?: number;
  [key: string]: unknown;
}

/** codeSymbols' answer: the outline or the matches, and their text. */
export interface CodeSymbols {
  mode: 'document' | 'workspace';
  path?: string;
  query?: string;
  symbols: OutlineSymbol[] | WorkspaceSymbolMatch[];
  totalFound: number;
  truncated: boolean;
  /** Workspace mode: matches outside the workspace left out (ask with dependencies: true). */
  dependenciesLeftOut?: number;
  /** Workspace mode, a query that found matches: how many are named exactly as the query (a member by Container.name too), 0 included. */
  exact?: number;
  offset?: number;
  /** Workspace mode, and a page of an outline: names the whole ranked set of matches or the outline (a next page is of the same answer only with the same key). */
  resultKey?: string;
  /** With results: the servers asked, and what was not searched. */
  searched?: SymbolSearchSource[];
  notSearched?: SymbolSearchGap[];
  notice?: string;
  /** Why the answer may be partial: something not searched, or a server's cap on matches reached. */
  incomplete?: string;
  rendered: Rendered;
}

/** codeHover's input: the server's hover result, its signatureHelp result, and the subject line. */
export interface CodeHoverInput {
  hover: Json;
  signatureHelp?: Json;
  subject?: string;
}

export interface CodeHover {
  text: string;
  signature?: { label: string; activeParameter?: string; parameters: string[] };
  notice?: string;
  rendered: Rendered;
}

/** inlayHints' input: the server's textDocument/inlayHint result for the file `uri`. */
export interface InlayHintsInput {
  uri: string;
  workspaceUri: string;
  result?: Json;
  /** One-based, inclusive: only the hints on these lines are kept (servers answer for more). */
  lines?: { startLine: number; endLine: number };
  limit?: number;
  /** The hints of earlier pages, skipped (default 0). */
  offset?: number;
  [key: string]: unknown;
}

export interface InlayHints {
  path: string;
  hints: InlayHint[];
  totalFound: number;
  /** Hints follow this page. */
  truncated: boolean;
  offset?: number;
  /** Names the whole ordered list of hints on the lines asked for (position, label, kind). */
  resultKey: string;
  notice?: string;
  rendered: Rendered;
}

/**
 * hierarchy's input: the prepare result (`roots`) and the expansions so far
 * by node id; call again with every `pending` node's expansion until none is
 * pending (or set `timedOut`).
 */
export interface HierarchyInput {
  kind: HierarchyKind;
  depth?: number;
  limit?: number;
  maxEdges?: number;
  /** 0–1,999: the nodes of earlier pages (default 0). */
  offset?: number;
  maxResultChars?: number;
  roots: Json;
  expansions?: Record<string, { result?: Json; error?: string }>;
  workspaceUri: string;
  subject?: string;
  timedOut?: boolean;
  /** The outline entries on the nodes' lines, by node path: they name each node's kind and qualified name. */
  outlines?: Record<string, OutlineEntry[]>;
}

/** hierarchy's answer: the graph so far, what to expand next, and its text. */
export interface HierarchyGraph {
  kind: HierarchyKind;
  depth: number;
  limit: number;
  maxEdges: number;
  edgeMeaning: string;
  nodes: HierarchyNode[];
  edges: HierarchyEdge[];
  pending: Array<{ id: string; method: string; item: Json }>;
  failures: Array<{ id: string; message: string }>;
  truncated: boolean;
  truncatedReason?: string;
  totalNodes: number;
  totalEdges: number;
  /** The page: its nodes from offset, the edges whose later node is among them. */
  offset: number;
  /** The key of the node ids before the page, in order. */
  priorKey: string;
  /** The key of the node ids through the page, in order. */
  resultKey: string;
  /** Where the next page starts, when one follows. */
  nextOffset?: number;
  notice?: string;
  rendered: Rendered;
}

// The verify loop's and the applier's methods (docs/abi.md has their shapes).

/** editText's input: the file's text as read, the model's strings. */
export interface EditTextInput {
  /** The file's text as read; with `window`, only the lines holding the matches. */
  text: string;
  oldString: string;
  newString: string;
  replaceAll?: boolean;
  path?: string;
  /** What editText reads of the whole text when `text` is a window of it; the answer's `text` is then the window's. */
  window?: { linesBefore: number; lines: number; lineBreaks: [number, number, number]; bom: boolean };
}
/** editText's answer. */
export interface EditTextResult {
  text: string;
  replacements: number;
  replaceAll: boolean;
  lineEnding: 'lf' | 'crlf' | 'mixed' | 'none';
  bom: boolean;
  changedLines: { first: number; last: number };
  linesBefore: number;
  linesAfter: number;
}
/** readView's input. */
export interface ReadViewInput {
  text: string;
  path: string;
  offset?: number;
  limit?: number;
  maxLineChars?: number;
}
/** readView's answer. */
export interface ReadView {
  path: string;
  text: string;
  startLine: number;
  returnedLines: number;
  totalLines: number;
  partial: boolean;
  nextOffset?: number;
  footer: string;
}
/** diagnostics' input: each file's raw Diagnostic[] and how they were had. */
export interface DiagnosticsInput {
  workspaceUri: string;
  files: { uri: string; diagnostics?: unknown; version?: number | null; how: 'pull' | 'push' | 'none'; fresh?: boolean }[];
  scope: 'file' | 'workspace';
  severity?: 'error' | 'warning' | 'information' | 'hint';
  limit?: number;
  /** Problems of earlier pages, skipped (default 0). */
  offset?: number;
  partial?: string;
  subject?: string;
}
/** diagnostics' answer. */
export interface DiagnosticsSnapshot {
  status: 'fresh' | 'stale' | 'partial';
  scope: string;
  counts: Record<'error' | 'warning' | 'information' | 'hint', number>;
  countsAll: Record<'error' | 'warning' | 'information' | 'hint', number>;
  problems: Problem[];
  totalFound: number;
  /** Problems follow this page. */
  truncated: boolean;
  offset?: number;
  /** Names the whole ordered list of problems at the filter. */
  resultKey: string;
  coverage: { path: string; how: string; version?: number; fresh: boolean }[];
  notice?: string;
  rendered: Rendered;
}
/**
 * The lines an edit changed: the texts have `beforeCount` and `afterCount` lines, and `hunks` are
 * the runs of changed lines of their line diff, in order and not overlapping (none when the lines
 * are equal); every other line is unchanged and not sent. The counts add up: `beforeCount` plus
 * each hunk's `after.length - before.length` is `afterCount`.
 */
export interface ChangedLines {
  beforeCount: number;
  afterCount: number;
  hunks: LineHunk[];
}
/**
 * A run of changed lines: the lines `[first, first + before.length)` of the text before
 * (zero-based) became `after`. In the text after, the hunk starts at `first` plus what the
 * hunks before it added.
 */
export interface LineHunk {
  first: number;
  before: string[];
  after: string[];
}
/** diagnosticsDelta's input: each file's changed lines and diagnostics before and after. */
export interface DiagnosticsDeltaInput {
  workspaceUri: string;
  /** Each file's `lines`, the runs of lines the edit changed, or its two whole texts, `beforeText` and `afterText` (the same answer). */
  files: { uri: string; lines?: ChangedLines; beforeText?: string; afterText?: string; before?: unknown; after?: unknown; how: 'pull' | 'push' | 'none'; fresh?: boolean; /** With how 'none': why the server that covers the file gave no report (listed in unreported, not uncovered); its after, if given, is the server's report after the edit, listed as current (not compared). */ unreported?: string }[];
  /** The other files that use what changed: their text is the same before and after, and not sent. */
  dependents?: {
    files?: { uri: string; before: unknown; after: unknown; how: 'pull' | 'push'; fresh: boolean }[];
    /** At most 1,000; `notCheckedMore` counts the rest found over the files checked. */
    notChecked?: { uri: string; reason: 'limit' | 'time' | 'noServer' | 'failed' | 'otherUnit' | 'otherServer' }[];
    notCheckedMore?: number;
    /** Each count at most 1,000,000: a host clamps a larger one there. */
    unasked?: number;
    /** At most 8 names of those `unasked` counts, the declaration whose name line changed first. */
    unaskedNames?: string[];
    unaskedWhy?: 'time' | 'limit' | 'timeAndLimit';
    asked?: number;
    insideBodies?: number;
    partial?: string;
  };
  limit?: number;
  subject?: string;
}
/** diagnosticsDelta's answer. */
export interface DiagnosticsDeltaResult extends DiagnosticsDelta {
  /** Files no language server covers. */
  uncovered: string[];
  /** Files a server covers that it gave no report on (it failed): each file's `unreported` says why. */
  unreported?: string[];
  stale: string[];
  truncated: boolean;
  rendered: Rendered;
}
/** applyTextEdits' input. */
export interface ApplyTextEditsInput {
  uri: string;
  /** The document's text; or, instead, windows with lines and lineBreaks. */
  text?: string;
  /** Whole lines around the edits (core.TextEditWindows); the answer has their new texts. */
  windows?: { line: number; text: string }[];
  /** With windows: the whole text's line count. */
  lines?: number;
  /** With windows: the whole text's line breaks, [crlf, lf, cr]. */
  lineBreaks?: [number, number, number];
  edits: unknown[] | null;
  workspaceUri?: string;
  context?: number;
  /** Apply newText as sent; by default the text keeps its byte order mark and line breaks. */
  verbatim?: boolean;
}
/** applyTextEdits' answer. */
export interface AppliedTextEdits {
  uri: string;
  path: string;
  /** The new text; absent when the input sent windows. */
  text?: string;
  /** With windows: each window's new text, in their order. */
  windows?: { line: number; text: string }[];
  edits: number;
  diff: string;
  changedLines: { first: number; last: number };
  linesAdded: number;
  linesRemoved: number;
}
/** planWorkspaceEdit's input. */
export interface PlanWorkspaceEditInput {
  edit: unknown;
  workspaceUri: string;
  versions?: Record<string, number | null>;
}
/** planWorkspaceEdit's answer. */
export interface WorkspaceEditPlan {
  files: { uri: string; path: string; index?: number; version?: number | null; edits: unknown[] }[];
  operations: { kind: 'create' | 'rename' | 'delete'; index: number; [field: string]: unknown }[];
  outside: string[];
  conflicts: { uri: string; path: string; expected: number | null; have: number | null }[];
  touched: string[];
  summary: string;
}
/** targetEdit's input (zero-based line and range). */
export interface TargetEditInput {
  text: string;
  /** The file's path or URI, for its language (how a body is found for start and end). */
  path?: string;
  line: number;
  range?: LspRange;
  where: 'before' | 'after' | 'start' | 'end' | 'replace';
  newText: string;
  endLine?: number;
}
/** commandDiagnosticsRequests' input: a negotiation's readiness.diagnosticsCommand and an open document's URI. */
export interface CommandDiagnosticsRequestsInput {
  command: string;
  uri: string;
}
/** commandDiagnosticsRequests' answer: the requests to send, in order. */
export interface CommandDiagnosticsRequests {
  requests: { method: string; params: Json }[];
}
/** commandDiagnostics' input: the server's results to those requests, in their order. */
export interface CommandDiagnosticsInput {
  command: string;
  answers: unknown[];
}
/** commandDiagnostics' answer: the LSP Diagnostic[] the server would publish. */
export interface CommandDiagnostics {
  diagnostics: unknown[];
}
/** An LSP TextEdit. */
export interface TextEditValue {
  range: LspRange;
  newText: string;
}
