// Core: one instance of the core module and the ABI protocol around it
// (docs/abi.md). Every method runs synchronously in
// the module; JavaScript is single-threaded, so one instance serves a whole
// thread.

import { LspError } from './errors.js';
import type {
  AbiMethod,
  AbiMethods,
  CatalogToolDefinition,
  CheckOperationInput,
  CodeCall,
  CodeHover,
  CodeHoverInput,
  CodeRequest,
  CodeRequestInput,
  CodeSymbols,
  CodeSymbolsInput,
  HierarchyGraph,
  HierarchyInput,
  EditTextInput,
  ReadViewInput,
  DiagnosticsInput,
  DiagnosticsDeltaInput,
  ApplyTextEditsInput,
  PlanWorkspaceEditInput,
  TargetEditInput,
  CommandDiagnosticsRequestsInput,
  CommandDiagnosticsRequests,
  CommandDiagnosticsInput,
  CommandDiagnostics,
  EditTextResult,
  ReadView,
  DiagnosticsSnapshot,
  DiagnosticsDeltaResult,
  AppliedTextEdits,
  WorkspaceEditPlan,
  TextEditValue,
  InlayHints,
  InlayHintsInput,
  ParseCodeArgsInput,
  CheckProvidersInput,
  CheckProvidersOutput,
  CodeLocations,
  CodeLocationsInput,
  FlattenSymbolsInput,
  Outline,
  Config,
  Envelope,
  FileChangesInput,
  FileChangesResult,
  FileWatchersInput,
  InitializeParams,
  InitializeParamsInput,
  LspQueryResult,
  LspRequest,
  Negotiation,
  NegotiateInput,
  NormalizeProviderInput,
  PlanSnippetsInput,
  PresentationCard,
  ProviderSpec,
  RenderInput,
  Rendered,
  RequestInput,
  ResolvedTarget,
  ResolveTargetInput,
  Selection,
  SelectProviderInput,
  ServerReply,
  ServerRequestInput,
  SnippetPlan,
  ToolCall,
  ToolDefinition,
  ToolDefinitionsInput,
  TranslateInput,
  TranslateRenderInput,
  TranslatedRendered,
  WasiOptions,
  WatchUpdate,
} from './types.js';
import { createWasi, WasiExit } from './wasi.js';

/** The ABI version this package speaks. */
export const ABI_VERSION = 1;

interface Exports {
  memory: WebAssembly.Memory;
  _initialize(): void;
  lspseam_abi_version(): number;
  lspseam_alloc(size: number): number;
  lspseam_free(ptr: number): void;
  lspseam_call(methodPtr: number, methodLen: number, inPtr: number, inLen: number): bigint;
}

