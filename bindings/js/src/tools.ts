// createTools: a tool object for every tool of the chosen toolsets (the lsp
// tool and the code_* tools). Names, descriptions and input schemas come
// from the core module (toolDefinitions); each call goes to a client
// (ShimClient's tools/call, or any ToolCallClient), which runs the tool and
// answers as a model reads it: text, the structured answer, isError.

import { Budget } from './budget.js';
import type { Core } from './core.js';
import { LspError } from './errors.js';
import { getCore } from './init.js';
import { jsonProblem } from './jsonargs.js';
import { DEFAULT_TIMEOUT_MS } from './tool.js';
import type { AnyCatalogTool, CatalogTool, CatalogToolDefinition, CreateToolsOptions, ToolName, ToolResult, Toolset } from './types.js';

/** The toolsets createTools offers unless told otherwise. */
export const DEFAULT_TOOLSETS: readonly Toolset[] = Object.freeze(['lsp', 'code'] as Toolset[]);

/**
 * Builds one tool object per tool of `toolsets` (default ["lsp", "code"]),
 * in the core's order (lsp first). Call init() first: the definitions come
 * from the core module; an unknown toolset is LSP_INVALID_ARGUMENT.
 * `execute(args)` takes the model's raw arguments (an object, or its JSON
 * text as OpenAI's `function.arguments`) and resolves with the tool's
 * answer, failures included (`isError: true`, the text says what to do);
 * it rejects only when the call itself could not run: LSP_WORKSPACE_REQUIRED,
 * LSP_CANCELLED, LSP_TIMEOUT, or the client's transport failure.
 */
export function createTools(options: CreateToolsOptions & { core?: Core }): AnyCatalogTool[] {
  const core = options.core ?? getCore('createTools()');
  const client = options.client as unknown;
  if (typeof client !== 'object' || client === null || typeof (client as { callTool?: unknown }).callTool !== 'function') {
    throw new LspError(
      'LSP_INVALID_ARGUMENT',
      'createTools: client must have callTool(name, args, workspaceRoot, { signal, timeoutMs }): pass a ShimClient (or your own ToolCallClient)',
    );
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
    throw new LspError('LSP_INVALID_ARGUMENT', `createTools: timeoutMs must be a positive integer (milliseconds), got ${String(timeoutMs)}`);
  }
  if (options.toolsets !== undefined && !Array.isArray(options.toolsets)) {
    throw new LspError('LSP_INVALID_ARGUMENT', `createTools: toolsets must be an array of toolset names (lsp, code), got ${JSON.stringify(options.toolsets)}`);
  }
  const toolsets = options.toolsets ?? DEFAULT_TOOLSETS;
  // An empty list would mean "every toolset" to the core; here it offers nothing.
  const defs = toolsets.length === 0 ? [] : core.toolDefinitions({ toolsets });
  return defs.map((def) => tool(def, options, timeoutMs));
}

function tool(def: CatalogToolDefinition, options: CreateToolsOptions, timeoutMs: number): AnyCatalogTool {
  const { name, title, toolset, description, inputSchema, readOnly } = def;
  const t: CatalogTool<ToolName> = {
    name,
    title,
    toolset,
    description,
    inputSchema,
    readOnly,
    execute: (args, { signal } = {}) => execute(name, options, timeoutMs, args, signal),
  };
  return t as AnyCatalogTool;
}

// The part of the budget left to the shim's own timeout, so that its
// answer (an isError LSP_TIMEOUT saying how far the call got) normally
// arrives before this side gives up on the transport.
const TRANSPORT_GRACE_MS = 2_000;

async function execute(name: ToolName, options: CreateToolsOptions, timeoutMs: number, args: unknown, signal?: AbortSignal): Promise<ToolResult> {
  const { client, workspaceRoot } = options;
  if (!workspaceRoot) {
    throw new LspError('LSP_WORKSPACE_REQUIRED', `${name}: no workspace root: the harness must pass its session workspace (workspaceRoot) to createTools`);
  }
  if (signal?.aborted) throw new LspError('LSP_CANCELLED', `${name}: the call was cancelled before it started`);

  let value: unknown = args ?? {};
  if (typeof args === 'string') {
    try {
      value = JSON.parse(args);
    } catch (err) {
      // The model wrote arguments that are not JSON: an answer it can act on.
      return invalidArguments(`${name}: the arguments are not valid JSON (${(err as Error).message}); send one JSON object matching the tool's input schema`);
    }
  } else {
    // A harness's own code can pass what JSON cannot carry (a BigInt, a
    // cycle); the client would fail serializing it, which reads as a
    // transport failure (a dead shim). It is an argument error.
    const unserializable = jsonProblem(value);
    if (unserializable) {
      return invalidArguments(`${name}: the arguments cannot be sent as JSON (${unserializable}); send one JSON object matching the tool's input schema, with numbers as plain numbers (not BigInt) and no object inside itself`);
    }
  }
  const budget = new Budget(name, 'call', timeoutMs, signal, TRANSPORT_GRACE_MS);
  try {
    const result = await budget.race(client.callTool(name, value, workspaceRoot, { signal: budget.signal, timeoutMs }));
    return result;
  } catch (err) {
    throw budget.explain(err);
  } finally {
    budget.dispose();
  }
}

function invalidArguments(message: string): ToolResult {
  return { text: `LSP_INVALID_ARGUMENT: ${message}`, structured: { ok: false, error: { code: 'LSP_INVALID_ARGUMENT', message } }, isError: true };
}
