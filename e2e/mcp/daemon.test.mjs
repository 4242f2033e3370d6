// `lspseam daemon` (cmd/shim/daemon.go, relay.go) with real clients: the
// official MCP TypeScript SDK client starting real `lspseam mcp --daemon
// require` processes against the real servers (.tools/bin), on the
// presets (no --config):
//   - 8 concurrent clients on one workspace run exactly one gopls and one
//     typescript-language-server, and every answer equals the one a single
//     standalone process (--daemon off) gives;
//   - a preview is its own client's: another client of the same daemon and
//     workspace cannot apply it by its previewId;
//   - a client killed (SIGKILL) while its call is in flight leaves the
//     others' answers intact, and the daemon counts it out;
//   - the daemon killed with SIGKILL leaves no language server behind, and
//     the next client starts a fresh daemon that answers the same;
//   - nothing lost: the fs tools' stale-version guard (FS_STALE) holds
//     between two clients of one daemon, and between a daemon client and a
//     standalone process side by side.
//
// Workspaces (copies; the fixtures are never edited in place):
//   - shared: testdata/workspaces/go and testdata/workspaces/ts merged into
//     one directory — go.mod and the Go packages at the root, the TS
//     fixture's package.json, tsconfig.json (include: ["src"]) and src/
//     beside them; no name is in both — so both servers are rooted at the
//     same workspace and one session reaches both;
//   - scratch: a copy of testdata/workspaces/go alone, where the rename
//     preview is applied and the fs edits are made, so the shared
//     workspace's reference answers stay valid throughout.
//
// The steps share one daemon, in order; each is a test of its own, and
// every wait polls with a deadline derived from its test's timeout.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const toolsBin = join(repoRoot, '.tools', 'bin');
const workspaces = join(repoRoot, 'testdata', 'workspaces');
const CLIENTS = 8;

let tmp, runtime, shim, shared, scratch, cache;
// tag, in the environment, marks the clients this file starts and the
// daemon (a relay starts it with its own environment): `${tag}=${tmp}=daemon`
// or `=standalone`. Other tests on this machine may run gopls from the same
// .tools at the same time; only ours are counted (procs()).
const tag = 'LSPSEAM_E2E_DAEMON_TEST';
let tagValue;
const clients = []; // every client this file started: { client, transport, pid, role }

// stepEnd is the running test's deadline; budget() is a share of what is
// left of it, for one wait (as cmd/shim/daemon_test.go's testBudget).
let stepEnd = 0;
const budget = () => Math.max(1_000, (stepEnd - Date.now()) / 4);
function step(name, timeout, fn) {
  test(name, { timeout }, async (t) => {
    stepEnd = Date.now() + timeout;
    try {
      await fn(t);
    } catch (err) {
      // The daemon's log, and what the clients said, with the failure.
      const said = clients.filter((c) => c.stderr).map((c) => `client ${c.pid} (${c.role}) stderr:\n${c.stderr}`).join('\n');
      console.error(`${daemonLogs()}\n${said}`);
      throw err;
    }
  });
}

// eventually polls cond until it holds or budget() runs out.
async function eventually(what, cond) {
  const end = Date.now() + budget();
  for (;;) {
    const got = await cond();
    if (got === true) return;
    assert.ok(Date.now() < end, `${what} did not happen within ${Math.round(budget() / 1000)} s${typeof got === 'string' ? ': ' + got : ''}`);
    await sleep(50);
  }
}

function copyInto(dir, ...fixtures) {
  mkdirSync(dir, { recursive: true });
  const skip = new Set(['.cache', 'node_modules', '__pycache__']);
  for (const ws of fixtures) cpSync(join(workspaces, ws), dir, { recursive: true, filter: (src) => !skip.has(basename(src)) });
  return dir;
}

before(() => {
  for (const server of ['gopls', 'typescript-language-server']) {
    assert.ok(existsSync(join(toolsBin, server)), `${server} is not installed in ${toolsBin}: run \`make servers\``);
  }
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'lspseam-mcp-daemon-')));
  // A Unix socket's path is at most 108 bytes: the runtime directory is
  // short, and private (the daemon refuses one others can enter).
  runtime = realpathSync(mkdtempSync(join(tmpdir(), 'lsd')));
  chmodSync(runtime, 0o700);
  tagValue = tmp;
  shim = process.env.LSPSEAM_BIN || join(tmp, 'lspseam');
  if (!process.env.LSPSEAM_BIN) {
    execFileSync('go', ['build', '-o', shim, './cmd/shim'], { cwd: repoRoot, stdio: 'inherit' });
  }
  cache = join(tmp, 'cache');
  shared = copyInto(join(tmp, 'ws'), 'go', 'ts');
  scratch = copyInto(join(tmp, 'scratch'), 'go');
});

