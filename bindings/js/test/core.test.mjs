// The typed API over the module: LspError with codes, large inputs and
// outputs across memory growth, the raw envelope.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as lspseam from '../dist/node.js';

const core = await lspseam.init();

test('typed methods throw LspError carrying the stable code and the core message', () => {
  const cases = [
    [() => lspseam.parseToolArgs({ operation: 'rename', file_path: 'a.go', line: 1, character: 1 }), 'LSP_INVALID_ARGUMENT', /operation/],
    [() => lspseam.selectProvider({ filePath: 'a.rs', providers: [{ id: 'go', extensionToLanguage: { '.go': 'go' } }] }), 'LSP_UNAVAILABLE', /\.go/],
    [() => lspseam.checkProviders({ providers: [{ id: 'a', extensionToLanguage: { '.go': 'go' } }, { id: 'b', extensionToLanguage: { '.GO': 'go' } }] }), 'LSP_CONFLICT', /\.go/],
    [() => lspseam.negotiate({ initializeResult: { capabilities: { positionEncoding: 'utf-8' } } }), 'LSP_PROTOCOL_ERROR', /utf-8/],
    [() => lspseam.translate({ operation: 'goToDefinition', result: [{ uri: 1 }] }), 'LSP_MALFORMED_RESPONSE', /uri/],
    [() => core.invoke('nope', {}), 'LSP_UNKNOWN_METHOD', /unknown method/],
    [() => lspseam.present(undefined), 'LSP_INVALID_ARGUMENT', /JSON value/],
  ];
  for (const [fn, code, message] of cases) {
    assert.throws(fn, (err) => {
      assert.ok(err instanceof lspseam.LspError, code);
      assert.ok(err instanceof Error);
      assert.equal(err.name, 'LspError');
      assert.equal(err.code, code);
      assert.match(err.message, message);
      assert.ok(lspseam.isLspError(err));
      assert.deepEqual(JSON.parse(JSON.stringify(err)), { code, message: err.message });
      return true;
    });
  }
  assert.equal(lspseam.isLspError(new Error('x')), false);
  const lookalike = Object.assign(new Error('x'), { name: 'LspError', code: 'LSP_TIMEOUT' });
  assert.equal(lspseam.isLspError(lookalike), true, 'an LspError from another copy of the package');
});

test('a config error carries each problem with the path it is about, and keeps them through JSON', () => {
  assert.throws(
    () => lspseam.validateConfig({ servers: { x: { comand: 'x', extensionToLanguage: { '.x': 1 } } } }),
    (err) => {
      assert.equal(err.code, 'LSP_CONFIG_INVALID');
      assert.deepEqual(
        err.problems.map((p) => p.path),
        ['servers.x.comand', 'servers.x.command', 'servers.x.extensionToLanguage[".x"]'],
      );
      assert.match(err.problems[0].message, /unknown field "comand" \(did you mean "command"\?\)/);
      for (const p of err.problems) assert.ok(err.message.includes(p.message), p.message);
      assert.deepEqual(JSON.parse(JSON.stringify(err)).problems, err.problems);
      return true;
    },
  );
});

test('checkOperation returns nothing when supported and throws the unsupported code otherwise', () => {
  const negotiation = lspseam.negotiate({ initializeResult: { capabilities: { textDocumentSync: 1, hoverProvider: true } } });
  assert.equal(negotiation.readiness.settleMs, 500);
  assert.equal(lspseam.checkOperation({ negotiation, operation: 'hover' }), undefined);
  assert.throws(() => lspseam.checkOperation({ negotiation, operation: 'findReferences' }), { code: 'LSP_UNSUPPORTED_OPERATION' });
});

