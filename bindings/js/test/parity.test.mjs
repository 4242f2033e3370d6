// Parity: every golden case of testdata/core (recorded from the Go core)
// gives the byte-identical envelope through this package's call(), and the
// typed methods agree with the envelopes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as lspseam from '../dist/node.js';
import { readFileSync, readdirSync } from 'node:fs';
import { goldenCases, goldenDir } from './helpers.mjs';

const cases = goldenCases();
await lspseam.init();

test('golden files hold every case of every method the module has', () => {
  const unknown = JSON.parse(lspseam.call('no such method', '{}'));
  const listed = /this module has: (.+)$/.exec(unknown.error?.message ?? '');
  assert.ok(listed, `LSP_UNKNOWN_METHOD does not list the module's methods: ${JSON.stringify(unknown)}`);
  const moduleMethods = listed[1].split(', ').sort();
  const goldenMethods = [...new Set(cases.map((c) => c.method))].sort();
  assert.deepEqual(goldenMethods, moduleMethods, 'testdata/core/*.golden vs the methods the module has');
  assert.deepEqual(Object.keys(typed).sort(), moduleMethods, 'typed methods of the package vs the methods the module has');
  // Per method: METHOD.golden holds exactly the cases of METHOD.cases.json, in order, at least one.
  const casesFiles = readdirSync(goldenDir).filter((f) => f.endsWith('.cases.json')).map((f) => f.slice(0, -'.cases.json'.length)).sort();
  assert.deepEqual(casesFiles, moduleMethods, 'testdata/core/*.cases.json vs the methods the module has');
  for (const method of moduleMethods) {
    const want = JSON.parse(readFileSync(new URL(`${method}.cases.json`, goldenDir), 'utf8')).map((c) => c.name);
    const got = cases.filter((c) => c.method === method).map((c) => c.name);
    assert.ok(got.length > 0, `${method}: no golden cases`);
    assert.deepEqual(got, want, `${method}.golden vs ${method}.cases.json`);
  }
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
  translateRender: (v) => lspseam.translateRender(v),
  present: (v) => lspseam.present(v),
  serverRequest: (v) => lspseam.serverRequest(v),
  validateConfig: (v) => lspseam.validateConfig(v),
  fileWatchers: (v) => lspseam.fileWatchers(v),
  fileChanges: (v) => lspseam.fileChanges(v),
  resolveTarget: (v) => lspseam.resolveTarget(v),
  planSnippets: (v) => lspseam.planSnippets(v),
  codeLocations: (v) => lspseam.codeLocations(v),
  flattenSymbols: (v) => lspseam.flattenSymbols(v),
  toolDefinitions: (v) => lspseam.toolDefinitions(v),
  parseCodeArgs: (v) => lspseam.parseCodeArgs(v),
  codeRequest: (v) => lspseam.codeRequest(v),
  codeSymbols: (v) => lspseam.codeSymbols(v),
  codeHover: (v) => lspseam.codeHover(v),
  inlayHints: (v) => lspseam.inlayHints(v),
  hierarchy: (v) => lspseam.hierarchy(v),
  editText: (v) => lspseam.editText(v),
  readView: (v) => lspseam.readView(v),
  diagnostics: (v) => lspseam.diagnostics(v),
  diagnosticsDelta: (v) => lspseam.diagnosticsDelta(v),
  applyTextEdits: (v) => lspseam.applyTextEdits(v),
  planWorkspaceEdit: (v) => lspseam.planWorkspaceEdit(v),
  targetEdit: (v) => lspseam.targetEdit(v),
  commandDiagnosticsRequests: (v) => lspseam.commandDiagnosticsRequests(v),
  commandDiagnostics: (v) => lspseam.commandDiagnostics(v),
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
        assert.deepEqual(err.candidates, want.error.candidates, label);
        if (want.error.candidates !== undefined) assert.deepEqual(err.toJSON(), want.error, label);
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
