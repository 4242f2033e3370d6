// createTools end to end: this package's core + ShimClient (tools/list,
// tools/call) + the real shim (built from cmd/shim) + the real
// typescript-language-server on the TypeScript fixture
// (testdata/workspaces/ts), and on a small workspace with two same-named
// methods in one file for the ambiguous target. The expected answers were
// read off `lspseam call --workspace testdata/workspaces/ts …`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as lspseam from '../dist/node.js';
import { repoRoot } from './helpers.mjs';

const tsls = join(repoRoot, '.tools', 'bin', 'typescript-language-server');
const workspace = join(repoRoot, 'testdata', 'workspaces', 'ts');

let tmp;
let shimPath;
let configPath;
let solids; // a workspace whose src/solids.ts has Cube.volume and Ball.volume
const clients = [];

function newClient(config = configPath) {
  const client = new lspseam.ShimClient({ shimPath, configPath: config });
  clients.push(client);
  return client;
}

const configFor = (command) => `servers:
  typescript:
    command: ${command}
    args: [--stdio]
    extensionToLanguage: {.ts: typescript}
`;

const toolsOf = (client, workspaceRoot = workspace, more = {}) =>
  Object.fromEntries(lspseam.createTools({ client, workspaceRoot, ...more }).map((t) => [t.name, t]));

before(async () => {
  // Fails, never skips: the e2e suite needs the pinned servers.
  assert.ok(existsSync(tsls), `typescript-language-server is not installed at ${tsls}: run \`make servers\` in ${repoRoot}`);
  tmp = mkdtempSync(join(tmpdir(), 'lspseam-js-tools-e2e-'));
  shimPath = join(tmp, 'lspseam');
  execFileSync('go', ['build', '-o', shimPath, './cmd/shim'], { cwd: repoRoot, stdio: 'inherit' });
  configPath = join(tmp, 'lspseam.yaml');
  writeFileSync(configPath, configFor(tsls));

  solids = join(tmp, 'solids');
  mkdirSync(join(solids, 'src'), { recursive: true });
  for (const f of ['tsconfig.json', 'package.json']) copyFileSync(join(workspace, f), join(solids, f));
  writeFileSync(
    join(solids, 'src', 'solids.ts'),
    `/** A cube. */
export class Cube {
  constructor(readonly side: number) {}

  volume(): number {
    return this.side ** 3;
  }
}

/** A ball. */
export class Ball {
  constructor(readonly radius: number) {}

  volume(): number {
    return (4 / 3) * Math.PI * this.radius ** 3;
  }
}

export const total = new Cube(2).volume() + new Ball(1).volume();
`,
  );
  await lspseam.init();
});

