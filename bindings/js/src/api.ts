// What both entry points export: the types, the errors, Core, the
// top-level functions over the instance init() loaded, and the tool.

import { getCore } from './init.js';
import type {
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
  WatchUpdate,
} from './types.js';

export type * from './types.js';
export { LspError, isLspError, LSP_ERROR_CODES } from './errors.js';
export { Core, ABI_VERSION, unwrap } from './core.js';
export { getCore } from './init.js';
export { createLspTool } from './tool.js';
export { createTools, DEFAULT_TOOLSETS } from './tools.js';
export { fileUri } from './uri.js';

/** Runs an ABI method on a JSON input; returns the module's envelope byte for byte. */
export const call = (method: string, inputJson: string): string => getCore(`call('${method}')`).call(method, inputJson);

export const toolDefinition = (): ToolDefinition => getCore('toolDefinition()').toolDefinition();
export const parseToolArgs = (args: unknown): ToolCall => getCore('parseToolArgs()').parseToolArgs(args);
export const normalizeProvider = (provider: NormalizeProviderInput): ProviderSpec =>
  getCore('normalizeProvider()').normalizeProvider(provider);
export const checkProviders = (input: CheckProvidersInput): CheckProvidersOutput => getCore('checkProviders()').checkProviders(input);
export const selectProvider = (input: SelectProviderInput): Selection => getCore('selectProvider()').selectProvider(input);
export const initializeParams = (input: InitializeParamsInput): InitializeParams =>
  getCore('initializeParams()').initializeParams(input);
export const negotiate = (input: NegotiateInput): Negotiation => getCore('negotiate()').negotiate(input);
export const checkOperation = (input: CheckOperationInput): void => getCore('checkOperation()').checkOperation(input);
export const request = (input: RequestInput): LspRequest => getCore('request()').request(input);
export const translate = (input: TranslateInput): LspQueryResult => getCore('translate()').translate(input);
export const render = (input: RenderInput): Rendered => getCore('render()').render(input);
export const translateRender = (input: TranslateRenderInput): TranslatedRendered =>
  getCore('translateRender()').translateRender(input);
export const present = (args: unknown): PresentationCard => getCore('present()').present(args);
export const serverRequest = (input: ServerRequestInput): ServerReply => getCore('serverRequest()').serverRequest(input);
export const validateConfig = (config: unknown): Config => getCore('validateConfig()').validateConfig(config);
export const fileWatchers = (input: FileWatchersInput): WatchUpdate => getCore('fileWatchers()').fileWatchers(input);
export const fileChanges = (input: FileChangesInput): FileChangesResult => getCore('fileChanges()').fileChanges(input);
export const resolveTarget = (input: ResolveTargetInput): ResolvedTarget => getCore('resolveTarget()').resolveTarget(input);
export const planSnippets = (input: PlanSnippetsInput): SnippetPlan => getCore('planSnippets()').planSnippets(input);
export const codeLocations = (input: CodeLocationsInput): CodeLocations => getCore('codeLocations()').codeLocations(input);
export const flattenSymbols = (input: FlattenSymbolsInput): Outline => getCore('flattenSymbols()').flattenSymbols(input);
export const toolDefinitions = (input: ToolDefinitionsInput = {}): CatalogToolDefinition[] =>
  getCore('toolDefinitions()').toolDefinitions(input);
export const parseCodeArgs = (input: ParseCodeArgsInput): CodeCall => getCore('parseCodeArgs()').parseCodeArgs(input);
export const codeRequest = (input: CodeRequestInput): CodeRequest => getCore('codeRequest()').codeRequest(input);
export const codeSymbols = (input: CodeSymbolsInput): CodeSymbols => getCore('codeSymbols()').codeSymbols(input);
export const codeHover = (input: CodeHoverInput): CodeHover => getCore('codeHover()').codeHover(input);
export const inlayHints = (input: InlayHintsInput): InlayHints => getCore('inlayHints()').inlayHints(input);
export const hierarchy = (input: HierarchyInput): HierarchyGraph => getCore('hierarchy()').hierarchy(input);
export const editText = (input: EditTextInput): EditTextResult => getCore('editText()').editText(input);
export const readView = (input: ReadViewInput): ReadView => getCore('readView()').readView(input);
export const diagnostics = (input: DiagnosticsInput): DiagnosticsSnapshot => getCore('diagnostics()').diagnostics(input);
export const diagnosticsDelta = (input: DiagnosticsDeltaInput): DiagnosticsDeltaResult => getCore('diagnosticsDelta()').diagnosticsDelta(input);
export const applyTextEdits = (input: ApplyTextEditsInput): AppliedTextEdits => getCore('applyTextEdits()').applyTextEdits(input);
export const planWorkspaceEdit = (input: PlanWorkspaceEditInput): WorkspaceEditPlan => getCore('planWorkspaceEdit()').planWorkspaceEdit(input);
export const targetEdit = (input: TargetEditInput): TextEditValue => getCore('targetEdit()').targetEdit(input);
export const commandDiagnosticsRequests = (input: CommandDiagnosticsRequestsInput): CommandDiagnosticsRequests =>
  getCore('commandDiagnosticsRequests()').commandDiagnosticsRequests(input);
export const commandDiagnostics = (input: CommandDiagnosticsInput): CommandDiagnostics =>
  getCore('commandDiagnostics()').commandDiagnostics(input);