const afterTimeout = 60_000;
after(async () => {
  const end = Date.now() + afterTimeout / 2;
  // Every client, then the daemon; stop returns once its servers are shut down.
  for (const c of clients) {
    await c.client.close().catch(() => {});
    if (alive(c.pid)) process.kill(c.pid, 'SIGKILL');
  }
  if (runtime) {
    try {
      execFileSync(shim, ['daemon', 'stop'], { env: environ('daemon'), encoding: 'utf8' });
    } catch (err) {
      console.error(`daemon stop: ${err.message}`);
    }
  }
  // No process of ours is left: not a client, not a daemon, not a server.
  let left = ours();
  while (left.length > 0 && Date.now() < end) {
    await sleep(100);
    left = ours();
  }
  for (const p of left) process.kill(p.pid, 'SIGKILL');
  if (runtime) rmSync(runtime, { recursive: true, force: true });
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  assert.deepEqual(left.map(describeProc), [], 'processes left after the tests');
}, { timeout: afterTimeout });

function environ(role) {
  return {
    ...process.env,
    PATH: `${toolsBin}:${process.env.PATH}`,
    LSPSEAM_CACHE_DIR: cache,
    LSPSEAM_RUNTIME_DIR: runtime,
    [tag]: `${tagValue}=${role}`,
  };
}

// connect starts `lspseam mcp` on ws: relaying to the daemon (role
// 'daemon': --daemon require) or serving in its own process ('standalone':
// --daemon off). Its stderr is kept for failure messages.
async function connect(role, ws, tools = 'lsp,code') {
  const client = new Client({ name: `lspseam-e2e-daemon-${role}`, version: '0.0.0' });
  const transport = new StdioClientTransport({
    command: shim,
    args: ['mcp', '--daemon', role === 'daemon' ? 'require' : 'off', '--workspace', ws, '--tools', tools],
    cwd: tmp,
    env: environ(role),
    stderr: 'pipe',
  });
  const c = { client, transport, role, stderr: '' };
  transport.stderr.on('data', (d) => (c.stderr += d));
  await client.connect(transport);
  c.pid = transport.pid;
  clients.push(c);
  return c;
}

async function close(c) {
  await c.client.close();
  await eventually(`client ${c.pid}'s exit`, () => !alive(c.pid));
}

const text = (res) => res.content.filter((c) => c.type === 'text').map((c) => c.text).join('');
const call = (c, name, args, opts = {}) => c.client.callTool({ name, arguments: args }, undefined, { timeout: budget(), ...opts });

// The questions, each with what its answer must say (the reference is
// checked too: an empty or wrong reference would make equality vacuous).
const questions = [
  { name: 'code_symbols', args: { path: 'shape.go' }, says: ['shape.go — 5 symbols', 'function Describe 15–17'] },
  { name: 'code_symbols', args: { path: 'src/shape.ts' }, says: ['src/shape.ts — 6 symbols', 'function describe 13–15'] },
  { name: 'code_navigate', args: { target: { path: 'shape.go', symbol: 'Describe' }, kind: 'references' }, says: ['3 locations in 3 files', 'cmd/shapes/main.go\n  23:17', 'report.go\n  12:17'] },
  { name: 'code_navigate', args: { target: { path: 'src/shape.ts', symbol: 'describe' }, kind: 'references' }, says: ['6 locations in 3 files', 'src/main.ts\n  4:10', 'src/report.ts\n  1:10'] },
  { name: 'code_navigate', args: { target: { path: 'rect.go', symbol: 'Rect' }, kind: 'references' }, says: ['Target: `Rect` (struct) at rect.go:4:6'] },
  { name: 'code_hover', args: { target: { path: 'shape.go', symbol: 'Describe' } }, says: ['func Describe(s Shape) string', 'one-line, human-readable summary of s'] },
  { name: 'code_hover', args: { target: { path: 'src/shape.ts', symbol: 'describe' } }, says: ['function describe(shape: Shape): string', 'one-line, human-readable summary of a shape'] },
];
let reference; // the standalone process's answers: [{ text, structured }]

