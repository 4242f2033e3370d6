// The `lsp` tool end to end: this package's core + ShimClient + the real
// shim (built from cmd/shim) + the real typescript-language-server on the
// TypeScript fixture. Exact answers come from
// testdata/workspaces/expectations.json (workspace "ts").
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as lspseam from '../dist/node.js';
import { repoRoot } from './helpers.mjs';

const toolsDir = join(repoRoot, '.tools');
const tsls = join(toolsDir, 'bin', 'typescript-language-server');
const workspace = join(repoRoot, 'testdata', 'workspaces', 'ts');
const tsRows = JSON.parse(readFileSync(join(repoRoot, 'testdata', 'workspaces', 'expectations.json'), 'utf8')).queries.filter((q) => q.workspace === 'ts');
const rows = tsRows.filter((q) => !q.errorCode);
const errorRows = tsRows.filter((q) => q.errorCode);

let tmp;
let shimPath;
let configPath;
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

// A language server that cannot answer until the test opens its gate: a
// script named typescript-language-server (so the shim applies that server's
// readiness policy) that waits for a release file, then becomes the real
// server (exec). While a process under the shim runs this script, no
// language server has seen a single message.
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
    // The shim's children still waiting at the gate.
    waiting: (shim) => descendants(shim).filter((pid) => cmdline(pid).includes(script)),
  };
}

before(async () => {
  // Fails, never skips: the e2e suite needs the pinned servers.
  assert.ok(existsSync(tsls), `typescript-language-server is not installed at ${tsls}: run \`make servers\` in ${repoRoot}`);
  tmp = mkdtempSync(join(tmpdir(), 'lspseam-js-e2e-'));
  shimPath = join(tmp, 'lspseam');
  execFileSync('go', ['build', '-o', shimPath, './cmd/shim'], { cwd: repoRoot, stdio: 'inherit' });
  configPath = join(tmp, 'lspseam.yaml');
  writeFileSync(configPath, configFor(tsls));
  await lspseam.init();
});

