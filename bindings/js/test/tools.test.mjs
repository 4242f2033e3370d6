// createTools with a scripted client: definitions from the core module,
// the order of checks, what is passed to the client, isError answers
// passed through, and rejections only for the call itself (workspace,
// cancellation, budget, transport).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as lspseam from '../dist/node.js';
import { runFresh } from './helpers.mjs';

await lspseam.init();

const ALL = ['lsp', 'code_symbols', 'code_navigate', 'code_hover', 'code_hierarchy', 'code_diagnostics', 'code_inlay_hints'];
const CODE = ALL.slice(1);

const ok = (tool, fields = {}) => ({ text: `${tool} answer`, structured: { ok: true, tool, ...fields }, isError: false });

function fakeClient(answer = (name) => Promise.resolve(ok(name))) {
  const calls = [];
  return {
    calls,
    callTool(name, args, workspaceRoot, options) {
      calls.push({ name, args, workspaceRoot, options });
      return typeof answer === 'function' ? answer(name, args, workspaceRoot, options) : Promise.resolve(answer);
    },
  };
}

const byName = (tools) => Object.fromEntries(tools.map((t) => [t.name, t]));
const navArgs = { target: { path: 'src/shape.ts', symbol: 'describe' }, kind: 'references', context: 1 };

test('toolDefinitions: the core module lists lsp first, then the code tools, by toolset', () => {
  const all = lspseam.toolDefinitions({ toolsets: ['lsp', 'code'] });
  assert.deepEqual(all.map((d) => d.name), ALL);
  assert.deepEqual(all.map((d) => d.toolset), ['lsp', 'code', 'code', 'code', 'code', 'code', 'code']);
  const every = lspseam.toolDefinitions();
  assert.deepEqual([...new Set(every.map((d) => d.toolset))], ['lsp', 'code', 'refactor', 'fs']);
  for (const d of every) assert.equal(d.readOnly, d.toolset !== 'refactor' && d.name !== 'write' && d.name !== 'edit', d.name);
  for (const d of all) {
    assert.equal(d.readOnly, true, d.name);
    assert.equal(d.inputSchema.type, 'object', d.name);
    // Unknown arguments are refused by the core's validation, not stated in the schema.
    assert.equal(d.inputSchema.additionalProperties, undefined, d.name);
    assert.ok(d.description.length > 100, d.name);
  }
  assert.deepEqual(lspseam.toolDefinitions({ toolsets: ['code'] }).map((d) => d.name), CODE);
  assert.deepEqual(lspseam.toolDefinitions({ toolsets: ['lsp'] }).map((d) => d.name), ['lsp']);
  // The lsp tool's definition is the one createLspTool offers.
  const lsp = lspseam.toolDefinition();
  assert.equal(all[0].description, lsp.description);
  assert.deepEqual(all[0].inputSchema, lsp.inputSchema);
  assert.deepEqual(lspseam.getCore().toolDefinitions({ toolsets: ['lsp', 'code'] }), all);
});

test('createTools: one tool object per tool, the definitions from the core module', () => {
  const tools = lspseam.createTools({ client: fakeClient(), workspaceRoot: '/w' });
  const defs = lspseam.toolDefinitions({ toolsets: ['lsp', 'code'] });
  assert.deepEqual(tools.map((t) => t.name), ALL);
  tools.forEach((t, i) => {
    const { execute, ...def } = t;
    assert.equal(typeof execute, 'function');
    assert.deepEqual(def, defs[i]);
  });
  assert.deepEqual(lspseam.DEFAULT_TOOLSETS, ['lsp', 'code']);
  assert.deepEqual(lspseam.createTools({ client: fakeClient(), workspaceRoot: '/w', toolsets: ['code'] }).map((t) => t.name), CODE);
  assert.deepEqual(lspseam.createTools({ client: fakeClient(), workspaceRoot: '/w', toolsets: ['lsp'] }).map((t) => t.name), ['lsp']);
  assert.deepEqual(lspseam.createTools({ client: fakeClient(), workspaceRoot: '/w', toolsets: [] }), []);
});

test('an unknown toolset is the core LSP_INVALID_ARGUMENT, with its suggestion', () => {
  assert.throws(
    () => lspseam.createTools({ client: fakeClient(), workspaceRoot: '/w', toolsets: ['lsp', 'cod'] }),
    (e) => e instanceof lspseam.LspError && e.code === 'LSP_INVALID_ARGUMENT' && e.message === 'unknown toolset "cod"; this build has: lsp, code, fs, refactor (did you mean "code"?)',
  );
  assert.throws(() => lspseam.toolDefinitions({ toolsets: ['nav'] }), { code: 'LSP_INVALID_ARGUMENT' });
  assert.throws(() => lspseam.createTools({ client: fakeClient(), workspaceRoot: '/w', toolsets: 'code' }), (e) => e.code === 'LSP_INVALID_ARGUMENT' && /array/.test(e.message));
});