// ask asks c every question (concurrently when parallel) and returns the answers.
async function ask(c, parallel = false) {
  const one = async (q) => {
    const res = await call(c, q.name, q.args);
    assert.ok(!res.isError, `${q.name} ${JSON.stringify(q.args)}: ${text(res)}`);
    return { text: text(res), structured: res.structuredContent };
  };
  if (parallel) return Promise.all(questions.map(one));
  const out = [];
  for (const q of questions) out.push(await one(q));
  return out;
}

function assertReference(answers, who) {
  questions.forEach((q, i) => {
    const what = `${who}: ${q.name} ${JSON.stringify(q.args)}`;
    assert.equal(answers[i].text, reference[i].text, what);
    assert.deepEqual(answers[i].structured, reference[i].structured, what);
  });
}

// /proc: the processes of this file. The clients and the daemon carry the
// tag in their environment; the language servers get a reduced one, but
// run in the workspace (all of ours are under tmp); the server supervisor
// and gopls's telemetry child are found as descendants of those.
function procs() {
  const all = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue; // exited, not yet reaped
      const argv = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').filter(Boolean);
      let role = '', cwd = '';
      try {
        const mark = readFileSync(`/proc/${d}/environ`, 'utf8').split('\0').find((e) => e.startsWith(`${tag}=${tagValue}=`));
        if (mark) role = mark.slice(mark.lastIndexOf('=') + 1);
        cwd = readlinkSync(`/proc/${d}/cwd`);
      } catch {
        // not ours to read
      }
      all.push({ pid: Number(d), ppid: Number(fields[1]), start: fields[19], role, cwd, argv, kind: kindOf(argv) });
    } catch {
      // gone meanwhile
    }
  }
  const ours = new Set(all.filter((p) => p.role || p.cwd === tmp || p.cwd.startsWith(tmp + '/')).map((p) => p.pid));
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (!ours.has(p.pid) && ours.has(p.ppid)) {
        ours.add(p.pid);
        grew = true;
      }
    }
  }
  return all.filter((p) => ours.has(p.pid));
}

// kindOf names a process: the main gopls process (not its telemetry
// child), typescript-language-server's main process (node running its
// script; it runs tsserver children of its own), a tsserver, lspseam's
// server supervisor, a daemon, an `lspseam mcp`.
function kindOf(argv) {
  const line = argv.join(' ');
  if (basename(argv[0] ?? '') === 'gopls') return line.includes('** telemetry **') ? 'gopls-telemetry' : 'gopls';
  if (argv.slice(0, 2).some((a) => basename(a) === 'typescript-language-server')) return 'typescript-language-server';
  if (argv.some((a) => basename(a) === 'tsserver.js')) return 'tsserver';
  if (argv.some((a) => basename(a) === 'typingsInstaller.js')) return 'typingsInstaller';
  if (argv[0] === 'lspseam-supervisor') return 'supervisor';
  if (argv[1] === 'daemon') return 'daemon';
  if (argv[1] === 'mcp') return 'mcp';
  return 'other';
}

// servers are our language-server processes (and their supervisors),
// those of the daemon's tree or of standalone processes.
const serverKinds = new Set(['gopls', 'gopls-telemetry', 'typescript-language-server', 'tsserver', 'typingsInstaller', 'supervisor']);
const servers = (list = procs()) => list.filter((p) => serverKinds.has(p.kind));
const ours = () => procs();
// stillRunning are those of list whose process still runs (the same one: its start time).
const stillRunning = (list) => {
  const now = new Map(procs().map((p) => [p.pid, p.start]));
  return list.filter((p) => now.get(p.pid) === p.start);
};
const count = (list, kind) => list.filter((p) => p.kind === kind).length;
const describeProc = (p) => `${p.pid} (${p.role}, ${p.kind}): ${p.argv.join(' ')}`;
const alive = (pid) => {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
};

// descendants are pid's live descendants, but none of those of a process
// skip says to leave out.
function descendants(pid, list = procs(), skip = () => false) {
  const out = [];
  const frontier = [pid];
  while (frontier.length) {
    const p = frontier.pop();
    for (const q of list) {
      if (q.ppid === p && !skip(q)) {
        out.push(q);
        frontier.push(q.pid);
      }
    }
  }
  return out;
}

