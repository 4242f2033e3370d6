// Parity: every golden case of testdata/core (recorded from the Go core)
// gives the byte-identical envelope through this package's call(), and the
// typed methods agree with the envelopes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as lspseam from '../dist/node.js';
import { goldenCases } from './helpers.mjs';

const cases = goldenCases();
await lspseam.init();

test('golden files hold the expected cases', () => {
  const methods = new Set(cases.map((c) => c.method));
  assert.deepEqual([...methods].sort(), [
    'checkOperation', 'checkProviders', 'fileChanges', 'fileWatchers', 'initializeParams', 'negotiate', 'normalizeProvider',
    'parseToolArgs', 'present', 'render', 'request', 'selectProvider', 'serverRequest', 'toolDefinition', 'translate',
    'validateConfig',
  ]);
  assert.ok(cases.length >= 240, `only ${cases.length} golden cases`);
});

test('call() gives the golden envelope byte for byte, every case', () => {
  let n = 0;
  for (const c of cases) {
    assert.equal(lspseam.call(c.method, c.input), c.envelope, `${c.method}/${c.name}`);
    n++;
  }
  assert.equal(n, cases.length);
  console.log(`# parity: ${n} golden cases byte-identical`);
});

test('Core.call on a second, independent instance gives the same envelopes', async () => {
  const module = await WebAssembly.compile((await import('node:fs')).readFileSync(new URL('../dist/core.wasm', import.meta.url)));
  const core = await lspseam.Core.instantiate(module);
  for (const c of cases) assert.equal(core.call(c.method, c.input), c.envelope, `${c.method}/${c.name}`);
});

const typed = {
  toolDefinition: () => lspseam.toolDefinition(),
  parseToolArgs: (v) => lspseam.parseToolArgs(v),
  normalizeProvider: (v) => lspseam.normalizeProvider(v),
  checkProviders: (v) => lspseam.checkProviders(v),
  selectProvider: (v) => lspseam.selectProvider(v),
  initializeParams: (v) => lspseam.initializeParams(v),
  negotiate: (v) => lspseam.negotiate(v),
  checkOperation: (v) => lspseam.checkOperation(v),
  request: (v) => lspseam.request(v),
  translate: (v) => lspseam.translate(v),
  render: (v) => lspseam.render(v),
  present: (v) => lspseam.present(v),
  serverRequest: (v) => lspseam.serverRequest(v),
  validateConfig: (v) => lspseam.validateConfig(v),
  fileWatchers: (v) => lspseam.fileWatchers(v),
  fileChanges: (v) => lspseam.fileChanges(v),
};

test('typed methods return the ok value or throw LspError with the envelope code', () => {
  let n = 0;
  for (const c of cases) {
    let value;
    try {
      value = JSON.parse(c.input);
    } catch {
      continue; // not JSON: only call() can send it
    }
    if (JSON.stringify(value) !== c.input) continue; // re-encoding would change the bytes the core sees
    if (c.method === 'toolDefinition' && c.input !== '{}') continue; // the typed method takes no input
    const want = JSON.parse(c.envelope);
    const label = `${c.method}/${c.name}`;
    if ('error' in want) {
      assert.throws(() => typed[c.method](value), (err) => {
        assert.ok(err instanceof lspseam.LspError, label);
        assert.equal(err.code, want.error.code, label);
        assert.equal(err.message, want.error.message, label);
        return true;
      }, label);
    } else if (c.method === 'checkOperation') {
      assert.equal(typed[c.method](value), undefined, label);
    } else {
      assert.deepEqual(typed[c.method](value), want.ok, label);
    }
    n++;
  }
  assert.ok(n > 150, `only ${n} cases checked through typed methods`);
  console.log(`# typed: ${n} cases`);
});
