// `lspseam mcp` driven by a client this project did not write: the official
// MCP TypeScript SDK. It spawns the shim against the fixture workspaces and
// real language servers (.tools/bin), lists the tool, calls every operation
// with the answers of testdata/workspaces/expectations.json, sends bad
// arguments, cancels a slow query on the scripted fake server, and checks
// that closing the client leaves no process behind.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const toolsBin = join(repoRoot, '.tools', 'bin');
const workspaces = join(repoRoot, 'testdata', 'workspaces');
let tmp, shim, fakelsp, goroot;

before(() => {
  tmp = mkdtempSync(join(tmpdir(), 'lspseam-mcp-'));
  // LSPSEAM_BIN (e.g. bin/lspseam from `make build`), else a fresh build.
  shim = process.env.LSPSEAM_BIN || join(tmp, 'lspseam');
  if (!process.env.LSPSEAM_BIN) {
    execFileSync('go', ['build', '-o', shim, './cmd/shim'], { cwd: repoRoot, stdio: 'inherit' });
  }
  fakelsp = join(tmp, 'fakelsp');
  execFileSync('go', ['build', '-o', fakelsp, './internal/fakelsp'], { cwd: repoRoot, stdio: 'inherit' });
  goroot = execFileSync('go', ['env', 'GOROOT'], { encoding: 'utf8' }).trim();
});
after(() => tmp && rmSync(tmp, { recursive: true, force: true }));

// connect spawns `lspseam mcp` with the given arguments from a directory
// that is not the workspace; roots, when given, are the client's roots.
async function connect(args, roots) {
  const client = new Client({ name: 'lspseam-e2e', version: '0.0.0' }, { capabilities: roots ? { roots: { listChanged: true } } : {} });
  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots }));
  }
  const transport = new StdioClientTransport({
    command: shim,
    args: ['mcp', ...args],
    cwd: tmp,
    env: { ...process.env, PATH: `${toolsBin}:${process.env.PATH}`, LSPSEAM_CACHE_DIR: join(tmp, 'cache'), LSPSEAM_DAEMON: 'off' },
    stderr: 'inherit',
  });
  await client.connect(transport);
  return { client, pid: transport.pid };
}

// descendants returns the pids of every live descendant of pid.
function descendants(pid) {
  const parent = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parent.set(Number(d), ppid);
    } catch {
      // gone meanwhile
    }
  }
  const out = [];
  for (const [p] of parent) {
    for (let q = parent.get(p); q; q = parent.get(q)) {
      if (q === pid) {
        out.push(p);
        break;
      }
    }
  }
  return out;
}

const alive = (pid) => existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');

