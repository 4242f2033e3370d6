// A minimal agent harness using the lspseam npm package: it offers the `lsp`
// tool to a model in the OpenAI tools shape, runs the model's tool calls
// through the real shim and prints the tool messages it would send back.
// The "model" here is scripted. Type-checked with `tsc --strict --noEmit`;
// run (after tsc) as:
//
//   node .build/harness.js WORKSPACE_ROOT CONFIG_FILE [SHIM_PATH]
import { createLspTool, init, isLspError, ShimClient, type LspTool, type LspToolResult } from 'lspseam';

/** A tool call as OpenAI's chat completions API returns it. */
interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** The message a harness sends back for one tool call. */
interface ToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

/** The tools array of a chat completions request. */
function openAITools(tool: LspTool) {
  return [{ type: 'function' as const, function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } }];
}

async function runToolCall(tool: LspTool, call: ToolCall, signal: AbortSignal): Promise<ToolMessage> {
  try {
    const result: LspToolResult = await tool.execute(call.function.arguments, { signal });
    return { role: 'tool', tool_call_id: call.id, content: result.text };
  } catch (err) {
    // Seam failures are answers for the model too: the message says what to do next.
    if (isLspError(err)) return { role: 'tool', tool_call_id: call.id, content: `${err.code}: ${err.message}` };
    throw err;
  }
}

async function main(): Promise<void> {
  const [workspaceRoot, configPath, shimPath] = process.argv.slice(2);
  if (!workspaceRoot || !configPath) {
    console.error('usage: node .build/harness.js WORKSPACE_ROOT CONFIG_FILE [SHIM_PATH]');
    process.exit(2);
  }
  await init();
  const client = new ShimClient({ configPath, ...(shimPath ? { shimPath } : {}) });
  const tool = createLspTool({ client, workspaceRoot, timeoutMs: 60_000 });
  const tools = openAITools(tool);

  // What a model might ask for on the TypeScript fixture.
  const scripted: ToolCall[] = [
    { id: 'call_1', type: 'function', function: { name: 'lsp', arguments: '{"operation":"goToDefinition","file_path":"src/report.ts","line":5,"character":35}' } },
    { id: 'call_2', type: 'function', function: { name: 'lsp', arguments: '{"operation":"findReferences","file_path":"src/main.ts","line":11,"character":25}' } },
    { id: 'call_3', type: 'function', function: { name: 'lsp', arguments: '{"operation":"hover","file_path":"src/report.ts","line":5,"character":35}' } },
    { id: 'call_4', type: 'function', function: { name: 'lsp', arguments: '{"operation":"goToDefinition","file_path":"src/report.ts","line":0,"character":35}' } },
  ];
  const controller = new AbortController();
  try {
    const messages: ToolMessage[] = [];
    for (const call of scripted) {
      if (call.function.name !== tool.name) throw new Error(`unknown tool ${call.function.name}`);
      messages.push(await runToolCall(tool, call, controller.signal));
    }
    console.log(JSON.stringify({ tools, messages }, null, 2));
  } finally {
    await client.dispose();
  }
}

await main();
