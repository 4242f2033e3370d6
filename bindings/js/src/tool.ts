// createLspTool: the model-facing `lsp` tool for agent harnesses. Arguments
// are parsed, results rendered and cards built by the core module; the query
// itself goes to a client (ShimClient, or any LspQueryClient).

import type { Core } from './core.js';
import { Budget } from './budget.js';
import { LspError } from './errors.js';
import { getCore } from './init.js';
import { jsonProblem } from './jsonargs.js';
import type { LspQueryRequest, LspQueryResult, LspTool, LspToolOptions, LspToolResult } from './types.js';
import { fileUri } from './uri.js';

export const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * Builds the `lsp` tool. Call init() first: the name, description and input
 * schema come from the core module. `execute(args)` takes the model's raw
 * arguments (an object, or its JSON text as OpenAI's `function.arguments`).
 */
export function createLspTool(options: LspToolOptions & { core?: Core }): LspTool {
  const core = options.core ?? getCore('createLspTool()');
  const { name, description, inputSchema } = core.toolDefinition();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
    throw new LspError('LSP_INVALID_ARGUMENT', `createLspTool: timeoutMs must be a positive integer (milliseconds), got ${String(timeoutMs)}`);
  }
  return {
    name,
    description,
    inputSchema,
    execute: (args, { signal } = {}) => execute(core, options, timeoutMs, args, signal),
  };
}

async function execute(core: Core, options: LspToolOptions, timeoutMs: number, args: unknown, signal?: AbortSignal): Promise<LspToolResult> {
  const { client, workspaceRoot, limits = {} } = options;
  if (!workspaceRoot) {
    throw new LspError('LSP_WORKSPACE_REQUIRED', 'lsp: no workspace root: the harness must pass its session workspace (workspaceRoot) to createLspTool');
  }
  if (signal?.aborted) throw new LspError('LSP_CANCELLED', 'lsp: the call was cancelled before it started');

  // Arguments JSON cannot carry (a BigInt, a cycle) are an argument error
  // like any other the core finds, not a failure of the query.
  const unserializable = typeof args === 'string' ? undefined : jsonProblem(args ?? null);
  if (unserializable) {
    throw new LspError(
      'LSP_INVALID_ARGUMENT',
      `lsp: the arguments cannot be sent as JSON (${unserializable}); send one JSON object {operation, file_path, line, character} with line and character as plain one-based numbers (not BigInt) and no object inside itself`,
    );
  }
  const deadline = Date.now() + timeoutMs;
  const budget = new Budget('lsp', 'query', timeoutMs, signal);
  try {
    const raw = typeof args === 'string' ? args : JSON.stringify(args ?? null);
    const call = core.invokeRaw('parseToolArgs', raw);
    // The model wrote one-based lines and columns: a position error says
    // those back (serve's default is the zero-based numbers as sent).
    const request: LspQueryRequest = { ...call, workspaceRoot, timeoutMs: Math.max(1, deadline - Date.now()), positionTerms: 'one-based' };
    const value: LspQueryResult = await budget.race(client.query(request, { signal: budget.signal }));
    const rendered = core.render({ result: value, workspaceUri: value.workspaceUri ?? fileUri(workspaceRoot), ...limits });
    return { text: rendered.text, value, presentation: core.invokeRaw('present', raw), rendered };
  } catch (err) {
    throw budget.explain(err);
  } finally {
    budget.dispose();
  }
}
