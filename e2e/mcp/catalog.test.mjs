// The code tools through `lspseam mcp`, driven by the official MCP
// TypeScript SDK client against the real language servers (.tools/bin):
// tools/list offers the lsp tool and the five code tools with the core's
// schemas, and the cases of testdata/workspaces/catalog.json marked "mcp"
// (at least one per tool and per language, an ambiguous target among them)
// answer with the recorded structuredContent. The shim runs on its presets
// (no --config), which turn on gopls's and tsserver's inlay hints.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const toolsBin = join(repoRoot, '.tools', 'bin');
const workspaces = join(repoRoot, 'testdata', 'workspaces');
const catalog = JSON.parse(readFileSync(join(workspaces, 'catalog.json'), 'utf8')).cases;
// The catalog's read tools (code_diagnostics, also in the code toolset, is covered by verify.test.mjs).
const codeTools = ['code_symbols', 'code_navigate', 'code_hover', 'code_hierarchy', 'code_inlay_hints'];
let tmp, shim;

before(() => {
  for (const server of ['gopls', 'typescript-language-server', 'pyright-langserver', 'clangd']) {
    assert.ok(existsSync(join(toolsBin, server)), `${server} is not installed in ${toolsBin}: run \`make servers\``);
  }
  tmp = mkdtempSync(join(tmpdir(), 'lspseam-mcp-catalog-'));
  // LSPSEAM_BIN (e.g. bin/lspseam from `make build`), else a fresh build.
  shim = process.env.LSPSEAM_BIN || join(tmp, 'lspseam');
  if (!process.env.LSPSEAM_BIN) {
    execFileSync('go', ['build', '-o', shim, './cmd/shim'], { cwd: repoRoot, stdio: 'inherit' });
  }
  // clangd indexes the C fixture only with a compilation database naming its absolute paths.
  execFileSync('sh', [join(workspaces, 'c', 'gen-compile-commands.sh')], { stdio: 'inherit' });
});
after(() => tmp && rmSync(tmp, { recursive: true, force: true }));

async function connect(args) {
  const client = new Client({ name: 'lspseam-e2e-catalog', version: '0.0.0' }, { capabilities: {} });
  const transport = new StdioClientTransport({
    command: shim,
    args: ['mcp', ...args],
    cwd: tmp,
    env: { ...process.env, PATH: `${toolsBin}:${process.env.PATH}`, LSPSEAM_CACHE_DIR: join(tmp, 'cache'), LSPSEAM_DAEMON: 'off' },
    stderr: 'inherit',
  });
  await client.connect(transport);
  return client;
}

const text = (res) => res.content.filter((c) => c.type === 'text').map((c) => c.text).join('');

// derive reduces a structured answer to the compact form catalog.json
// records (testdata/workspaces/README.md, "Code tools"): the same function
// as deriveCatalog in e2e/catalog_test.go.
const loc = (o) => `${o.path}:${o.line}:${o.column}`;
const qualified = (o, name) => (o.container ? `${o.container}.` : '') + o[name];
function derive(tool, s) {
  const e = {};
  if (!s.ok) {
    e.error = s.error.code;
    if (s.candidates?.length) e.candidates = s.candidates.map((c) => `${c.qualifiedName} ${c.kind} ${loc(c)}`);
    return e;
  }
  if (s.target) {
    e.target = `${loc(s.target)} ${s.target.identifier}`;
    if (s.target.by === 'symbol') e.targetSymbol = s.target.symbol;
  }
  switch (tool) {
    case 'code_navigate':
      e.locations = s.locations.map((l) => ({ at: loc(l), snippet: l.snippet, ...(l.symbol ? { in: qualified(l, 'symbol') } : {}) }));
      e.totalFound = s.totalFound;
      if ('notice' in s) e.notice = true;
      break;
    case 'code_symbols':
      if (s.mode === 'document') {
        const outline = [];
        const walk = (syms, d) => {
          for (const x of syms) {
            outline.push(`${'  '.repeat(d)}${x.kind} ${qualified(x, 'name')} ${x.line}:${x.column}-${x.endLine}`);
            walk(x.children ?? [], d + 1);
          }
        };
        walk(s.symbols, 0);
        e.outline = outline;
      } else {
        const ws = s.symbols.filter((x) => !x.path.startsWith('/')).map((x) => `${x.kind} ${qualified(x, 'name')} ${loc(x)}`);
        e.workspaceSymbols = ws;
        if (ws.length === s.symbols.length) e.totalFound = s.totalFound;
      }
      break;
    case 'code_hierarchy':
      e.nodes = s.nodes.map((n) => `${n.id} depth=${n.depth}${n.cycle ? ' cycle' : ''}${n.unexpanded ? ` unexpanded=${n.unexpanded}` : ''}`);
      e.edges = s.edges.map((x) => `${x.from} -> ${x.to}${x.callSites?.length ? ' @ ' + x.callSites.map(loc).join(', ') : ''}${x.cycle ? ' cycle' : ''}`);
      e.failures = s.failures.map((f) => `${f.id} ${f.message.split(':')[0]}`);
      break;
    case 'code_hover':
      e.text = s.text;
      if (s.signature) e.signature = s.signature;
      break;
    case 'code_inlay_hints':
      e.hints = s.hints.map((h) => `${h.line}:${h.column} ${h.label} ${h.kind}`);
      e.totalFound = s.totalFound;
      break;
  }
  return e;
}

