// createLspTool with a scripted client: the order of checks, the budget,
// rendering and presentation from the core.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as lspseam from '../dist/node.js';

await lspseam.init();

function fakeClient(answer) {
  const calls = [];
  return {
    calls,
    query(request, options) {
      calls.push({ request, signal: options?.signal });
      return typeof answer === 'function' ? answer(request, options) : Promise.resolve(answer);
    },
  };
}

const args = { operation: 'findReferences', file_path: 'src/a.ts', line: 3, character: 7 };
const locations = (uris) => ({
  kind: 'locations',
  locations: uris.map((uri, i) => ({ uri, range: { start: { line: i, character: 1 }, end: { line: i, character: 4 } } })),
});

test('the tool carries the core tool definition', () => {
  const tool = lspseam.createLspTool({ client: fakeClient(null), workspaceRoot: '/w' });
  const def = lspseam.toolDefinition();
  assert.equal(tool.name, 'lsp');
  assert.equal(tool.description, def.description);
  assert.deepEqual(tool.inputSchema, def.inputSchema);
  assert.equal(typeof tool.execute, 'function');
});

test('no workspaceRoot rejects LSP_WORKSPACE_REQUIRED before anything else', async () => {
  for (const workspaceRoot of [undefined, '']) {
    const client = fakeClient(null);
    const tool = lspseam.createLspTool({ client, workspaceRoot });
    await assert.rejects(tool.execute({ bad: true }, { signal: AbortSignal.abort() }), { code: 'LSP_WORKSPACE_REQUIRED' });
    assert.equal(client.calls.length, 0);
  }
});

test('an already-aborted signal rejects LSP_CANCELLED without a query', async () => {
  const client = fakeClient(null);
  const tool = lspseam.createLspTool({ client, workspaceRoot: '/w' });
  await assert.rejects(tool.execute(args, { signal: AbortSignal.abort() }), { code: 'LSP_CANCELLED' });
  assert.equal(client.calls.length, 0);
});

test('bad arguments reject LSP_INVALID_ARGUMENT (the convention restated) without a query', async () => {
  const client = fakeClient(null);
  const tool = lspseam.createLspTool({ client, workspaceRoot: '/w' });
  await assert.rejects(tool.execute({ ...args, line: 0 }), (e) => e.code === 'LSP_INVALID_ARGUMENT' && /one-based/.test(e.message));
  await assert.rejects(tool.execute({ ...args, extra: 1 }), { code: 'LSP_INVALID_ARGUMENT' });
  await assert.rejects(tool.execute('{not json'), { code: 'LSP_INVALID_ARGUMENT' });
  await assert.rejects(tool.execute(undefined), { code: 'LSP_INVALID_ARGUMENT' });
  // What JSON cannot carry is an argument error too, not LSP_SERVER_FAILED (a dead shim's code).
  const cyclic = { ...args };
  cyclic.self = cyclic;
  await assert.rejects(tool.execute({ ...args, line: 3n }), (e) => e.code === 'LSP_INVALID_ARGUMENT' && /^lsp: the arguments cannot be sent as JSON \(.*BigInt/.test(e.message) && /not BigInt/.test(e.message));
  await assert.rejects(tool.execute(cyclic), (e) => e.code === 'LSP_INVALID_ARGUMENT' && /circular/.test(e.message));
  assert.equal(client.calls.length, 0);
});

test('a result resolves {text, value, presentation}: zero-based query, rendering in the result workspace', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] }); // the budget's clock moves only when ticked
  const value = { ...locations(['file:///real/w/src/b.ts', 'file:///real/w/src/a.ts', 'file:///usr/lib/x.d.ts']), workspaceUri: 'file:///real/w' };
  const client = fakeClient(value);
  const tool = lspseam.createLspTool({ client, workspaceRoot: '/w', timeoutMs: 5000 });
  // 30 ms pass while the tool reads the arguments, after the call started.
  const out = await tool.execute({ ...args, toJSON: () => (t.mock.timers.tick(30), args) });
  assert.equal(out.text, 'src/b.ts:1:2\nsrc/a.ts:2:2\n/usr/lib/x.d.ts:3:2');
  assert.deepEqual(out.value, value);
  assert.deepEqual(out.presentation, { card: 'generic', kind: 'search', title: 'LSP findReferences src/a.ts:3:7', locations: [{ path: 'src/a.ts', line: 3 }] });
  assert.deepEqual(out.rendered, { text: out.text, shown: 3, omitted: 0, truncated: false });
  const { request, signal } = client.calls[0];
  // Zero-based positions, with the model's one-based terms for errors.
  assert.deepEqual({ ...request, timeoutMs: undefined }, { operation: 'findReferences', filePath: 'src/a.ts', position: { line: 2, character: 6 }, workspaceRoot: '/w', positionTerms: 'one-based', timeoutMs: undefined });
  assert.equal(request.timeoutMs, 4970, 'the shim gets the remaining budget');
  assert.ok(signal instanceof AbortSignal && !signal.aborted);
});

