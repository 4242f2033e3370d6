// Tokens of `lspseam mcp`'s tools/list, per toolset, counted with the
// o200k_base tokenizer (gpt-tokenizer): what every prompt of a session
// pays for the tool definitions. Token counts are deterministic, so
// tokens.test.mjs asserts the budget and `make bench` prints the table.
//
//   LSPSEAM_BIN=bin/lspseam node e2e/mcp/tokens.mjs
//   LSPSEAM_BIN_BASE=/tmp/old-lspseam LSPSEAM_BIN=bin/lspseam node e2e/mcp/tokens.mjs   (before → after)
//
// Two figures per listing: "model", the name, description and inputSchema
// of each tool (what clients turn into the model's function definitions),
// and "listing", the tools array as the server sends it (titles and
// annotations included). The workspace is the Go fixture, so the census
// note ("In this workspace, served: Go.") is counted as a client sees it.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const goWorkspace = join(repoRoot, 'testdata', 'workspaces', 'go');

// The listings measured: each toolset alone, the default, everything.
export const selections = [
  { name: 'lsp', tools: 'lsp' },
  { name: 'code', tools: 'code' },
  { name: 'fs', tools: 'fs' },
  { name: 'refactor', tools: 'refactor' },
  { name: 'default (lsp,code)', tools: null },
  { name: 'all', tools: 'lsp,code,fs,refactor' },
];

export const countTokens = (value) => encode(typeof value === 'string' ? value : JSON.stringify(value)).length;

// listTools starts `shim mcp` on the Go fixture with --tools (null: the
// default) and --profile (null: the default) and returns the listing and
// the handshake's instructions.
export async function listTools(shim, { tools = null, profile = null } = {}) {
  const args = ['mcp', '--workspace', goWorkspace];
  if (tools) args.push('--tools', tools);
  if (profile) args.push('--profile', profile);
  const client = new Client({ name: 'lspseam-tokens', version: '0.0.0' });
  const env = { ...process.env, PATH: `${join(repoRoot, '.tools', 'bin')}:${process.env.PATH}`, LSPSEAM_DAEMON: 'off' };
  await client.connect(new StdioClientTransport({ command: shim, args, cwd: goWorkspace, env, stderr: 'ignore' }));
  try {
    const { tools: listed } = await client.listTools();
    return { tools: listed, instructions: client.getInstructions() ?? '' };
  } finally {
    await client.close();
  }
}

// measure counts one listing: the model's view and the whole array.
export function measure(tools) {
  const model = tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
  return { model: countTokens(model), listing: countTokens(tools) };
}

async function table(shim, withCompact) {
  const rows = {};
  for (const sel of selections) {
    const standard = measure((await listTools(shim, { tools: sel.tools })).tools);
    // A build without --profile would serve its start problem, not the
    // compact listing: the compact column is measured for the build under test only.
    const compact = withCompact ? measure((await listTools(shim, { tools: sel.tools, profile: 'compact' })).tools) : null;
    rows[sel.name] = { standard, compact };
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const shim = process.env.LSPSEAM_BIN || join(repoRoot, 'bin', 'lspseam');
  const base = process.env.LSPSEAM_BIN_BASE;
  const after = await table(shim, true);
  const before = base ? await table(base, false) : null;
  console.log(`tools/list tokens (o200k_base), Go workspace; model = name+description+inputSchema, listing = the tools array as sent${base ? `; before: ${base}` : ''}`);
  console.log(['toolsets', ...(before ? ['before model', 'before listing'] : []), 'model', 'listing', 'compact listing'].join('\t'));
  for (const sel of selections) {
    const a = after[sel.name];
    const b = before?.[sel.name];
    console.log([sel.name, ...(b ? [b.standard.model, b.standard.listing] : []), a.standard.model, a.standard.listing, a.compact?.listing ?? '-'].join('\t'));
  }
}
