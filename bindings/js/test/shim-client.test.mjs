// ShimClient against a scripted fake `lspseam serve` (fixtures/fake-shim.mjs):
// framing, errors, cancellation, crashes and restarts, disposal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChildProcess } from 'node:child_process';
import { ShimClient, LspError, defaultShimPath } from '../dist/node.js';
import { runFresh, repoRoot } from './helpers.mjs';

const fake = fileURLToPath(new URL('./fixtures/fake-shim.mjs', import.meta.url));
chmodSync(fake, 0o755);

function client(t, options = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'lspseam-fake-'));
  const logPath = join(dir, 'log.jsonl');
  const c = new ShimClient({ shimPath: fake, ...options, env: { FAKE_SHIM_LOG: logPath, ...options.env } });
  t.after(async () => {
    await c.dispose();
    rmSync(dir, { recursive: true, force: true });
  });
  const log = () => (existsSync(logPath) ? readFileSync(logPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : []);
  return { c, log };
}

const req = (filePath, extra = {}) => ({ operation: 'goToDefinition', filePath, position: { line: 1, character: 2 }, workspaceRoot: '/w', ...extra });
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
// Polls on real timers even while a test mocks setTimeout; no deadline (a
// condition that never holds is a hang, which the test runner reports).
const realSetTimeout = globalThis.setTimeout;
const untilEvent = async (cond) => {
  while (!cond()) await new Promise((r) => realSetTimeout(r, 5));
};
const until = async (cond, ms = 5000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

test('defaultShimPath is the repository bin/lspseam when it exists', () => {
  const inRepo = join(repoRoot, 'bin', 'lspseam');
  assert.equal(defaultShimPath(), existsSync(inRepo) ? inRepo : 'lspseam');
});

test('query: spawns `serve --config …` lazily, frames requests, resolves the result', async (t) => {
  const { c, log } = client(t, { configPath: '/tmp/x.yaml', args: ['--log-level', 'debug'], env: { FAKE_SHIM_ECHO: 'hi' } });
  assert.equal(c.pid, undefined, 'nothing runs before the first query');
  const res = await c.query(req('a.ts'));
  assert.deepEqual(res, {
    kind: 'locations',
    locations: [{ uri: 'file:///w/a.ts', range: { start: { line: 1, character: 2 }, end: { line: 1, character: 2 } } }],
    workspaceUri: 'file:///w',
  });
  assert.deepEqual(log()[0].argv, ['serve', '--config', '/tmp/x.yaml', '--log-level', 'debug']);
  assert.equal((await c.query(req('echo-env.ts'))).hover.contents, 'hi');
  const q = log().find((m) => m.method === 'lsp/query');
  assert.deepEqual(q, { jsonrpc: '2.0', id: 1, method: 'lsp/query', params: req('a.ts') });
});

test('concurrent queries resolve by id, out of order', async (t) => {
  const { c } = client(t);
  const slow = c.query(req('later.ts'));
  const fast = c.query(req('b.ts'));
  const order = [];
  await Promise.all([slow.then(() => order.push('later')), fast.then(() => order.push('b'))]);
  assert.deepEqual(order, ['b', 'later']);
  assert.equal((await slow).hover.contents, 'later');
});

test('a seam error rejects with LspError(data.code); any other JSON-RPC error is LSP_PROTOCOL_ERROR', async (t) => {
  const { c } = client(t);
  await assert.rejects(c.query(req('error.ts')), (e) => e instanceof LspError && e.code === 'LSP_SOURCE_REJECTED' && e.message === 'error.ts: not a regular file');
  await assert.rejects(c.query(req('plain-error.ts')), (e) => e.code === 'LSP_PROTOCOL_ERROR' && /-32603: internal/.test(e.message));
});

test('params JSON cannot carry reject LSP_INVALID_ARGUMENT; nothing is sent and the shim keeps working', async (t) => {
  const { c, log } = client(t);
  const pid = (await c.query(req('a.ts')), c.pid);
  const cyclic = {};
  cyclic.self = cyclic;
  await assert.rejects(c.callTool('code_navigate', { target: { path: 'a.ts', line: 1n } }, '/w'), (e) => e.code === 'LSP_INVALID_ARGUMENT' && /^tools\/call: .*BigInt/.test(e.message));
  await assert.rejects(c.callTool('code_navigate', cyclic, '/w'), (e) => e.code === 'LSP_INVALID_ARGUMENT' && /circular/.test(e.message));
  await assert.rejects(c.query(req('b.ts', { timeoutMs: 5n })), { code: 'LSP_INVALID_ARGUMENT' });
  await c.query(req('b.ts'));
  assert.equal(c.pid, pid, 'the same shim');
  assert.deepEqual(log().filter((m) => m.method).map((m) => m.method), ['lsp/query', 'lsp/query']);
});

test('aborting sends $/cancelRequest for that id and rejects with LSP_CANCELLED', async (t) => {
  const { c, log } = client(t);
  await c.query(req('a.ts')); // id 1
  const ac = new AbortController();
  const p = c.query(req('slow.ts'), { signal: ac.signal }); // id 2
  await until(() => log().some((m) => m.method === 'lsp/query' && m.id === 2));
  ac.abort();
  await assert.rejects(p, (e) => e instanceof LspError && e.code === 'LSP_CANCELLED');
  await until(() => log().some((m) => m.method === '$/cancelRequest'));
  assert.deepEqual(log().find((m) => m.method === '$/cancelRequest').params, { id: 2 });
  assert.ok((await c.query(req('a.ts'))).locations, 'the client still works');
});

test('an already-aborted signal rejects with LSP_CANCELLED and starts nothing', async (t) => {
  const { c } = client(t);
  await assert.rejects(c.query(req('a.ts'), { signal: AbortSignal.abort() }), { code: 'LSP_CANCELLED' });
  assert.equal(c.pid, undefined);
});

test('a shim crash fails its pending queries with LSP_SERVER_FAILED once; the next query starts a new shim', async (t) => {
  const exits = [];
  const { c } = client(t, { onExit: (info) => exits.push(info) });
  await c.query(req('a.ts'));
  const first = c.pid;
  const pending = c.query(req('slow.ts'));
  const crash = c.query(req('crash.ts'));
  for (const p of [pending, crash]) {
    await assert.rejects(p, (e) => {
      assert.equal(e.code, 'LSP_SERVER_FAILED');
      assert.match(e.message, /exited with code 3/);
      assert.match(e.message, /fake shim: about to crash/);
      assert.match(e.message, /the next query starts a new one/);
      return true;
    });
  }
  assert.equal(exits.length, 1);
  assert.equal(exits[0].code, 3);
  assert.ok((await c.query(req('a.ts'))).locations);
  assert.notEqual(c.pid, first);
  assert.ok(!alive(first));
});

test('a shim killed while idle is restarted by the next query', async (t) => {
  const { c } = client(t);
  await c.query(req('a.ts'));
  const first = c.pid;
  process.kill(first, 'SIGKILL');
  await until(() => c.pid === undefined);
  assert.ok((await c.query(req('a.ts'))).locations);
  assert.notEqual(c.pid, first);
});

test('broken framing from the shim is LSP_PROTOCOL_ERROR; the shim is replaced', async (t) => {
  const { c } = client(t);
  await c.query(req('a.ts'));
  const first = c.pid;
  await assert.rejects(c.query(req('garbage.ts')), (e) => e.code === 'LSP_PROTOCOL_ERROR' && /Content-Length/.test(e.message));
  await until(() => !alive(first));
  assert.ok((await c.query(req('a.ts'))).locations);
});

test('a missing shim rejects with LSP_SERVER_FAILED and says how to build it', async (t) => {
  const c = new ShimClient({ shimPath: '/nonexistent/lspseam' });
  t.after(() => c.dispose());
  await assert.rejects(c.query(req('a.ts')), (e) => e.code === 'LSP_SERVER_FAILED' && /ENOENT/.test(e.message) && /make build/.test(e.message));
  await assert.rejects(c.query(req('a.ts')), { code: 'LSP_SERVER_FAILED' });
});

test('a shim that cannot start reports its own code (e.g. LSP_CONFIG_INVALID)', async (t) => {
  const { c } = client(t, { env: { FAKE_SHIM_STARTUP_ERROR: 'LSP_CONFIG_INVALID: servers.ts.command: required\nservers.ts.args: must be a list' } });
  await assert.rejects(c.query(req('a.ts')), (e) => {
    assert.equal(e.code, 'LSP_CONFIG_INVALID');
    assert.equal(e.message, 'lspseam serve could not start: servers.ts.command: required\nservers.ts.args: must be a list');
    return true;
  });
});

test('dispose(): shutdown then exit; running queries reject LSP_DISPOSED; later queries too', async (t) => {
  const { c, log } = client(t);
  await c.query(req('a.ts'));
  const pid = c.pid;
  const running = c.query(req('slow.ts'));
  const d = c.dispose();
  assert.equal(c.dispose(), d, 'idempotent');
  await assert.rejects(running, { code: 'LSP_DISPOSED' });
  await d;
  assert.ok(!alive(pid));
  const methods = log().map((m) => m.method).filter(Boolean);
  assert.deepEqual(methods.slice(-2), ['shutdown', 'exit']);
  await assert.rejects(c.query(req('a.ts')), { code: 'LSP_DISPOSED' });
});

// The watchdog only turns a hang (a step that never comes) into a failure.
test('dispose() of a shim that ignores shutdown and SIGTERM: each step waits for its grace, then SIGKILL', { timeout: 60_000 }, async (t) => {
  let pid;
  // First after-hook: a failed step leaves dispose() waiting on a mocked grace; ending the shim ends that wait.
  t.after(() => pid && alive(pid) && process.kill(pid, 'SIGKILL'));
  const { c, log } = client(t, { env: { FAKE_SHIM_STUBBORN: '1' }, shutdownTimeoutMs: 200, killGraceMs: 300 });
  await c.query(req('a.ts'));
  pid = c.pid;
  // The client's grace timers are mocked: a grace ends only when the test ticks it.
  // Signals sent to the shim are recorded as the client sends them.
  const kills = [];
  const kill = ChildProcess.prototype.kill;
  ChildProcess.prototype.kill = function (signal) {
    if (this.pid === pid) kills.push(signal);
    return kill.call(this, signal);
  };
  t.after(() => (ChildProcess.prototype.kill = kill));
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const logged = (pred) => untilEvent(() => log().some(pred));
  const settled = () => new Promise((r) => setImmediate(r));

  const d = c.dispose();
  await logged((m) => m.method === 'shutdown'); // unanswered: the shim is stubborn
  await settled();
  assert.deepEqual(kills, [], 'a signal before the shutdown grace ended');
  t.mock.timers.tick(199);
  await settled();
  assert.equal(log().some((m) => m.method === 'exit'), false, 'exit before the shutdown grace ended');
  t.mock.timers.tick(1); // shutdownTimeoutMs over: exit, stdin closed
  await logged((m) => m.method === 'exit');
  await settled();
  assert.deepEqual(kills, [], 'SIGTERM before the grace after exit ended');
  t.mock.timers.tick(300); // killGraceMs over: SIGTERM
  await settled();
  assert.deepEqual(kills, ['SIGTERM']);
  await logged((m) => m.ignored === 'SIGTERM');
  assert.ok(alive(pid), 'the stubborn shim outlives SIGTERM');
  t.mock.timers.tick(300); // killGraceMs over again: SIGKILL
  await d;
  assert.deepEqual(kills, ['SIGTERM', 'SIGKILL']);
  assert.ok(!alive(pid));
  const steps = log().map((m) => m.method ?? (m.ignored && `ignored ${m.ignored}`)).filter(Boolean);
  assert.deepEqual(steps, ['lsp/query', 'shutdown', 'exit', 'ignored SIGTERM']);
});

test('an idle client does not keep Node running, and its shim is terminated when the process exits', async () => {
  const { stdout } = await runFresh(`
    import { ShimClient } from './dist/node.js';
    const c = new ShimClient({ shimPath: ${JSON.stringify(fake)}, env: { FAKE_SHIM_IGNORE_EOF: '1' } });
    await c.query({ operation: 'hover', filePath: 'a.ts', position: { line: 0, character: 0 }, workspaceRoot: '/w' });
    process.stdout.write(String(c.pid));
  `);
  const pid = Number(stdout);
  assert.ok(pid > 0);
  await until(() => !alive(pid), 3000);
});