// Keys compared as sets, as in the Go test.
const setKeys = new Set(['locations', 'workspaceSymbols', 'nodes', 'edges', 'failures']);
const bySet = (list) => list.map((x) => JSON.stringify(x)).sort();

function check(c, res) {
  const s = res.structuredContent;
  assert.ok(s && typeof s === 'object', `${c.id}: no structuredContent: ${text(res)}`);
  assert.equal(Boolean(res.isError), Boolean(c.expect.error), `${c.id}: isError: ${text(res)}`);
  assert.equal(s.ok, !c.expect.error, c.id);
  assert.equal(s.incomplete, undefined, `${c.id}: incomplete: ${s.incomplete}`);
  if (c.expect.error) {
    assert.ok(text(res).startsWith(`${c.expect.error}: `), `${c.id}: ${text(res)}`);
    for (const frag of c.expect.errorContains ?? []) assert.ok(s.error.message.includes(frag), `${c.id}: ${s.error.message} lacks ${frag}`);
  } else {
    assert.equal(s.tool, c.tool, c.id);
    assert.ok(text(res).length > 0, c.id);
  }
  const { errorContains, ...want } = c.expect;
  const got = derive(c.tool, s);
  assert.deepEqual(Object.keys(got).sort(), Object.keys(want).sort(), `${c.id}: keys`);
  for (const k of Object.keys(want)) {
    if (setKeys.has(k)) assert.deepEqual(bySet(got[k]), bySet(want[k]), `${c.id}: ${k}`);
    else assert.deepEqual(got[k], want[k], `${c.id}: ${k}`);
  }
}

test('the catalog marks at least one MCP case per tool and per language, an ambiguous target among them', () => {
  const mcp = catalog.filter((c) => c.mcp);
  for (const tool of codeTools) assert.ok(mcp.some((c) => c.tool === tool), `no MCP case for ${tool}`);
  for (const ws of ['go', 'ts', 'py', 'c']) {
    const mine = mcp.filter((c) => c.workspace === ws);
    for (const tool of codeTools) assert.ok(mine.some((c) => c.tool === tool), `no MCP case for ${tool} in ${ws}`);
  }
  assert.ok(mcp.some((c) => c.expect.error === 'LSP_AMBIGUOUS_TARGET'));
});

test('tools/list: the lsp tool and the five code tools, with the core\'s schemas', { timeout: 60_000 }, async () => {
  const defs = JSON.parse(execFileSync(shim, ['tools', '--format', 'json'], { encoding: 'utf8' }));
  const client = await connect(['--workspace', join(workspaces, 'go')]);
  try {
    const { tools } = await client.listTools();
    // The order is the MCP server library's (by name), not the core's.
    assert.deepEqual(tools.map((t) => t.name).sort(), ['lsp', 'code_diagnostics', ...codeTools].sort());
    for (const t of tools.filter((t) => t.name !== 'lsp')) {
      const def = defs.find((d) => d.name === t.name);
      assert.ok(def, `${t.name} not in lspseam tools`);
      assert.deepEqual(t.inputSchema, def.inputSchema, `${t.name}: schema`);
      // The core's description; what the workspace's census found is said
      // once, after the lsp tool's (and in the handshake's instructions).
      assert.equal(t.description, def.description, `${t.name}: description`);
      assert.equal(t.annotations?.readOnlyHint, true, `${t.name}: readOnlyHint`);
    }
    const lsp = tools.find((t) => t.name === 'lsp');
    const lspDef = defs.find((d) => d.name === 'lsp');
    assert.ok(lsp.description.startsWith(lspDef.description), 'lsp: description');
    assert.match(lsp.description.slice(lspDef.description.length), /^\n\nIn this workspace, served: [^\n]*Go[^\n]*\.$/, 'lsp: the census note');
    // target and kind, or a next page's cursor alone (answers cut at limit give one).
    const nav = tools.find((t) => t.name === 'code_navigate').inputSchema;
    assert.deepEqual(nav.anyOf, [{ required: ['target', 'kind'] }, { required: ['cursor'] }]);
    assert.equal(nav.properties.cursor.type, 'string');
    assert.deepEqual(tools.find((t) => t.name === 'code_hierarchy').inputSchema.properties.kind.enum, ['callers', 'callees', 'supertypes', 'subtypes']);
  } finally {
    await client.close();
  }
});

for (const ws of ['go', 'ts', 'py', 'c']) {
  test(`real servers: the ${ws} catalog cases through MCP`, { timeout: 300_000 }, async () => {
    const cases = catalog.filter((c) => c.mcp && c.workspace === ws);
    const client = await connect(['--workspace', join(workspaces, ws)]);
    try {
      for (const c of cases) {
        let res = await client.callTool({ name: c.tool, arguments: c.arguments }, undefined, { timeout: 120_000 });
        // A fresh server's first answer may say it is incomplete (the Go
        // test checks those): ask once more.
        if (res.structuredContent?.incomplete) res = await client.callTool({ name: c.tool, arguments: c.arguments }, undefined, { timeout: 120_000 });
        check(c, res);
        if (c.expect.error === 'LSP_AMBIGUOUS_TARGET') {
          assert.equal(res.structuredContent.ambiguous, true, c.id);
          // The text lists the candidates a model can call again with.
          for (const cand of res.structuredContent.candidates) assert.ok(text(res).includes(`\`${cand.qualifiedName}\``), `${c.id}: ${text(res)}`);
        }
      }
    } finally {
      await client.close();
    }
  });
}