/** A buffer in the module's memory. */
interface Region {
  ptr: number;
  len: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class Core {
  readonly #x: Exports;
  /** Method names, written once each and kept. */
  readonly #methods = new Map<string, Region>();
  /** The input scratch buffer, reused while inputs fit (len = capacity). */
  #scratch: Region = { ptr: 0, len: 0 };
  #broken: Error | undefined;

  private constructor(exports: Exports) {
    this.#x = exports;
  }

  /** Instantiates a compiled core module (each call makes a new, independent instance). */
  static async instantiate(module: WebAssembly.Module, options: WasiOptions = {}): Promise<Core> {
    const wasi = createWasi(options);
    const imports: Record<string, (...args: never[]) => number | void> = {};
    for (const imp of WebAssembly.Module.imports(module)) {
      if (imp.module !== 'wasi_snapshot_preview1' || imp.kind !== 'function') {
        throw new LspError('LSP_INVALID_ARGUMENT', `lspseam: not a core module: it imports ${imp.module}.${imp.name}`);
      }
      // A function a future Go runtime imports and this host lacks answers ENOSYS.
      imports[imp.name] = wasi.imports[imp.name] ?? (() => 52);
    }
    const instance = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: imports });
    const x = instance.exports as unknown as Exports;
    for (const name of ['memory', '_initialize', 'lspseam_abi_version', 'lspseam_alloc', 'lspseam_free', 'lspseam_call']) {
      if (!(name in x)) throw new LspError('LSP_INVALID_ARGUMENT', `lspseam: not a core module: no export ${name}`);
    }
    wasi.bind(x.memory);
    x._initialize();
    const version = x.lspseam_abi_version();
    if (version !== ABI_VERSION) {
      throw new LspError(
        'LSP_INVALID_ARGUMENT',
        `lspseam: the core module speaks ABI ${version}, this package ABI ${ABI_VERSION}; use the core.wasm shipped with this package`,
      );
    }
    return new Core(x);
  }

  /** The module's ABI version (1). */
  get abiVersion(): number {
    return this.#x.lspseam_abi_version();
  }

  /**
   * Runs one ABI method on a JSON input and returns the envelope exactly as
   * the module encoded it: `{"ok":…}` or `{"error":{"code":…,"message":…}}`.
   */
  call(method: string, inputJson: string): string {
    if (this.#broken) {
      throw new LspError('LSP_INTERNAL_ERROR', `lspseam: the core module crashed earlier (${this.#broken.message}); call init() again for a new instance`);
    }
    try {
      return this.#call(method, inputJson);
    } catch (err) {
      this.#broken = err instanceof Error ? err : new Error(String(err));
      const what = err instanceof WasiExit ? err.message : `the core module trapped: ${this.#broken.message}`;
      throw new LspError('LSP_INTERNAL_ERROR', `lspseam: ${method}: ${what}; this is a bug in lspseam, please report it`, { cause: err });
    }
  }

  /** The module's linear memory size in bytes. */
  get memoryBytes(): number {
    return this.#x.memory.buffer.byteLength;
  }

  /** True once a call crashed the module; the instance is then unusable. */
  get broken(): boolean {
    return this.#broken !== undefined;
  }

  #call(method: string, inputJson: string): string {
    const x = this.#x;
    const m = this.#methods.get(method) ?? this.#write(encoder.encode(method));
    const input = encoder.encode(inputJson);
    const scratch = this.#scratchFor(input.length);
    new Uint8Array(x.memory.buffer, scratch.ptr, input.length).set(input);
    const packed = BigInt.asUintN(64, x.lspseam_call(m.ptr, m.len, scratch.ptr, input.length));
    const ptr = Number(packed >> 32n);
    const len = Number(packed & 0xffffffffn);
    // Re-read memory.buffer: the call may have grown (and so detached) it.
    const text = decoder.decode(new Uint8Array(x.memory.buffer, ptr, len));
    x.lspseam_free(ptr);
    // The ABI's own method names stay written; any other name is freed.
    if (KNOWN_METHODS.has(method)) this.#methods.set(method, m);
    else x.lspseam_free(m.ptr);
    return text;
  }

  /** Allocates a buffer in the module and writes bytes into it. */
  #write(bytes: Uint8Array): Region {
    const ptr = this.#x.lspseam_alloc(bytes.length);
    new Uint8Array(this.#x.memory.buffer, ptr, bytes.length).set(bytes);
    return { ptr, len: bytes.length };
  }

  #scratchFor(size: number): Region {
    if (size > this.#scratch.len || this.#scratch.ptr === 0) {
      if (this.#scratch.ptr !== 0) this.#x.lspseam_free(this.#scratch.ptr);
      let capacity = 4096;
      while (capacity < size) capacity *= 2;
      this.#scratch = { ptr: this.#x.lspseam_alloc(capacity), len: capacity };
    }
    return this.#scratch;
  }

  /** Runs a method on a value and returns its ok value; an error envelope throws LspError. */
  invoke<M extends AbiMethod>(method: M, input: AbiMethods[M]['input']): AbiMethods[M]['output'] {
    let json: string | undefined;
    try {
      json = JSON.stringify(input);
    } catch (err) {
      throw new LspError('LSP_INVALID_ARGUMENT', `${method}: the input cannot be encoded as JSON: ${String(err)}`, { cause: err });
    }
    if (json === undefined) {
      throw new LspError('LSP_INVALID_ARGUMENT', `${method}: the input must be a JSON value, got ${typeof input}`);
    }
    return this.invokeRaw(method, json);
  }

  /** Runs a method on an input already encoded as JSON text; returns its ok value or throws LspError. */
  invokeRaw<M extends AbiMethod>(method: M, inputJson: string): AbiMethods[M]['output'] {
    return unwrap<AbiMethods[M]['output']>(this.call(method, inputJson));
  }

  toolDefinition(): ToolDefinition {
    return this.invoke('toolDefinition', {});
  }
  /** Validates a model's raw arguments (one-based) into a zero-based tool call. */
  parseToolArgs(args: unknown): ToolCall {
    return this.invoke('parseToolArgs', args);
  }
  normalizeProvider(provider: NormalizeProviderInput): ProviderSpec {
    return this.invoke('normalizeProvider', provider);
  }
  checkProviders(input: CheckProvidersInput): CheckProvidersOutput {
    return this.invoke('checkProviders', input);
  }
  selectProvider(input: SelectProviderInput): Selection {
    return this.invoke('selectProvider', input);
  }
  initializeParams(input: InitializeParamsInput): InitializeParams {
    return this.invoke('initializeParams', input);
  }
  negotiate(input: NegotiateInput): Negotiation {
    return this.invoke('negotiate', input);
  }
  /** Throws LSP_UNSUPPORTED_SYNC / LSP_UNSUPPORTED_OPERATION when the server cannot serve the operation. */
  checkOperation(input: CheckOperationInput): void {
    this.invoke('checkOperation', input);
  }
  request(input: RequestInput): LspRequest {
    return this.invoke('request', input);
  }
  /** Normalizes a server's raw result; omit `result` for a response that had none. */
  translate(input: TranslateInput): LspQueryResult {
    return this.invoke('translate', input);
  }
  render(input: RenderInput): Rendered {
    return this.invoke('render', input);
  }
  /** translate then render in one call into the module. */
  translateRender(input: TranslateRenderInput): TranslatedRendered {
    return this.invoke('translateRender', input);
  }
  /** The UI card for a model's raw arguments. */
  present(args: unknown): PresentationCard {
    return this.invoke('present', args);
  }
  serverRequest(input: ServerRequestInput): ServerReply {
    return this.invoke('serverRequest', input);
  }
  /** Validates a configuration and fills in every default. */
  validateConfig(config: unknown): Config {
    return this.invoke('validateConfig', config);
  }
  /** The watched-file part of a server's client/registerCapability or client/unregisterCapability params. */
  fileWatchers(input: FileWatchersInput): WatchUpdate {
    return this.invoke('fileWatchers', input);
  }
  /** The workspace/didChangeWatchedFiles notifications for a host's recorded changes, and the open documents to re-read. */
  fileChanges(input: FileChangesInput): FileChangesResult {
    return this.invoke('fileChanges', input);
  }
  /**
   * Resolves a model's one-based target in its file's text and raw documentSymbol result.
   * Throws LspError LSP_AMBIGUOUS_TARGET / LSP_TARGET_NOT_FOUND with `candidates` for a symbol.
   */
  resolveTarget(input: ResolveTargetInput): ResolvedTarget {
    return this.invoke('resolveTarget', input);
  }
  /** Plans which lines of which workspace files to read for a server's locations. */
  planSnippets(input: PlanSnippetsInput): SnippetPlan {
    return this.invoke('planSnippets', input);
  }
  /** Builds and renders the code locations from the lines the host read for planSnippets' plan. */
  codeLocations(input: CodeLocationsInput): CodeLocations {
    return this.invoke('codeLocations', input);
  }
  /** Flattens a file's raw documentSymbol result and places its names on the text: once per version of the file. */
  flattenSymbols(input: FlattenSymbolsInput): Outline {
    return this.invoke('flattenSymbols', input);
  }
  /**
   * The definitions of the tools of the given toolsets (every toolset when
   * none), the lsp tool first. An unknown toolset is LSP_INVALID_ARGUMENT.
   */
  toolDefinitions(input: ToolDefinitionsInput = {}): CatalogToolDefinition[] {
    return this.invoke('toolDefinitions', input);
  }
  /** Validates a model's arguments to a code tool (LSP_INVALID_ARGUMENT says what to fix). */
  parseCodeArgs(input: ParseCodeArgsInput): CodeCall {
    return this.invoke('parseCodeArgs', input);
  }
  /** Builds a code tool's LSP request (LSP_UNSUPPORTED_OPERATION when the server lacks the method). */
  codeRequest(input: CodeRequestInput): CodeRequest {
    return this.invoke('codeRequest', input);
  }
  /** A documentSymbol result as an outline, or a workspace/symbol result as matches, with their text. */
  codeSymbols(input: CodeSymbolsInput): CodeSymbols {
    return this.invoke('codeSymbols', input);
  }
  /** A hover (and signatureHelp) result flattened to the signature and the first documentation paragraph. */
  codeHover(input: CodeHoverInput): CodeHover {
    return this.invoke('codeHover', input);
  }
  /** An inlayHint result, sorted, with its text. */
  inlayHints(input: InlayHintsInput): InlayHints {
    return this.invoke('inlayHints', input);
  }
  /** One step of a call or type hierarchy traversal: the graph so far and the nodes to expand next. */
  hierarchy(input: HierarchyInput): HierarchyGraph {
    return this.invoke('hierarchy', input);
  }
  /** The edit tool's matcher: a literal replacement in a file's text (unique unless replaceAll), line endings and BOM kept. */
  editText(input: EditTextInput): EditTextResult {
    return this.invoke('editText', input);
  }
  /** The read tool's projection: numbered lines of a window of a file, with a pagination footer. */
  readView(input: ReadViewInput): ReadView {
    return this.invoke('readView', input);
  }
  /** A diagnostics snapshot: problems sorted errors first, counts, coverage and status. */
  diagnostics(input: DiagnosticsInput): DiagnosticsSnapshot {
    return this.invoke('diagnostics', input);
  }
  /** What a change introduced, resolved and left, per file, through the change's line mapping. */
  diagnosticsDelta(input: DiagnosticsDeltaInput): DiagnosticsDeltaResult {
    return this.invoke('diagnosticsDelta', input);
  }
  /** TextEdits applied to a document's text, with a unified diff. */
  applyTextEdits(input: ApplyTextEditsInput): AppliedTextEdits {
    return this.invoke('applyTextEdits', input);
  }
  /** A WorkspaceEdit planned: the files' edits in order, resource operations, URIs outside the workspace. */
  planWorkspaceEdit(input: PlanWorkspaceEditInput): WorkspaceEditPlan {
    return this.invoke('planWorkspaceEdit', input);
  }
  /** The TextEdit of an insertion or replacement at a resolved target. */
  targetEdit(input: TargetEditInput): TextEditValue {
    return this.invoke('targetEdit', input);
  }
  /** The requests that ask a server for a document's diagnostics through its diagnostics command. */
  commandDiagnosticsRequests(input: CommandDiagnosticsRequestsInput): CommandDiagnosticsRequests {
    return this.invoke('commandDiagnosticsRequests', input);
  }
  /** The server's answers to those requests as the LSP Diagnostic[] it would publish. */
  commandDiagnostics(input: CommandDiagnosticsInput): CommandDiagnostics {
    return this.invoke('commandDiagnostics', input);
  }
}

const KNOWN_METHODS = new Set<string>([
  'toolDefinition',
  'parseToolArgs',
  'normalizeProvider',
  'checkProviders',
  'selectProvider',
  'initializeParams',
  'negotiate',
  'checkOperation',
  'request',
  'translate',
  'render',
  'translateRender',
  'present',
  'serverRequest',
  'validateConfig',
  'fileWatchers',
  'fileChanges',
  'resolveTarget',
  'planSnippets',
  'codeLocations',
  'flattenSymbols',
  'toolDefinitions',
  'parseCodeArgs',
  'codeRequest',
  'codeSymbols',
  'codeHover',
  'inlayHints',
  'hierarchy',
  'editText',
  'readView',
  'diagnostics',
  'diagnosticsDelta',
  'applyTextEdits',
  'planWorkspaceEdit',
  'targetEdit',
  'commandDiagnosticsRequests',
  'commandDiagnostics',
] satisfies AbiMethod[]);

/** Decodes an envelope: the ok value, or a thrown LspError. */
export function unwrap<T>(envelope: string): T {
  const env = JSON.parse(envelope) as Envelope<T>;
  if ('error' in env) {
    const { code, message, ...fields } = env.error;
    throw new LspError(code, message, fields);
  }
  return env.ok;
}