test('createTools checks its client and timeoutMs', () => {
  for (const client of [undefined, {}, { query() {} }]) {
    assert.throws(() => lspseam.createTools({ client, workspaceRoot: '/w' }), (e) => e.code === 'LSP_INVALID_ARGUMENT' && /callTool/.test(e.message) && /ShimClient/.test(e.message));
  }
  for (const timeoutMs of [0, -1, 1.5, Number.NaN]) {
    assert.throws(() => lspseam.createTools({ client: fakeClient(), workspaceRoot: '/w', timeoutMs }), (e) => e.code === 'LSP_INVALID_ARGUMENT' && /timeoutMs/.test(e.message));
  }
});

test('createTools before init() throws LSP_NOT_INITIALIZED saying to call init() first', async () => {
  const { stdout } = await runFresh(`
    import * as lspseam from './dist/node.js';
    try {
      lspseam.createTools({ client: { callTool() {} }, workspaceRoot: '/w' });
    } catch (e) {
      console.log(JSON.stringify({ code: e.code, message: e.message }));
    }
  `);
  const { code, message } = JSON.parse(stdout);
  assert.equal(code, 'LSP_NOT_INITIALIZED');
  assert.match(message, /^lspseam: call init\(\) before createTools\(\)/);
});

test('execute sends the name, the arguments, the workspace root and the budget to the client', async () => {
  const client = fakeClient();
  const tools = byName(lspseam.createTools({ client, workspaceRoot: '/w', timeoutMs: 5_000 }));
  const out = await tools.code_navigate.execute(navArgs);
  assert.deepEqual(out, ok('code_navigate'));
  // The model's JSON text is parsed; nothing (undefined) is an empty object.
  await tools.code_symbols.execute('{"path":"src/a.ts"}');
  await tools.code_hover.execute(undefined);
  assert.deepEqual(
    client.calls.map(({ name, args, workspaceRoot, options }) => ({ name, args, workspaceRoot, timeoutMs: options.timeoutMs })),
    [
      { name: 'code_navigate', args: navArgs, workspaceRoot: '/w', timeoutMs: 5_000 },
      { name: 'code_symbols', args: { path: 'src/a.ts' }, workspaceRoot: '/w', timeoutMs: 5_000 },
      { name: 'code_hover', args: {}, workspaceRoot: '/w', timeoutMs: 5_000 },
    ],
  );
  for (const c of client.calls) assert.ok(c.options.signal instanceof AbortSignal);
  // Default budget.
  const client2 = fakeClient();
  await lspseam.createTools({ client: client2, workspaceRoot: '/w', toolsets: ['code'] })[0].execute({ path: 'a.ts' });
  assert.equal(client2.calls[0].options.timeoutMs, 60_000);
});

test('isError answers (unknown tool, bad arguments, ambiguous target) resolve as they are', async () => {
  const ambiguous = {
    text: 'LSP_AMBIGUOUS_TARGET: `volume` matches 2 symbols',
    structured: {
      ok: false,
      error: { code: 'LSP_AMBIGUOUS_TARGET', message: '`volume` matches 2 symbols' },
      ambiguous: true,
      candidates: [{ qualifiedName: 'Cube.volume', kind: 'method', path: 'src/solids.ts', line: 5, column: 3, endLine: 7, container: 'Cube' }],
    },
    isError: true,
  };
  const client = fakeClient(ambiguous);
  const tools = byName(lspseam.createTools({ client, workspaceRoot: '/w' }));
  assert.deepEqual(await tools.code_navigate.execute({ target: { path: 'src/solids.ts', symbol: 'volume' }, kind: 'references' }), ambiguous);
  assert.deepEqual(await tools.lsp.execute({ operation: 'hover' }), ambiguous);
});

test('arguments that are not JSON text are an isError answer for the model, without a call', async () => {
  const client = fakeClient();
  const tools = byName(lspseam.createTools({ client, workspaceRoot: '/w' }));
  const out = await tools.code_navigate.execute('{"target":');
  assert.equal(out.isError, true);
  assert.equal(out.structured.ok, false);
  assert.equal(out.structured.error.code, 'LSP_INVALID_ARGUMENT');
  assert.match(out.structured.error.message, /^code_navigate: the arguments are not valid JSON/);
  assert.equal(out.text, `LSP_INVALID_ARGUMENT: ${out.structured.error.message}`);
  assert.equal(client.calls.length, 0);
});

test('arguments JSON cannot carry (a BigInt, a cycle) are an isError LSP_INVALID_ARGUMENT answer, without a call', async () => {
  // Before, the client's serializer threw and execute rejected with
  // LSP_SERVER_FAILED, the code of a dead shim.
  const client = fakeClient();
  const tools = byName(lspseam.createTools({ client, workspaceRoot: '/w' }));
  const cyclic = { kind: 'references' };
  cyclic.target = cyclic;
  for (const [tool, args, what] of [
    ['code_navigate', { target: { path: 'shape.go', line: 15n }, kind: 'references' }, /BigInt/],
    ['code_navigate', cyclic, /circular/],
    ['lsp', { operation: 'hover', file_path: 'a.go', line: 1n, character: 1 }, /BigInt/],
  ]) {
    const out = await tools[tool].execute(args);
    assert.equal(out.isError, true, tool);
    assert.equal(out.structured.error.code, 'LSP_INVALID_ARGUMENT');
    assert.match(out.structured.error.message, new RegExp(`^${tool}: the arguments cannot be sent as JSON`));
    assert.match(out.structured.error.message, what);
    assert.match(out.structured.error.message, /not BigInt/);
    assert.equal(out.text, `LSP_INVALID_ARGUMENT: ${out.structured.error.message}`);
  }
  assert.equal(client.calls.length, 0);
});