async function closeAndCheck({ client, pid }) {
  const children = descendants(pid);
  assert.ok(children.length > 0, 'language servers were running');
  await client.close();
  const deadline = Date.now() + 15_000;
  for (;;) {
    const left = [pid, ...children].filter(alive);
    if (left.length === 0) return;
    assert.ok(Date.now() < deadline, `still running after close: ${left.map((p) => readFileSync(`/proc/${p}/cmdline`, 'utf8').replaceAll('\0', ' ')).join('; ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const text = (res) => res.content.filter((c) => c.type === 'text').map((c) => c.text).join('');
const expand = (s) => s.replaceAll('{GOROOT}', goroot).replaceAll('{TOOLS}', join(repoRoot, '.tools'));

for (const ws of ['go', 'ts']) {
  test(`real servers: every ${ws} expectation through the MCP tool`, { timeout: 300_000 }, async () => {
    for (const server of ['gopls', 'typescript-language-server']) {
      assert.ok(existsSync(join(toolsBin, server)), `${server} is not installed in ${toolsBin}: run \`make servers\``);
    }
    const config = join(tmp, 'lspseam.yaml');
    writeFileSync(config, `servers:
  gopls:
    command: ${toolsBin}/gopls
    extensionToLanguage: {.go: go}
  typescript:
    command: ${toolsBin}/typescript-language-server
    args: [--stdio]
    extensionToLanguage: {.ts: typescript}
`);
    // The workspace comes from the client's first file:// root.
    const conn = await connect(['--config', config], [
      { uri: 'https://example.com/not-a-directory', name: 'web' },
      { uri: pathToFileURL(join(workspaces, ws)).href, name: ws },
    ]);
    const { client } = conn;
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), ['code_diagnostics', 'code_hierarchy', 'code_hover', 'code_inlay_hints', 'code_navigate', 'code_symbols', 'lsp']);
      const lspTool = tools.find((t) => t.name === 'lsp');
      assert.equal(lspTool.inputSchema.type, 'object');
      assert.deepEqual(lspTool.inputSchema.required, ['operation', 'file_path', 'line', 'character']);
      assert.deepEqual(Object.keys(lspTool.inputSchema.properties), ['operation', 'file_path', 'line', 'character']);

      const rows = JSON.parse(readFileSync(join(workspaces, 'expectations.json'), 'utf8')).queries.filter((q) => q.workspace === ws);
      const ops = new Set();
      let progressSeen = 0;
      for (const q of rows) {
        ops.add(q.operation);
        const res = await client.callTool(
          { name: 'lsp', arguments: { operation: q.operation, file_path: q.file, line: q.line, character: q.character } },
          undefined,
          { timeout: 120_000, onprogress: () => progressSeen++ },
        );
        const got = text(res);
        if (q.errorCode) {
          // A position past the end of a line or of the file: refused before the server sees it.
          assert.ok(res.isError && got.startsWith(`${q.errorCode}: `), `${q.id}: ${got}`);
          for (const s of q.errorContains) assert.ok(got.includes(s), `${q.id}: ${JSON.stringify(got)} lacks ${JSON.stringify(s)}`);
          continue;
        }
        assert.ok(!res.isError, `${q.id}: ${got}`);
        // The first line names what the answer is for.
        assert.equal(got.split('\n')[0], q.subject, q.id);
        if (q.locations) {
          assert.deepEqual(got.split('\n').slice(1).sort(), q.locations.map(expand).sort(), q.id);
          assert.equal(res.structuredContent.kind, 'locations', q.id);
        } else {
          for (const s of q.hoverContains) assert.ok(got.includes(s), `${q.id}: ${JSON.stringify(got)} lacks ${JSON.stringify(s)}`);
          assert.equal(res.structuredContent.kind, 'hover', q.id);
        }
      }
      assert.deepEqual([...ops].sort(), ['findReferences', 'goToDefinition', 'goToImplementation', 'hover']);
      // At least the first and the final one of each call (the final one is
      // checked on the fake server below).
      assert.ok(progressSeen >= 2 * rows.filter((q) => !q.errorCode).length, `progress notifications: ${progressSeen}`);

      // Bad arguments are tool results with the stable code.
      const bad = await client.callTool({ name: 'lsp', arguments: { operation: 'hover', file_path: rows[0].file, line: 0, character: 1 } });
      assert.equal(bad.isError, true);
      assert.match(text(bad), /^LSP_INVALID_ARGUMENT: .*one-based/s);
      const unknown = await client.callTool({ name: 'lsp', arguments: { operation: 'rename', file_path: rows[0].file, line: 1, character: 1, extra: 1 } });
      assert.equal(unknown.isError, true);
      assert.match(text(unknown), /^LSP_INVALID_ARGUMENT: /);
      const unmapped = await client.callTool({ name: 'lsp', arguments: { operation: 'hover', file_path: 'README.md', line: 1, character: 1 } });
      assert.equal(unmapped.isError, true);
      // No server handles .md: refused by extension, before any file is read.
      assert.match(text(unmapped), /^LSP_UNAVAILABLE: /);
    } finally {
      await closeAndCheck(conn);
    }
  });
}