test('without a workspaceUri in the result, the file URI of workspaceRoot is used; limits apply; JSON text args work', async () => {
  const client = fakeClient(locations(['file:///my%20w/a.ts', 'file:///my%20w/b.ts', 'file:///elsewhere/c.ts']));
  const tool = lspseam.createLspTool({ client, workspaceRoot: '/my w', limits: { maxLocations: 2 } });
  const out = await tool.execute(JSON.stringify(args));
  assert.match(out.text, /^a\.ts:1:2\nb\.ts:2:2\n.*1 more/s);
  assert.equal(out.rendered.omitted, 1);
  assert.equal(out.presentation.title, 'LSP findReferences src/a.ts:3:7');
});

test('hover results and empty results render their own lines', async () => {
  const hover = lspseam.createLspTool({ client: fakeClient({ kind: 'hover', hover: { contents: '```ts\nfunction f(): void\n```' } }), workspaceRoot: '/w' });
  assert.equal((await hover.execute({ ...args, operation: 'hover' })).text, '```ts\nfunction f(): void\n```');
  const none = lspseam.createLspTool({ client: fakeClient({ kind: 'hover', hover: null }), workspaceRoot: '/w' });
  assert.match((await none.execute({ ...args, operation: 'hover' })).text, /one-based/);
});

test('timeoutMs covers the whole call: LSP_TIMEOUT when the budget runs out, not before; the client signal is aborted', async (t) => {
  // The budget's timer and clock are mocked: time moves only when the test ticks it.
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  let started;
  const queried = new Promise((r) => (started = r));
  const client = fakeClient(() => (started(), new Promise(() => {}))); // never answers, ignores the signal
  const tool = lspseam.createLspTool({ client, workspaceRoot: '/w', timeoutMs: 100 });
  let settled = false;
  const p = tool.execute(args).finally(() => (settled = true));
  p.catch(() => {});
  await queried;
  assert.equal(client.calls[0].request.timeoutMs, 100, 'the shim gets the whole budget');
  t.mock.timers.tick(99);
  await new Promise((r) => setImmediate(r)); // let any rejection the tick caused settle
  assert.equal(settled, false, 'rejected before the budget ran out');
  assert.equal(client.calls[0].signal.aborted, false);
  t.mock.timers.tick(1);
  await assert.rejects(p, (e) => e instanceof lspseam.LspError && e.code === 'LSP_TIMEOUT' && /100 ms/.test(e.message));
  assert.ok(client.calls[0].signal.aborted);
});

test('the caller aborting mid-query rejects LSP_CANCELLED and aborts the client signal', async () => {
  let started;
  const queried = new Promise((r) => (started = r));
  const client = fakeClient((_req, { signal }) => {
    started();
    return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new lspseam.LspError('LSP_CANCELLED', 'client saw it'))));
  });
  const tool = lspseam.createLspTool({ client, workspaceRoot: '/w' });
  const ac = new AbortController();
  const p = tool.execute(args, { signal: ac.signal });
  await queried; // the query is with the client: abort it there
  assert.equal(client.calls[0].signal.aborted, false);
  ac.abort();
  await assert.rejects(p, { code: 'LSP_CANCELLED' });
  assert.ok(client.calls[0].signal.aborted);
});

test('client failures pass through as LspError; other errors become LSP_SERVER_FAILED', async () => {
  const seam = lspseam.createLspTool({ client: fakeClient(() => Promise.reject(new lspseam.LspError('LSP_UNAVAILABLE', 'no server for .rs'))), workspaceRoot: '/w' });
  await assert.rejects(seam.execute(args), { code: 'LSP_UNAVAILABLE', message: 'no server for .rs' });
  const plain = lspseam.createLspTool({ client: fakeClient(() => Promise.reject(new TypeError('boom'))), workspaceRoot: '/w' });
  await assert.rejects(plain.execute(args), (e) => e instanceof lspseam.LspError && e.code === 'LSP_SERVER_FAILED' && /boom/.test(e.message) && e.cause instanceof TypeError);
});

test('a malformed result from a client is reported by the core, as an LspError', async () => {
  const tool = lspseam.createLspTool({ client: fakeClient({ kind: 'weird' }), workspaceRoot: '/w' });
  await assert.rejects(tool.execute(args), (e) => e instanceof lspseam.LspError && e.code === 'LSP_INVALID_ARGUMENT');
});

test('timeoutMs must be a positive integer', () => {
  for (const timeoutMs of [0, -1, 1.5, NaN]) {
    assert.throws(() => lspseam.createLspTool({ client: fakeClient(null), workspaceRoot: '/w', timeoutMs }), { code: 'LSP_INVALID_ARGUMENT' });
  }
});

test('fileUri encodes paths the core reads back', () => {
  assert.equal(lspseam.fileUri('/my w/a#b'), 'file:///my%20w/a%23b');
  assert.equal(lspseam.fileUri('C:\\work\\p'), 'file:///C:/work/p');
  assert.equal(lspseam.fileUri('file:///x'), 'file:///x');
  const r = lspseam.render({ result: locations(['file:///my%20w/%C3%A9/a.ts']), workspaceUri: lspseam.fileUri('/my w') });
  assert.equal(r.text, 'é/a.ts:1:2');
});