after(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

test('the definitions come from the module and match `lspseam tools --format json` and tools/list', async () => {
  // createTools offers lsp and code by default; `lspseam tools` and
  // tools/list without toolsets list every toolset.
  const all = JSON.parse(execFileSync(shimPath, ['tools', '--format', 'json'], { encoding: 'utf8' }));
  const cli = JSON.parse(execFileSync(shimPath, ['tools', '--tools', 'lsp,code', '--format', 'json'], { encoding: 'utf8' }));
  const client = newClient();
  const tools = lspseam.createTools({ client, workspaceRoot: workspace });
  assert.deepEqual(
    tools.map(({ execute, ...def }) => def),
    cli,
  );
  assert.deepEqual(lspseam.toolDefinitions(), all);
  assert.deepEqual(await client.listTools(), all);
  assert.deepEqual(await client.listTools(['lsp', 'code']), cli);
  assert.deepEqual(await client.listTools(['code']), cli.slice(1));
  const code = JSON.parse(execFileSync(shimPath, ['tools', '--tools', 'code', '--format', 'json'], { encoding: 'utf8' }));
  assert.deepEqual(lspseam.createTools({ client, workspaceRoot: workspace, toolsets: ['code'] }).map(({ execute, ...def }) => def), code);
  await assert.rejects(client.listTools(['cod']), (e) => e.code === 'LSP_INVALID_ARGUMENT' && /unknown toolset "cod"/.test(e.message));
});

test('code_navigate references by symbol: the exact locations and snippets', async () => {
  const tools = toolsOf(newClient());
  const out = await tools.code_navigate.execute({ target: { path: 'src/shape.ts', symbol: 'describe' }, kind: 'references', context: 1 });
  assert.equal(out.isError, false, out.text);
  assert.equal(
    out.text,
    [
      'Target: `describe` (function) at src/shape.ts:13:17',
      '6 locations in 3 files:',
      'src/shape.ts',
      '  13:17 (function describe)',
      '    12 |  */',
      '    13 | export function describe(shape: Shape): string {',
      '    14 |   return `${shape.constructor.name} area=${shape.area().toFixed(2)} perimeter=${shape.perimeter().toFixed(2)}`;',
      'src/main.ts',
      '  4:10',
      '  4:22',
      '    3 | import { report } from "./report";',
      '    4 | import { describe as summarize, totalArea, type Shape } from "./shape";',
      '    5 | import { parse as parseLength } from "./units/parse";',
      '  11:25 (in headline)',
      '    10 | ',
      '    11 | export const headline = summarize(circle);',
      '    12 | export const banner = "🚀🚀 total: " + totalArea(all).toFixed(2);',
      'src/report.ts',
      '  1:10',
      '    1 | import { describe, totalArea, type Shape } from "./shape";',
      '    2 | ',
      '  5:35 (function report.lines.shapes.map() callback)',
      '    4 | export function report(shapes: readonly Shape[]): string {',
      '    5 |   const lines = shapes.map((s) => describe(s));',
      '    6 |   lines.push(`total area=${totalArea(shapes).toFixed(2)}`);',
    ].join('\n'),
  );
  const s = out.structured;
  assert.equal(s.ok, true);
  assert.equal(s.tool, 'code_navigate');
  assert.equal(s.kind, 'references');
  assert.deepEqual(s.target, { path: 'src/shape.ts', line: 13, column: 17, identifier: 'describe', symbol: 'describe', kind: 'function', by: 'symbol' });
  assert.equal(s.totalFound, 6);
  assert.equal(s.truncated, false);
  assert.deepEqual(
    s.locations.map((l) => `${l.path}:${l.line}:${l.column}-${l.endLine}:${l.endColumn}`),
    ['src/shape.ts:13:17-13:25', 'src/main.ts:4:10-4:18', 'src/main.ts:4:22-4:31', 'src/main.ts:11:25-11:34', 'src/report.ts:1:10-1:18', 'src/report.ts:5:35-5:43'],
  );
  assert.deepEqual(s.locations[0], {
    path: 'src/shape.ts',
    line: 13,
    column: 17,
    endLine: 13,
    endColumn: 25,
    snippet: ' */\nexport function describe(shape: Shape): string {\n  return `${shape.constructor.name} area=${shape.area().toFixed(2)} perimeter=${shape.perimeter().toFixed(2)}`;',
    snippetLine: 12,
    symbol: 'describe',
    kind: 'function',
  });
  assert.deepEqual(s.locations[3], {
    path: 'src/main.ts',
    line: 11,
    column: 25,
    endLine: 11,
    endColumn: 34,
    snippet: '\nexport const headline = summarize(circle);\nexport const banner = "🚀🚀 total: " + totalArea(all).toFixed(2);',
    snippetLine: 10,
    symbol: 'headline',
    kind: 'constant',
  });
  assert.equal(s.locations[4].snippet, 'import { describe, totalArea, type Shape } from "./shape";\n');
  assert.equal(s.locations[4].snippetLine, 1);

  // The definition through an import alias, by line and matchText, as the model's JSON text.
  const def = await tools.code_navigate.execute('{"target":{"path":"src/main.ts","line":11,"matchText":"summarize"},"kind":"definition"}');
  assert.equal(
    def.text,
    'Target: `summarize` (in headline) at src/main.ts:11:25\n1 location in 1 file:\nsrc/shape.ts\n  13:17 (function describe)  export function describe(shape: Shape): string {',
  );
  assert.deepEqual(def.structured.locations, [
    { path: 'src/shape.ts', line: 13, column: 17, endLine: 13, endColumn: 25, snippet: 'export function describe(shape: Shape): string {', symbol: 'describe', kind: 'function' },
  ]);
});

test('an ambiguous target (two volume methods in one file) is an isError answer with candidates; Container.member resolves it', async () => {
  const tools = toolsOf(newClient(), solids);
  const out = await tools.code_navigate.execute({ target: { path: 'src/solids.ts', symbol: 'volume' }, kind: 'references' });
  assert.equal(out.isError, true);
  const message =
    '`volume` matches 2 symbols in src/solids.ts: `Cube.volume` (method, line 5, column 3), `Ball.volume` (method, line 14, column 3). ' +
    'Call again with symbol set to one of these qualified names (or add kind or line to narrow it), or with firstMatch: true to take the first.';
  assert.equal(out.text, `LSP_AMBIGUOUS_TARGET: ${message}`);
  assert.deepEqual(out.structured, {
    ok: false,
    error: { code: 'LSP_AMBIGUOUS_TARGET', message },
    ambiguous: true,
    candidates: [
      { qualifiedName: 'Cube.volume', kind: 'method', path: 'src/solids.ts', line: 5, column: 3, endLine: 7, container: 'Cube' },
      { qualifiedName: 'Ball.volume', kind: 'method', path: 'src/solids.ts', line: 14, column: 3, endLine: 16, container: 'Ball' },
    ],
  });

  const ball = await tools.code_navigate.execute({ target: { path: 'src/solids.ts', symbol: 'Ball.volume' }, kind: 'references' });
  assert.equal(ball.isError, false, ball.text);
  assert.equal(
    ball.text,
    [
      'Target: `volume` (method Ball.volume) at src/solids.ts:14:3',
      '2 locations in 1 file:',
      'src/solids.ts',
      '  14:3 (method Ball.volume)  volume(): number {',
      '  19:57 (in total)  export const total = new Cube(2).volume() + new Ball(1).volume();',
    ].join('\n'),
  );
  assert.deepEqual(ball.structured.target, { path: 'src/solids.ts', line: 14, column: 3, identifier: 'volume', symbol: 'Ball.volume', kind: 'method', container: 'Ball', by: 'symbol' });
});

test('code_symbols: the outline of a file', async () => {
  const tools = toolsOf(newClient());
  const out = await tools.code_symbols.execute({ path: 'src/shape.ts' });
  assert.equal(out.isError, false, out.text);
  assert.equal(
    out.text,
    [
      'src/shape.ts — 6 symbols:',
      '  interface Shape 2–7',
      '    method area 4',
      '    method perimeter 6',
      '  function describe 13–15',
      '  function totalArea 18–20',
      '    function shapes.reduce() callback 19',
    ].join('\n'),
  );
  assert.deepEqual(out.structured, {
    ok: true,
    tool: 'code_symbols',
    mode: 'document',
    path: 'src/shape.ts',
    symbols: [
      {
        name: 'Shape',
        kind: 'interface',
        line: 2,
        endLine: 7,
        column: 18,
        children: [
          { name: 'area', kind: 'method', line: 4, endLine: 4, column: 3 },
          { name: 'perimeter', kind: 'method', line: 6, endLine: 6, column: 3 },
        ],
      },
      { name: 'describe', kind: 'function', line: 13, endLine: 15, column: 17 },
      { name: 'totalArea', kind: 'function', line: 18, endLine: 20, column: 17, children: [{ name: 'shapes.reduce() callback', kind: 'function', line: 19, endLine: 19, column: 24 }] },
    ],
    totalFound: 6,
    truncated: false,
  });
});

test('every answer type-checks against its ToolAnswerByName type (tsc --strict: a field the type does not declare fails)', async () => {
  // The structured answers are built by the Go toolbox from the core's
  // outputs; the TypeScript types are written by hand. Each real answer
  // becomes an object literal of its declared type, so that tsc's
  // excess-property check names any field the type lacks (code_symbols'
  // workspace answer once carried resultKey, exact and
  // dependenciesLeftOut undeclared).
  const tools = toolsOf(newClient());
  const target = { path: 'src/shape.ts', symbol: 'describe' };
  const calls = [
    ['code_symbols', { path: 'src/shape.ts' }],
    ['code_symbols', { query: 'describe' }],
    ['code_symbols', { query: 'area', path: 'src/shape.ts' }],
    ['code_symbols', { query: 'a', limit: 1 }],
    ['code_navigate', { target, kind: 'references' }],
    ['code_navigate', { target, kind: 'references', limit: 1 }],
    ['code_hover', { target }],
    ['code_hierarchy', { target, kind: 'callers' }],
    ['code_inlay_hints', { path: 'src/shape.ts' }],
    ['code_diagnostics', { path: 'src/shape.ts' }],
  ];
  const lines = [`import type { ToolAnswerByName } from ${JSON.stringify(join(repoRoot, 'bindings', 'js', 'dist', 'node.js'))};`];
  for (const [i, [name, args]] of calls.entries()) {
    const out = await tools[name].execute(args);
    assert.equal(out.isError, false, `${name} ${JSON.stringify(args)}: ${out.text}`);
    lines.push(`// ${name} ${JSON.stringify(args)}`, `export const a${i}: ToolAnswerByName[${JSON.stringify(name)}] = ${JSON.stringify(out.structured)};`);
  }
  const dir = mkdtempSync(join(tmp, 'answers-'));
  writeFileSync(join(dir, 'answers.ts'), lines.join('\n') + '\n');
  const tsc = join(repoRoot, 'bindings', 'js', 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    execFileSync(process.execPath, [tsc, '--noEmit', '--strict', '--target', 'es2022', '--module', 'esnext', '--moduleResolution', 'bundler', '--skipLibCheck', join(dir, 'answers.ts')], { encoding: 'utf8' });
  } catch (err) {
    assert.fail(`the answers do not match their types:\n${err.stdout}\n${lines.join('\n')}`);
  }
});

test('the lsp tool through tools/call answers as createLspTool does', async () => {
  const client = newClient();
  const tools = toolsOf(client);
  const args = { operation: 'findReferences', file_path: 'src/shape.ts', line: 13, character: 17 };
  const out = await tools.lsp.execute(args);
  assert.equal(out.isError, false, out.text);
  const direct = await lspseam.createLspTool({ client, workspaceRoot: workspace }).execute(args);
  assert.equal(out.text, direct.text);
  assert.deepEqual(out.structured, { ok: true, tool: 'lsp', result: direct.value });
});

test('an unknown tool, bad arguments and a missing file are isError answers, not rejections', async () => {
  const client = newClient();
  const tools = toolsOf(client);
  const unknown = await client.callTool('code_search', {}, workspace);
  assert.equal(unknown.isError, true);
  assert.equal(unknown.structured.error.code, 'LSP_INVALID_ARGUMENT');
  assert.match(unknown.text, /^LSP_INVALID_ARGUMENT: tool "code_search" is not offered here; the tools are lsp, code_symbols, code_navigate, code_hover, code_hierarchy, code_diagnostics, code_inlay_hints, /);

  const bad = await tools.code_navigate.execute({ target: { path: 'src/shape.ts', symbol: 'describe' }, kind: 'refrences' });
  assert.equal(bad.isError, true);
  assert.equal(bad.structured.error.code, 'LSP_INVALID_ARGUMENT');
  assert.match(bad.text, /did you mean "references"/);

  const missing = await tools.code_symbols.execute({ path: 'src/missing.ts' });
  assert.equal(missing.isError, true);
  assert.equal(missing.structured.error.code, 'LSP_SOURCE_REJECTED');

  const notFound = await tools.code_hover.execute({ target: { path: 'src/shape.ts', symbol: 'describ' } });
  assert.equal(notFound.isError, true);
  assert.equal(notFound.structured.error.code, 'LSP_TARGET_NOT_FOUND');
  assert.ok(notFound.structured.candidates.some((c) => c.qualifiedName === 'describe'), notFound.text);

  // A request the shim refuses outright is a rejection (the harness's mistake, not the model's).
  await assert.rejects(client.callTool('code_symbols', { path: 'src/shape.ts' }, workspace, { timeoutMs: -1 }), { code: 'LSP_INVALID_ARGUMENT' });
});

test('aborting mid-call rejects LSP_CANCELLED without waiting for the server; the client keeps working', async () => {
  const gate = gatedServer('abort');
  const client = newClient(gate.config);
  const tools = toolsOf(client);
  const ac = new AbortController();
  const p = tools.code_symbols.execute({ path: 'src/shape.ts' }, { signal: ac.signal });
  // Mid-call: the shim has started the language server for this call, and it cannot answer.
  await waitFor(() => client.pid !== undefined && gate.waiting(client.pid).length > 0);
  ac.abort();
  await assert.rejects(p, (e) => e instanceof lspseam.LspError && e.code === 'LSP_CANCELLED');
  // The gate was never opened: the rejection did not wait for the server.
  // (The shim stops the server whose start was cancelled, so whether its
  // wrapper is still waiting at this point is a race, not asserted.)
  assert.equal(gate.isOpen(), false);
  gate.open();
  const out = await tools.code_symbols.execute({ path: 'src/shape.ts' });
  assert.equal(out.isError, false, out.text);
  assert.match(out.text, /^src\/shape\.ts — 6 symbols:/);
});

// A language server that cannot answer until the test opens its gate (as in tool-e2e).
function gatedServer(name) {
  const dir = join(tmp, name);
  mkdirSync(dir);
  const release = join(dir, 'release');
  const script = join(dir, 'typescript-language-server');
  const sleep = ['/bin/sleep', '/usr/bin/sleep'].find(existsSync);
  writeFileSync(script, `#!/bin/sh\nwhile [ ! -e '${release}' ]; do ${sleep} 0.01; done\nexec '${tsls}' "$@"\n`, { mode: 0o755 });
  const config = join(dir, 'lspseam.yaml');
  writeFileSync(config, configFor(script));
  return {
    config,
    open: () => writeFileSync(release, ''),
    isOpen: () => existsSync(release),
    waiting: (shim) => descendants(shim).filter((pid) => cmdline(pid).includes(script)),
  };
}

function processTable() {
  const out = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z') out.push({ pid: Number(name), ppid: Number(fields[1]) });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
function descendants(pid) {
  const table = processTable();
  const out = [];
  const walk = (p) => table.filter((q) => q.ppid === p).forEach((q) => (out.push(q.pid), walk(q.pid)));
  walk(pid);
  return out;
}
function cmdline(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '?';
  }
}
// The deadline is a watchdog against hangs, not a performance claim.
async function waitFor(cond, what = () => 'condition never held') {
  const end = Date.now() + 120_000;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`after 120 s: ${what()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
