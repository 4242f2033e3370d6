// init(): the fix-it error before it, idempotence, every kind of source.
// Module state is per process: node --test runs each file in its own, and
// the source variants run in fresh processes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import * as lspseam from '../dist/node.js';
import { runFresh, wasmPath } from './helpers.mjs';

const methods = [
  ['toolDefinition', () => lspseam.toolDefinition()],
  ['parseToolArgs', () => lspseam.parseToolArgs({})],
  ['normalizeProvider', () => lspseam.normalizeProvider({ id: 'x', extensionToLanguage: {} })],
  ['checkProviders', () => lspseam.checkProviders({ providers: [] })],
  ['selectProvider', () => lspseam.selectProvider({ filePath: 'a.go', providers: [] })],
  ['initializeParams', () => lspseam.initializeParams({ workspaceUri: 'file:///w' })],
  ['negotiate', () => lspseam.negotiate({ initializeResult: {} })],
  ['checkOperation', () => lspseam.checkOperation({ negotiation: {}, operation: 'hover' })],
  ['request', () => lspseam.request({ operation: 'hover', uri: 'file:///a', position: { line: 0, character: 0 } })],
  ['translate', () => lspseam.translate({ operation: 'hover', result: null })],
  ['render', () => lspseam.render({ result: { kind: 'hover', hover: null }, workspaceUri: 'file:///w' })],
  ['present', () => lspseam.present({})],
  ['serverRequest', () => lspseam.serverRequest({ method: 'x' })],
  ['validateConfig', () => lspseam.validateConfig({ servers: {} })],
  ['fileWatchers', () => lspseam.fileWatchers({ method: 'client/registerCapability' })],
  ['fileChanges', () => lspseam.fileChanges({ changes: [], registrations: null, extensions: [], root: '/w', openDocuments: [] })],
  ['call', () => lspseam.call('toolDefinition', '{}')],
  ['createLspTool', () => lspseam.createLspTool({ client: { query: async () => ({}) }, workspaceRoot: '/w' })],
  ['getCore', () => lspseam.getCore()],
];

test('every method used before init() throws a fix-it LspError', () => {
  for (const [name, fn] of methods) {
    assert.throws(fn, (err) => {
      assert.ok(err instanceof lspseam.LspError, name);
      assert.equal(err.code, 'LSP_NOT_INITIALIZED', name);
      assert.match(err.message, /call init\(\) before/, name);
      assert.match(err.message, /call init\(\) once at startup and await it/, name);
      if (name !== 'getCore') assert.ok(err.message.includes(name), `${name}: ${err.message}`);
      return true;
    });
  }
});

test('init() is idempotent: one promise, one instance; a method during init says to await it', async () => {
  const p1 = lspseam.init();
  const p2 = lspseam.init();
  assert.equal(p1, p2);
  assert.throws(() => lspseam.toolDefinition(), /await the promise init\(\) returned/);
  const core = await p1;
  assert.ok(core instanceof lspseam.Core);
  assert.equal(core.abiVersion, 1);
  assert.equal(await lspseam.init(), core);
  assert.equal(lspseam.init(new Uint8Array([1, 2, 3])), p1, 'a later source is ignored');
  assert.equal(lspseam.getCore(), core);
  assert.equal(lspseam.toolDefinition().name, 'lsp');
});

async function initFrom(expr, setup = '') {
  const { stdout } = await runFresh(`
    import { readFileSync } from 'node:fs';
    import * as l from './dist/node.js';
    const wasmPath = ${JSON.stringify(wasmPath)};
    ${setup}
    const core = await l.init(${expr});
    process.stdout.write(JSON.stringify({ v: core.abiVersion, name: l.toolDefinition().name }));
  `);
  assert.deepEqual(JSON.parse(stdout), { v: 1, name: 'lsp' }, expr);
}

test('init() with no source loads the packaged core.wasm', () => initFrom(''));
test('init(Uint8Array)', () => initFrom('new Uint8Array(readFileSync(wasmPath))'));
test('init(ArrayBuffer)', () => initFrom('new Uint8Array(readFileSync(wasmPath)).slice().buffer'));
test('init(Buffer view at an offset)', () =>
  initFrom('big.subarray(7)', 'const raw = readFileSync(wasmPath); const big = Buffer.alloc(raw.length + 7); raw.copy(big, 7);'));
test('init(WebAssembly.Module)', () => initFrom('await WebAssembly.compile(readFileSync(wasmPath))'));
test('init(file: URL)', () => initFrom('new URL("file://" + wasmPath)'));
test('init("file:…" string)', () => initFrom('"file://" + wasmPath'));
test('init(path string)', () => initFrom('wasmPath'));
test('init(Response)', () => initFrom('new Response(readFileSync(wasmPath), { headers: { "content-type": "application/wasm" } })'));
test('init(Promise<Response>) without a wasm content type', () => initFrom('Promise.resolve(new Response(readFileSync(wasmPath)))'));

test('init(http URL) fetches it', async (t) => {
  const bytes = readFileSync(wasmPath);
  const server = createServer((req, res) => {
    if (req.url !== '/core.wasm') return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/wasm' }).end(bytes);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => server.close());
  const url = `http://127.0.0.1:${server.address().port}/core.wasm`;
  await initFrom(JSON.stringify(url));
  await assert.rejects(
    runFresh(`import * as l from './dist/node.js'; await l.init(${JSON.stringify(url + '.missing')});`),
    /HTTP 404/,
  );
});

test('a failed init() rejects with LspError and may be retried', async () => {
  const { stdout } = await runFresh(`
    import * as l from './dist/node.js';
    const out = [];
    try { await l.init(new Uint8Array([0, 97, 115, 109, 9, 9])); } catch (e) { out.push(e.code, /not a WebAssembly module/.test(e.message)); }
    try { await l.init(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])); } catch (e) { out.push(e.code, e.message); }
    try { await l.init(42); } catch (e) { out.push(e.code); }
    try { await l.init('/nonexistent/core.wasm'); } catch (e) { out.push(e.code, e.message.includes('cannot read the core module from /nonexistent/core.wasm: ENOENT')); }
    const core = await l.init();
    out.push(core.abiVersion);
    process.stdout.write(JSON.stringify(out));
  `);
  assert.deepEqual(JSON.parse(stdout), [
    'LSP_INVALID_ARGUMENT', true,
    'LSP_INVALID_ARGUMENT', 'lspseam: not a core module: no export memory',
    'LSP_INVALID_ARGUMENT',
    'LSP_INVALID_ARGUMENT', true,
    1,
  ]);
});
