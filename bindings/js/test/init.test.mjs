// init(): the fix-it error before it, idempotence, every kind of source.
// Module state is per process: node --test runs each file in its own, and
// the source variants run in fresh processes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
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
    import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
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
  const { stdout } = await runFresh(`
    import * as l from './dist/node.js';
    try { await l.init(${JSON.stringify(url + '.missing')}); } catch (e) { process.stdout.write(JSON.stringify({ code: e.code, message: e.message })); }
  `);
  const err = JSON.parse(stdout);
  assert.equal(err.code, 'LSP_CORE_UNAVAILABLE');
  assert.match(err.message, /cannot load the core module from http:\/\/127\.0\.0\.1:\d+\/core\.wasm\.missing: HTTP 404/);
  assert.match(err.message, /`lspseam\/core\.wasm`/);
});

test('a failed init() rejects with LspError and may be retried', async () => {
  const { stdout } = await runFresh(`
    import * as l from './dist/node.js';
    const out = [];
    try { await l.init(new Uint8Array([0, 97, 115, 109, 9, 9])); } catch (e) { out.push(e.code, /not a WebAssembly module/.test(e.message)); }
    try { await l.init(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])); } catch (e) { out.push(e.code, e.message); }
    try { await l.init(42); } catch (e) { out.push(e.code); }
    try { await l.init('/nonexistent/core.wasm'); } catch (e) { out.push(e.code, e.message.includes('cannot load the core module from /nonexistent/core.wasm: ENOENT')); }
    const core = await l.init();
    out.push(core.abiVersion);
    process.stdout.write(JSON.stringify(out));
  `);
  assert.deepEqual(JSON.parse(stdout), [
    'LSP_INVALID_ARGUMENT', true,
    'LSP_INVALID_ARGUMENT', 'lspseam: not a core module: no export memory',
    'LSP_INVALID_ARGUMENT',
    'LSP_CORE_UNAVAILABLE', true,
    1,
  ]);
});

// A copy of dist/ without core.wasm: what a bundle looks like when the
// bundler did not copy the module next to it.
function distWithoutCore(t) {
  const dir = mkdtempSync(join(tmpdir(), 'lspseam-nocore-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(new URL('../dist/', import.meta.url), join(dir, 'dist'), { recursive: true, filter: (src) => !src.endsWith('core.wasm') });
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  return dir;
}

async function initFails(t, entry, setup = '', source = '') {
  const dir = distWithoutCore(t);
  const { stdout } = await runFresh(`
    ${setup}
    const l = await import(${JSON.stringify(pathToFileURL(join(dir, 'dist', entry)).href)});
    try { await l.init(${source}); process.stdout.write('null'); } catch (e) { process.stdout.write(JSON.stringify({ name: e.name, code: e.code, message: e.message })); }
  `);
  const err = JSON.parse(stdout);
  assert.ok(err, 'init() succeeded without core.wasm');
  assert.equal(err.name, 'LspError');
  return err;
}

test('browser entry: core.wasm missing next to the bundle (HTTP 404) is LSP_CORE_UNAVAILABLE saying to copy it or pass its URL', async (t) => {
  // fetch as a browser's would answer a bundle's missing neighbour.
  const setup = `globalThis.fetch = async (url) => Object.defineProperty(new Response('not found', { status: 404, statusText: 'Not Found' }), 'url', { value: String(url) });`;
  const err = await initFails(t, 'browser.js', setup);
  assert.equal(err.code, 'LSP_CORE_UNAVAILABLE');
  assert.match(err.message, /cannot load the core module \(core\.wasm\) from file:\/\/\S+\/dist\/core\.wasm/);
  assert.match(err.message, /HTTP 404 Not Found/);
  assert.match(err.message, /copy `lspseam\/core\.wasm` \(node_modules\/lspseam\/dist\/core\.wasm\) next to the bundle/);
  assert.match(err.message, /pass its URL to init\(\)/);
});

test("browser entry: a dev server's index.html served in core.wasm's place is LSP_CORE_UNAVAILABLE, not LSP_INVALID_ARGUMENT", async (t) => {
  const setup = `globalThis.fetch = async (url) => Object.defineProperty(new Response('<!doctype html><title>app</title>', { headers: { 'content-type': 'text/html' } }), 'url', { value: String(url) });`;
  const err = await initFails(t, 'browser.js', setup);
  assert.equal(err.code, 'LSP_CORE_UNAVAILABLE');
  assert.match(err.message, /not a WebAssembly module .*content-type text\/html/);
  assert.match(err.message, /copy `lspseam\/core\.wasm`/);
});

test('node entry: a missing dist/core.wasm is LSP_CORE_UNAVAILABLE saying to reinstall or pass its path', async (t) => {
  const err = await initFails(t, 'node.js');
  assert.equal(err.code, 'LSP_CORE_UNAVAILABLE');
  assert.match(err.message, /dist\/core\.wasm, where .*: ENOENT/);
  assert.match(err.message, /reinstall lspseam/);
  assert.match(err.message, /pass the path, URL or bytes of `lspseam\/core\.wasm` to init\(\)/);
});