test('a slow query on the fake server is cancelled by the client', { timeout: 60_000 }, async () => {
  const ws = join(tmp, 'fake-ws');
  execFileSync('mkdir', ['-p', ws]);
  writeFileSync(join(ws, 'a.go'), 'package a\n\nfunc Hello() {}\n');
  const script = join(tmp, 'script.json');
  writeFileSync(script, JSON.stringify({ methods: { 'textDocument/definition': { result: '$echoPosition' }, 'textDocument/references': { action: 'hang' } } }));
  const events = join(tmp, 'events.jsonl');
  const config = join(tmp, 'fake.json');
  writeFileSync(config, JSON.stringify({ servers: { fake: { command: fakelsp, args: ['--script', script, '--log', events], extensionToLanguage: { '.go': 'go' }, settleMs: 0 } } }));
  const conn = await connect(['--config', config, '--workspace', ws]);
  const { client } = conn;
  try {
    const def = await client.callTool({ name: 'lsp', arguments: { operation: 'goToDefinition', file_path: 'a.go', line: 3, character: 6 } });
    assert.equal(text(def), '`Hello` at line 3, column 6:\na.go:3:6');

    const ac = new AbortController();
    const started = Date.now();
    const slow = client.callTool({ name: 'lsp', arguments: { operation: 'findReferences', file_path: 'a.go', line: 3, character: 6 } }, undefined, { signal: ac.signal });
    setTimeout(() => ac.abort('the user moved on'), 500);
    await assert.rejects(slow);
    assert.ok(Date.now() - started < 5_000, 'cancellation was prompt');
    const deadline = Date.now() + 5_000;
    while (!readFileSync(events, 'utf8').includes('"$/cancelRequest"')) {
      assert.ok(Date.now() < deadline, 'the language server got $/cancelRequest');
      await new Promise((r) => setTimeout(r, 50));
    }
    // The session goes on.
    const again = await client.callTool({ name: 'lsp', arguments: { operation: 'goToDefinition', file_path: 'a.go', line: 3, character: 1 } });
    assert.equal(text(again), '`func` at line 3, column 1:\na.go:3:1');
  } finally {
    await closeAndCheck(conn);
  }
});

// Progress is for calls that reach a language server, and the final
// notification (progress == total) reaches the client's handler before the
// response: the SDK handles a notification a microtask late and drops
// progress for a request that already has its response.
test('progress: only calls that reach a server, and the final one arrives', { timeout: 60_000 }, async () => {
  const ws = join(tmp, 'progress-ws');
  execFileSync('mkdir', ['-p', ws]);
  writeFileSync(join(ws, 'a.go'), 'package a\n\nfunc Hello() {}\n');
  writeFileSync(join(ws, 'notes.txt'), 'notes\n');
  const script = join(tmp, 'progress-script.json');
  writeFileSync(script, JSON.stringify({ methods: { 'textDocument/definition': { result: '$echoPosition' } } }));
  const config = join(tmp, 'progress.json');
  writeFileSync(config, JSON.stringify({ servers: { fake: { command: fakelsp, args: ['--script', script], extensionToLanguage: { '.go': 'go' }, settleMs: 0 } } }));
  const conn = await connect(['--config', config, '--workspace', ws]);
  const { client } = conn;
  try {
    const seen = [];
    const res = await client.callTool({ name: 'lsp', arguments: { operation: 'goToDefinition', file_path: 'a.go', line: 3, character: 6 } }, undefined, { onprogress: (p) => seen.push(p) });
    assert.ok(!res.isError, text(res));
    assert.deepEqual(res.structuredContent.locations, [{ path: 'a.go', line: 3, character: 6, endLine: 3, endCharacter: 6 }]);
    assert.equal(seen[0]?.message, 'querying language server', JSON.stringify(seen));
    const last = seen.at(-1);
    assert.equal(last.message, 'done', JSON.stringify(seen));
    assert.equal(last.total, last.progress);

    for (const args of [
      { operation: 'hover', file_path: 'a.go', line: 0, character: 1 },
      { operation: 'hover', file_path: 'notes.txt', line: 1, character: 1 },
    ]) {
      const refused = [];
      const bad = await client.callTool({ name: 'lsp', arguments: args }, undefined, { onprogress: (p) => refused.push(p) });
      assert.equal(bad.isError, true);
      assert.deepEqual(refused, [], `progress for ${JSON.stringify(args)}`);
    }
  } finally {
    await closeAndCheck(conn);
  }
});