test('call() returns the raw envelope, never throws on an error envelope', () => {
  assert.equal(lspseam.call('render', '{'), core.call('render', '{'));
  assert.match(lspseam.call('render', '{'), /^\{"error":\{"code":"LSP_INVALID_ARGUMENT"/);
  assert.match(lspseam.call('another unknown method', '{}'), /LSP_UNKNOWN_METHOD/);
  assert.match(lspseam.call('', ''), /LSP_/);
});

test('large inputs and outputs survive memory growth (translate + render of 50,000 locations)', () => {
  const raw = Array.from({ length: 50_000 }, (_, i) => ({
    uri: `file:///w/p/dir${i % 97}/file${i}.go`,
    range: { start: { line: i, character: i % 80 }, end: { line: i, character: (i % 80) + 3 } },
  }));
  const result = lspseam.translate({ operation: 'findReferences', result: raw });
  assert.equal(result.locations.length, 50_000);
  assert.deepEqual(result.locations[49_999], raw[49_999]);
  const rendered = lspseam.render({ result, workspaceUri: 'file:///w/p', maxLocations: 100_000, maxResultChars: 10_000_000 });
  assert.equal(rendered.shown, 50_000);
  assert.equal(rendered.text.split('\n').length, 50_000);
  const limited = lspseam.render({ result, workspaceUri: 'file:///w/p' });
  assert.equal(limited.shown, 100);
  assert.equal(limited.omitted, 49_900);
  // and small calls keep working afterwards
  assert.equal(lspseam.parseToolArgs({ operation: 'hover', file_path: 'é🚀.go', line: 2, character: 3 }).filePath, 'é🚀.go');
});

test('many calls do not leak module memory', async () => {
  const module = await WebAssembly.compile((await import('node:fs')).readFileSync(new URL('../dist/core.wasm', import.meta.url)));
  const c = await lspseam.Core.instantiate(module);
  const input = { operation: 'goToDefinition', file_path: 'src/a.ts', line: 3, character: 7 };
  for (let i = 0; i < 20_000; i++) c.parseToolArgs(input); // the Go heap settles
  const size = c.memoryBytes;
  for (let i = 0; i < 50_000; i++) c.parseToolArgs(input);
  // Go's collector paces itself partly by wall-clock time, so a loaded
  // machine may see the heap settle a few pages higher; a leak of even the
  // ~100-byte input per call would be 5 MB, far over this bound.
  const grown = c.memoryBytes - size;
  assert.ok(grown <= 8 * 65536, `memory grew ${grown} bytes over 50,000 small calls`);
});

test('the module writes nothing to stdout/stderr in normal use', async () => {
  const out = [];
  const module = await WebAssembly.compile((await import('node:fs')).readFileSync(new URL('../dist/core.wasm', import.meta.url)));
  const c = await lspseam.Core.instantiate(module, { stdout: (t) => out.push(t), stderr: (t) => out.push(t) });
  c.toolDefinition();
  c.call('nope', '{');
  assert.deepEqual(out, []);
});

test('LSP_ERROR_CODES: the error table of docs/errors.md and the Go core codes, plus the JS-only LSP_NOT_INITIALIZED and LSP_CORE_UNAVAILABLE', async () => {
  const { readFileSync } = await import('node:fs');
  const table = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
  const documented = new Set([...table.matchAll(/`((?:LSP|FS)_[A-Z_]+)`/g)].map((m) => m[1]));
  const goCodes = new Set([...readFileSync(new URL('../../../core/errors.go', import.meta.url), 'utf8').matchAll(/Code = "((?:LSP|FS)_[A-Z_]+)"/g)].map((m) => m[1]));
  assert.ok(documented.size >= 18 && goCodes.size >= 18);
  assert.deepEqual([...lspseam.LSP_ERROR_CODES].sort(), [...goCodes, 'LSP_NOT_INITIALIZED', 'LSP_CORE_UNAVAILABLE'].sort());
  assert.deepEqual([...documented].sort(), [...lspseam.LSP_ERROR_CODES].sort(), "docs/errors.md's table vs LSP_ERROR_CODES");
});