// status is `lspseam daemon status`: one JSON line per running daemon.
function status() {
  let out;
  try {
    out = execFileSync(shim, ['daemon', 'status'], { env: environ('daemon'), encoding: 'utf8', stdio: 'pipe' });
  } catch (err) {
    assert.fail(`lspseam daemon status: ${err.message}\n${err.stdout}${err.stderr}`);
  }
  return out.trim().split('\n').map((l) => JSON.parse(l));
}
function oneStatus() {
  const all = status();
  assert.equal(all.length, 1, `want one daemon: ${JSON.stringify(all)}`);
  return all[0];
}
function daemonLogs() {
  if (!runtime || !existsSync(runtime)) return '';
  return readdirSync(runtime).filter((f) => f.endsWith('.log')).map((f) => `${f}:\n${readFileSync(join(runtime, f), 'utf8')}`).join('\n');
}

let daemonClients = []; // the 8 clients on the shared workspace

step('a standalone process answers the reference questions (--daemon off)', 300_000, async () => {
  const c = await connect('standalone', shared);
  try {
    reference = await ask(c);
    questions.forEach((q, i) => {
      for (const s of q.says) assert.ok(reference[i].text.includes(s), `reference ${q.name} ${JSON.stringify(q.args)} lacks ${JSON.stringify(s)}:\n${reference[i].text}`);
    });
    // The core is compiled into the shared cache, so the daemon loads it.
    await eventually('the core compiled into the cache', () => existsSync(cache) && readdirSync(cache).some((f) => f.endsWith('.compiled')));
  } finally {
    await close(c);
  }
});

step(`${CLIENTS} concurrent clients through one daemon: one gopls, one typescript-language-server, the reference answers`, 300_000, async () => {
  assert.ok(reference, 'no reference answers');
  await eventually('the standalone process and its servers gone', () => {
    const left = ours();
    return left.length === 0 || left.map(describeProc).join('\n');
  });
  daemonClients = await Promise.all(Array.from({ length: CLIENTS }, () => connect('daemon', shared)));
  const answers = await Promise.all(daemonClients.map((c) => ask(c, true)));
  answers.forEach((a, i) => assertReference(a, `client ${i} (pid ${daemonClients[i].pid})`));

  const st = oneStatus();
  assert.equal(st.sessions, CLIENTS, JSON.stringify(st));
  // The relays start no server; the daemon runs one of each, all its own.
  // (The daemon is a child of the relay that started it.)
  const list = procs();
  for (const c of daemonClients) {
    assert.deepEqual(descendants(c.pid, list, (p) => p.kind === 'daemon').filter((p) => serverKinds.has(p.kind)).map(describeProc), [], `client ${c.pid} runs servers`);
  }
  const mine = descendants(st.pid, list);
  const all = servers(list);
  assert.equal(count(mine, 'gopls'), 1, `gopls processes of daemon ${st.pid}:\n${mine.map(describeProc).join('\n')}`);
  assert.equal(count(mine, 'typescript-language-server'), 1, `typescript-language-server processes of daemon ${st.pid}:\n${mine.map(describeProc).join('\n')}`);
  assert.equal(count(all, 'gopls'), 1, `gopls processes in all:\n${all.map(describeProc).join('\n')}`);
  assert.equal(count(all, 'typescript-language-server'), 1, `typescript-language-server processes in all:\n${all.map(describeProc).join('\n')}`);
  assert.equal(count(procs(), 'daemon'), 1, 'one daemon process');
});

const rename = { target: { path: 'shape.go', symbol: 'Describe' }, newName: 'Summarize' };
const renamed = ['shape.go', 'report.go', 'cmd/shapes/main.go'];
let scratchA, scratchB;

step("one client's preview cannot be applied by another client of the daemon", 300_000, async () => {
  [scratchA, scratchB] = await Promise.all([connect('daemon', scratch, 'lsp,code,refactor,fs'), connect('daemon', scratch, 'lsp,code,refactor,fs')]);
  const before = Object.fromEntries(renamed.map((f) => [f, readFileSync(join(scratch, f), 'utf8')]));
  const unchanged = (what) => {
    for (const f of renamed) assert.equal(readFileSync(join(scratch, f), 'utf8'), before[f], `${what}: ${f} was written`);
  };

  const preview = await call(scratchA, 'code_rename', rename);
  const id = preview.structuredContent?.previewId;
  assert.ok(!preview.isError && preview.structuredContent.applied === false && /^p-/.test(id), text(preview));
  unchanged('the preview');

  // B sends the same call with A's previewId: to B's session the id is
  // unknown, and nothing is applied.
  const other = await call(scratchB, 'code_rename', { ...rename, previewId: id });
  assert.notEqual(other.structuredContent?.applied, true, `B applied A's preview: ${text(other)}`);
  assert.equal(other.isError, true, `B's call with A's previewId: ${text(other)}`);
  assert.equal(other.structuredContent?.error?.code, 'LSP_INVALID_ARGUMENT', text(other));
  assert.ok(text(other).includes(`previewId "${id}" is unknown`), text(other));
  unchanged("B's call with A's previewId");

  const applied = await call(scratchA, 'code_rename', { ...rename, previewId: id });
  assert.ok(!applied.isError && applied.structuredContent.applied === true, `A could not apply its own preview: ${text(applied)}`);
  for (const f of renamed) {
    const got = readFileSync(join(scratch, f), 'utf8');
    assert.equal(got.replaceAll('Summarize', 'Describe'), before[f], `${f} differs beyond the rename`);
    assert.ok(got.includes('Summarize') && !/\bDescribe\b/.test(got), `${f} is not renamed:\n${got}`);
  }
});