test('no workspaceRoot rejects LSP_WORKSPACE_REQUIRED, an aborted signal LSP_CANCELLED, before any call', async () => {
  for (const workspaceRoot of [undefined, '']) {
    const client = fakeClient();
    const [tool] = lspseam.createTools({ client, workspaceRoot, toolsets: ['code'] });
    await assert.rejects(tool.execute({ path: 'a.ts' }, { signal: AbortSignal.abort() }), (e) => e.code === 'LSP_WORKSPACE_REQUIRED' && /createTools/.test(e.message));
    assert.equal(client.calls.length, 0);
  }
  const client = fakeClient();
  const [tool] = lspseam.createTools({ client, workspaceRoot: '/w', toolsets: ['code'] });
  await assert.rejects(tool.execute({ path: 'a.ts' }, { signal: AbortSignal.abort() }), { code: 'LSP_CANCELLED' });
  assert.equal(client.calls.length, 0);
});

test('aborting mid-call aborts the signal the client got and rejects LSP_CANCELLED, even from a client that ignores it', async () => {
  const client = fakeClient(() => new Promise(() => {})); // never settles, ignores its signal
  const tools = byName(lspseam.createTools({ client, workspaceRoot: '/w' }));
  const ac = new AbortController();
  const p = tools.code_navigate.execute(navArgs, { signal: ac.signal });
  await new Promise((r) => setImmediate(r));
  assert.equal(client.calls.length, 1);
  assert.equal(client.calls[0].options.signal.aborted, false);
  ac.abort();
  await assert.rejects(p, (e) => e instanceof lspseam.LspError && e.code === 'LSP_CANCELLED' && /^code_navigate: /.test(e.message));
  assert.equal(client.calls[0].options.signal.aborted, true);
});

test('a client that never answers: LSP_TIMEOUT once the budget (and the shim\'s grace) is over', async () => {
  const client = fakeClient(() => new Promise(() => {}));
  const [tool] = lspseam.createTools({ client, workspaceRoot: '/w', toolsets: ['code'], timeoutMs: 50 });
  // The caller's own timeoutMs is the number reported; the grace is named apart.
  await assert.rejects(tool.execute({ path: 'a.ts' }), (e) => e.code === 'LSP_TIMEOUT' && /^code_symbols: no answer within 50 ms \(timeoutMs\) and a further 2000 ms /.test(e.message));
});

test('transport failures reject: an LspError as it is, anything else as LSP_SERVER_FAILED', async () => {
  const dead = new lspseam.LspError('LSP_SERVER_FAILED', 'the lspseam shim was killed by SIGKILL');
  let [tool] = lspseam.createTools({ client: fakeClient(() => Promise.reject(dead)), workspaceRoot: '/w', toolsets: ['code'] });
  await assert.rejects(tool.execute({ path: 'a.ts' }), (e) => e === dead);
  [tool] = lspseam.createTools({ client: fakeClient(() => Promise.reject(new Error('socket closed'))), workspaceRoot: '/w', toolsets: ['code'] });
  await assert.rejects(tool.execute({ path: 'a.ts' }), (e) => e.code === 'LSP_SERVER_FAILED' && /^code_symbols: the call failed: socket closed/.test(e.message));
  // The budget it names is the caller's timeoutMs (60,000 by default), not that plus the shim's grace.
  [tool] = lspseam.createTools({ client: fakeClient(() => Promise.reject(new Error('socket closed'))), workspaceRoot: '/w', toolsets: ['code'] });
  await assert.rejects(tool.execute({ path: 'a.ts' }), (e) => /\(budget 60000 ms\)$/.test(e.message));
});

test('the lsp tool of createLspTool still works as before beside createTools', async () => {
  const client = {
    query: () => Promise.resolve({ kind: 'hover', hover: { contents: 'function f(): void' } }),
  };
  const lsp = lspseam.createLspTool({ client, workspaceRoot: '/w' });
  const out = await lsp.execute({ operation: 'hover', file_path: 'a.ts', line: 1, character: 1 });
  assert.match(out.text, /function f\(\): void/);
  await assert.rejects(lsp.execute({ operation: 'hover', file_path: 'a.ts', line: 1, character: 1 }, { signal: AbortSignal.abort() }), (e) => e.message === 'lsp: the call was cancelled before it started');
  const hung = lspseam.createLspTool({ client: { query: () => new Promise(() => {}) }, workspaceRoot: '/w', timeoutMs: 20 });
  await assert.rejects(hung.execute({ operation: 'hover', file_path: 'a.ts', line: 1, character: 1 }), (e) => e.code === 'LSP_TIMEOUT' && /^lsp: no answer within 20 ms/.test(e.message));
});