after(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const expand = (s) => s.replaceAll('{TOOLS}', realpathSync(toolsDir));
// The lines of an answer after its first, which names what it is for (the identifier at the position).
const answerLines = (text) => {
  const [subject, ...rest] = text.split('\n');
  assert.match(subject, /^(`.+` (at|just before) line \d+, column \d+|No identifier at line \d+, column \d+)/, `no subject line: ${text}`);
  return rest;
};
const argsOf = (row) => ({ operation: row.operation, file_path: row.file, line: row.line, character: row.character });

test('all four operations give the exact expected answers (every ts row of expectations.json)', async () => {
  const tool = lspseam.createLspTool({ client: newClient(), workspaceRoot: workspace });
  const ops = new Set();
  for (const row of rows) {
    const out = await tool.execute(argsOf(row));
    ops.add(row.operation);
    assert.equal(out.value.incomplete, undefined, `${row.id}: incomplete: ${out.value.incomplete}`);
    assert.deepEqual(out.presentation, {
      card: 'generic',
      kind: 'search',
      title: `LSP ${row.operation} ${row.file}:${row.line}:${row.character}`,
      locations: [{ path: row.file, line: row.line }],
    });
    assert.equal(out.text.split('\n')[0], row.subject, `${row.id}: the first line names what the answer is for`);
    assert.equal(out.value.subject, row.subject, row.id);
    if (row.hoverContains) {
      assert.equal(out.value.kind, 'hover', row.id);
      for (const fragment of row.hoverContains) assert.ok(out.text.includes(fragment), `${row.id}: hover lacks ${JSON.stringify(fragment)}:\n${out.text}`);
    } else {
      assert.equal(out.value.kind, 'locations', row.id);
      const got = answerLines(out.text).sort();
      const want = row.locations.map(expand).sort();
      assert.deepEqual(got, want, row.id);
      assert.equal(out.rendered.shown, want.length, row.id);
    }
  }
  assert.deepEqual([...ops].sort(), ['findReferences', 'goToDefinition', 'goToImplementation', 'hover']);
  assert.ok(rows.length >= 12, `only ${rows.length} rows`);
});

test('a position past the end of a line or of the file is LSP_INVALID_ARGUMENT in one-based terms (every ts error row)', async () => {
  const tool = lspseam.createLspTool({ client: newClient(), workspaceRoot: workspace });
  assert.ok(errorRows.length >= 2, `only ${errorRows.length} error rows`);
  for (const row of errorRows) {
    await assert.rejects(tool.execute(argsOf(row)), (e) => e.code === row.errorCode && row.errorContains.every((f) => e.message.includes(f)), row.id);
  }
});

test('a tool error: a file outside the workspace is rejected before any query', async () => {
  const tool = lspseam.createLspTool({ client: newClient(), workspaceRoot: workspace });
  await assert.rejects(tool.execute({ operation: 'hover', file_path: '../go/outside.ts', line: 1, character: 1 }), (e) => e.code === 'LSP_SOURCE_REJECTED' && /outside/.test(e.message));
  await assert.rejects(tool.execute({ operation: 'hover', file_path: 'src/missing.ts', line: 1, character: 1 }), { code: 'LSP_SOURCE_REJECTED' });
});

test('a missing config file: the shim cannot start, LSP_CONFIG_INVALID names the file', async () => {
  const client = new lspseam.ShimClient({ shimPath, configPath: join(tmp, 'missing.yaml') });
  clients.push(client);
  const tool = lspseam.createLspTool({ client, workspaceRoot: workspace });
  await assert.rejects(tool.execute(argsOf(rows[0])), (e) => e.code === 'LSP_CONFIG_INVALID' && e.message.includes('missing.yaml'));
});

test('aborting mid-query rejects LSP_CANCELLED without waiting for the server; the client keeps working', async () => {
  const gate = gatedServer('abort');
  const client = newClient(gate.config);
  const tool = lspseam.createLspTool({ client, workspaceRoot: workspace });
  const ac = new AbortController();
  const p = tool.execute(argsOf(rows[0]), { signal: ac.signal });
  // Mid-query: the shim has started the language server for this query, and it cannot answer.
  await waitFor(() => client.pid !== undefined && gate.waiting(client.pid).length > 0);
  ac.abort();
  await assert.rejects(p, { code: 'LSP_CANCELLED' });
  // The rejection came while the server was still shut behind its gate: it did not wait for an answer.
  assert.equal(gate.isOpen(), false);
  // (The shim stops a server whose start was cancelled, so whether its
  // wrapper still waits at this point is a race, not asserted: the gate,
  // never opened, shows the rejection did not wait for the server.)
  gate.open();
  const out = await tool.execute(argsOf(rows[0]));
  assert.deepEqual(answerLines(out.text).sort(), rows[0].locations.map(expand).sort());
});

// The watchdog only turns a hang (a budget that never ends while the gate is shut) into a failure.
test('the timeout rejects LSP_TIMEOUT without waiting for the server; the next call with a budget succeeds', { timeout: 180_000 }, async () => {
  const gate = gatedServer('timeout');
  const client = newClient(gate.config);
  const hurried = lspseam.createLspTool({ client, workspaceRoot: workspace, timeoutMs: 250 });
  // No server can answer before the gate opens, and it opens only after the rejection.
  await assert.rejects(hurried.execute(argsOf(rows[0])), (e) => e instanceof lspseam.LspError && e.code === 'LSP_TIMEOUT');
  assert.equal(gate.isOpen(), false);
  gate.open();
  const patient = lspseam.createLspTool({ client, workspaceRoot: workspace });
  const out = await patient.execute(argsOf(rows[0]));
  assert.deepEqual(answerLines(out.text).sort(), rows[0].locations.map(expand).sort());
});

test('a shim killed while idle is restarted by the next call', async () => {
  const client = newClient();
  const tool = lspseam.createLspTool({ client, workspaceRoot: workspace });
  const row = rows.find((r) => r.operation === 'findReferences');
  await tool.execute(argsOf(row));
  const first = client.pid;
  process.kill(first, 'SIGKILL');
  await waitFor(() => client.pid === undefined);
  const out = await tool.execute(argsOf(row));
  assert.deepEqual(answerLines(out.text).sort(), row.locations.map(expand).sort());
  assert.ok(client.pid && client.pid !== first);
});

test('a shim killed during a query fails it with LSP_SERVER_FAILED; the next call restarts it', async () => {
  const gate = gatedServer('kill');
  const client = newClient(gate.config);
  const tool = lspseam.createLspTool({ client, workspaceRoot: workspace });
  const p = tool.execute(argsOf(rows[0]));
  // During the query: its language server has started and cannot answer yet.
  await waitFor(() => client.pid !== undefined && gate.waiting(client.pid).length > 0);
  const killed = client.pid;
  process.kill(killed, 'SIGKILL');
  await assert.rejects(p, (e) => e.code === 'LSP_SERVER_FAILED' && /killed by SIGKILL/.test(e.message));
  gate.open();
  const out = await tool.execute(argsOf(rows[0]));
  assert.deepEqual(answerLines(out.text).sort(), rows[0].locations.map(expand).sort());
  assert.ok(client.pid && client.pid !== killed);
});

test('dispose() leaves no process behind', async () => {
  const client = newClient();
  const tool = lspseam.createLspTool({ client, workspaceRoot: workspace });
  await tool.execute(argsOf(rows[0]));
  const shim = client.pid;
  const tree = [shim, ...descendants(shim)];
  assert.ok(tree.length >= 2, `the shim runs a language server: ${JSON.stringify(processTable().filter((p) => tree.includes(p.pid)))}`);
  await client.dispose();
  // Its language servers end after the shim: wait for that, failing with what still runs.
  await waitFor(() => tree.every((pid) => !exists(pid)), () => `still running: ${tree.filter(exists).map((pid) => `${pid} ${cmdline(pid)}`).join('; ')}`);
  assert.equal(client.pid, undefined);
  await assert.rejects(tool.execute(argsOf(rows[0])), { code: 'LSP_DISPOSED' });
});

test('after every client is disposed, this process has no child processes', async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await waitFor(() => children(process.pid).length === 0, () => `children left: ${children(process.pid).map((pid) => `${pid} ${cmdline(pid)}`).join('; ')}`);
});

// ---- processes, from /proc ----

function processTable() {
  const out = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // after "pid (comm) "
      if (fields[0] !== 'Z') out.push({ pid: Number(name), ppid: Number(fields[1]) });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
function children(pid) {
  return processTable().filter((p) => p.ppid === pid).map((p) => p.pid);
}
function descendants(pid) {
  const table = processTable();
  const out = [];
  const walk = (p) => table.filter((q) => q.ppid === p).forEach((q) => (out.push(q.pid), walk(q.pid)));
  walk(pid);
  return out;
}
function exists(pid) {
  return processTable().some((p) => p.pid === pid);
}
function cmdline(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '?';
  }
}
// Waits for a condition on the process table. The deadline is a watchdog
// against hangs, far beyond any expected wait, not a performance claim.
async function waitFor(cond, what = () => 'condition never held') {
  const end = Date.now() + 120_000;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`after 120 s: ${what()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