step('a client killed mid-query leaves the others answered; the daemon counts it out', 300_000, async () => {
  assert.equal(daemonClients.length, CLIENTS, 'the clients did not start');
  const victim = daemonClients[CLIENTS - 1];
  const others = daemonClients.slice(0, CLIENTS - 1);
  const before = oneStatus();
  assert.equal(before.sessions, CLIENTS + 2, `the ${CLIENTS} clients and the two on the scratch copy: ${JSON.stringify(before)}`);
  // The victim's calls are killed once one has reached a language server
  // (its first progress notification): a call in flight in the daemon.
  let killed = false;
  const kill = () => {
    if (!killed) {
      killed = true;
      process.kill(victim.pid, 'SIGKILL');
    }
  };
  const inflight = questions.map((q) =>
    victim.client.callTool({ name: q.name, arguments: q.args }, undefined, { timeout: budget(), onprogress: kill }).then(
      () => 'answered',
      (err) => `failed: ${err.message}`,
    ),
  );
  const [answers] = await Promise.all([Promise.all(others.map((c) => ask(c, true))), eventually('a victim call in flight', () => killed)]);
  answers.forEach((a, i) => assertReference(a, `client ${i} after client ${victim.pid} was killed`));
  const outcomes = await Promise.all(inflight);
  assert.ok(outcomes.some((o) => o.startsWith('failed')), `every call of the killed client was answered: ${outcomes}`);
  await eventually(`the killed relay ${victim.pid}'s exit`, () => !alive(victim.pid));
  await eventually(`the daemon counting client ${victim.pid} out`, () => {
    const st = oneStatus();
    return st.sessions === before.sessions - 1 || `sessions ${st.sessions}, want ${before.sessions - 1}`;
  });
  assert.equal(oneStatus().pid, before.pid, 'the daemon was restarted');
  // Asked again, once the daemon has seen the client go: still the reference.
  const again = await Promise.all(others.map((c) => ask(c, true)));
  again.forEach((a, i) => assertReference(a, `client ${i} after the kill was counted`));
});

step('nothing lost: two daemon clients edit one file; the stale edit is refused (FS_STALE)', 300_000, async () => {
  assert.ok(scratchA && scratchB, 'the scratch clients did not start');
  await staleEdit(scratchA, scratchB, 'rect.go', '// Rect is an axis-aligned rectangle.', '// Rect is an axis-aligned rectangle (edited by A).', '// Area implements Shape.', '// Area implements Shape (edited by B).');
});

step('nothing lost: a daemon client and a standalone process side by side', 300_000, async () => {
  const standalone = await connect('standalone', scratch, 'lsp,code,fs');
  try {
    // The standalone process first, the daemon's client stale; then the other way round.
    await staleEdit(standalone, scratchA, 'circle.go', '// Circle is a circle of the given radius.', '// Circle is a circle of the given radius (standalone).', '// Area implements Shape.', '// Area implements Shape (daemon).');
    await staleEdit(scratchA, standalone, 'circle.go', '// Perimeter implements Shape.', '// Perimeter implements Shape (daemon).', '// Area implements Shape.', '// Area implements Shape (standalone).');
  } finally {
    await close(standalone);
  }
});

// staleEdit: first and second read file; first edits (accepted); second's
// edit, from its now stale observation, is refused with FS_STALE (its
// old_string is still there: only the guard refuses it), and the file holds
// exactly the first edit.
async function staleEdit(first, second, file, old1, new1, old2, new2) {
  const path = join(scratch, file);
  const original = readFileSync(path, 'utf8');
  assert.ok(original.includes(old1) && original.includes(old2), `${file} lacks the edited text:\n${original}`);
  for (const c of [first, second]) {
    const r = await call(c, 'read', { file_path: file });
    const lines = r.structuredContent?.content?.split('\n').map((l) => l.replace(/^ *\d+\t/, ''));
    assert.ok(!r.isError && /^sha256:/.test(r.structuredContent.version), `read by ${c.role} ${c.pid}: ${text(r)}`);
    assert.equal(lines.join('\n') + '\n', original, `read by ${c.role} ${c.pid}`);
  }
  const ok = await call(first, 'edit', { file_path: file, old_string: old1, new_string: new1 });
  assert.ok(!ok.isError && ok.structuredContent?.ok === true, `the first edit (${first.role} ${first.pid}): ${text(ok)}`);
  const want = original.replace(old1, new1);
  assert.equal(readFileSync(path, 'utf8'), want);
  const stale = await call(second, 'edit', { file_path: file, old_string: old2, new_string: new2 });
  assert.equal(stale.isError, true, `the stale edit (${second.role} ${second.pid}) was accepted: ${text(stale)}`);
  assert.equal(stale.structuredContent?.error?.code, 'FS_STALE', text(stale));
  assert.match(text(stale), /FS_STALE/, text(stale));
  assert.equal(readFileSync(path, 'utf8'), want, `${file} after the refused edit`);
}

step('the daemon killed with SIGKILL leaves no server; the next client starts a fresh daemon', 300_000, async () => {
  const first = oneStatus();
  // Its servers: one gopls per workspace (the shared one and the
  // scratch copy), one typescript-language-server (only the shared
  // workspace has TypeScript), their children and supervisors.
  const list = procs();
  const started = descendants(first.pid, list);
  assert.equal(count(started, 'gopls'), 2, `the daemon's processes:\n${started.map(describeProc).join('\n')}`);
  assert.equal(count(started, 'typescript-language-server'), 1, `the daemon's processes:\n${started.map(describeProc).join('\n')}`);
  assert.deepEqual(servers(list).filter((p) => !started.includes(p)).map(describeProc), [], 'servers not of the daemon');
  process.kill(first.pid, 'SIGKILL');
  await eventually(`daemon ${first.pid}'s exit`, () => !alive(first.pid));
  await eventually('no process of the killed daemon left', () => {
    const left = [...stillRunning(started), ...servers()];
    return left.length === 0 || left.map(describeProc).join('\n');
  });
  // The relays of the killed daemon end their sessions.
  await eventually("the killed daemon's relays' exit", () => {
    const left = [...daemonClients, scratchA, scratchB].filter((c) => alive(c.pid));
    return left.length === 0 || `alive: ${left.map((c) => c.pid)}`;
  });
  // Each says why; its stderr may reach us after its exit.
  await eventually("the killed daemon's relays saying why they ended", () => {
    const silent = [...daemonClients.slice(0, CLIENTS - 1), scratchA, scratchB].filter((c) => !/the daemon closed the session/.test(c.stderr));
    return silent.length === 0 || silent.map((c) => `relay ${c.pid}'s stderr: ${JSON.stringify(c.stderr)}`).join('\n');
  });

  const fresh = await connect('daemon', shared);
  assertReference(await ask(fresh), 'a client of the new daemon');
  const second = oneStatus();
  assert.notEqual(second.pid, first.pid, 'the killed daemon still answers');
  assert.equal(second.sessions, 1, JSON.stringify(second));
  const now = descendants(second.pid);
  assert.equal(count(now, 'gopls'), 1, now.map(describeProc).join('\n'));
  assert.equal(count(now, 'typescript-language-server'), 1, now.map(describeProc).join('\n'));
  await close(fresh);
});

step('`lspseam daemon stop` returns once the servers are shut down', 120_000, async () => {
  const st = oneStatus();
  assert.equal(st.sessions, 0, JSON.stringify(st));
  assert.ok(servers().length > 0, 'no server runs before the stop');
  const out = execFileSync(shim, ['daemon', 'stop'], { env: environ('daemon'), encoding: 'utf8' });
  assert.match(out, new RegExp(`^stopped the daemon \\(pid ${st.pid}\\)`), out);
  assert.deepEqual(ours().map(describeProc), [], 'running after daemon stop returned');
  assert.ok(!alive(st.pid), `daemon ${st.pid} runs after stop returned`);
});
