// The refactor toolset's approval through `lspseam mcp --tools
// lsp,code,refactor`, driven by the official MCP TypeScript SDK client
// against gopls (.tools/bin) on copies of testdata/workspaces/go: renaming
// Describe (shape.go) to Summarize changes shape.go, report.go and
// cmd/shapes/main.go (as in e2e/refactor_test.go).
//   - preview (the default): the first call answers a diff and a previewId
//     and writes nothing; the same call with the previewId applies it.
//   - --approval elicit with a client that offers elicitation: the user is
//     asked (elicitation/create, with the diff); accepted, the change is
//     applied in that one call; declined, nothing is written and the answer
//     says so, without a previewId.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const toolsBin = join(repoRoot, '.tools', 'bin');
const workspaces = join(repoRoot, 'testdata', 'workspaces');
const changed = ['shape.go', 'report.go', 'cmd/shapes/main.go'];
const rename = { target: { path: 'shape.go', symbol: 'Describe' }, newName: 'Summarize' };
let tmp, shim, copies = 0;

before(() => {
  assert.ok(existsSync(join(toolsBin, 'gopls')), `gopls is not installed in ${toolsBin}: run \`make servers\``);
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'lspseam-mcp-refactor-')));
  // LSPSEAM_BIN (e.g. bin/lspseam from `make build`), else a fresh build.
  shim = process.env.LSPSEAM_BIN || join(tmp, 'lspseam');
  if (!process.env.LSPSEAM_BIN) {
    execFileSync('go', ['build', '-o', shim, './cmd/shim'], { cwd: repoRoot, stdio: 'inherit' });
  }
});
after(() => tmp && rmSync(tmp, { recursive: true, force: true }));

// copyGo copies the Go fixture (never edited in place) and reads the files
// the rename changes.
function copyGo() {
  const dir = join(tmp, `ws-go-${++copies}`);
  mkdirSync(dir);
  cpSync(join(workspaces, 'go'), dir, { recursive: true, filter: (src) => basename(src) !== '.cache' });
  return { dir, before: Object.fromEntries(changed.map((f) => [f, readFileSync(join(dir, f), 'utf8')])) };
}

// connect starts the shim; answer, when given, is the user's answer to
// every elicitation (the client then declares the capability), and asked
// collects the messages shown.
async function connect(args, answer, asked = []) {
  const capabilities = answer ? { elicitation: {} } : {};
  const client = new Client({ name: 'lspseam-e2e-refactor', version: '0.0.0' }, { capabilities });
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params.message);
      return answer;
    });
  }
  const transport = new StdioClientTransport({
    command: shim,
    args: ['mcp', '--tools', 'lsp,code,refactor', ...args],
    cwd: tmp,
    env: { ...process.env, PATH: `${toolsBin}:${process.env.PATH}`, LSPSEAM_CACHE_DIR: join(tmp, 'cache'), LSPSEAM_DAEMON: 'off' },
    stderr: 'inherit',
  });
  await client.connect(transport);
  return client;
}

const text = (res) => res.content.filter((c) => c.type === 'text').map((c) => c.text).join('');
const call = (client, name, args) => client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });

function assertUnchanged(ws, what) {
  for (const f of changed) {
    assert.equal(readFileSync(join(ws.dir, f), 'utf8'), ws.before[f], `${what}: ${f} was written`);
  }
}

// assertRenamed: byte for byte, only the renamed occurrences differ.
function assertRenamed(ws, what) {
  for (const f of changed) {
    const got = readFileSync(join(ws.dir, f), 'utf8');
    assert.ok(got.includes('Summarize'), `${what}: ${f} lacks the new name:\n${got}`);
    assert.equal(got.replaceAll('Summarize', 'Describe'), ws.before[f], `${what}: ${f} differs beyond the rename`);
    assert.ok(!/\bDescribe\b/.test(got), `${what}: ${f} still says Describe`);
  }
}

test('preview (the default): a diff and a previewId, nothing written; the previewId applies it', { timeout: 300_000 }, async () => {
  const ws = copyGo();
  const client = await connect(['--workspace', ws.dir]);
  try {
    const { tools } = await client.listTools();
    const def = tools.find((t) => t.name === 'code_rename');
    assert.ok(def, `code_rename not offered: ${tools.map((t) => t.name)}`);
    assert.equal(def.annotations?.destructiveHint, true);

    let res = await call(client, 'code_rename', rename);
    const s = res.structuredContent;
    assert.ok(!res.isError && s?.ok === true, text(res));
    assert.equal(s.applied, false, text(res));
    assert.match(s.previewId, /^p-/, text(res));
    assert.deepEqual(s.files.map((f) => f.path).sort(), [...changed].sort(), text(res));
    for (const f of changed) assert.ok(text(res).includes(`+++ b/${f}`), `no diff of ${f}: ${text(res)}`);
    assertUnchanged(ws, 'preview');

    res = await call(client, 'code_rename', { ...rename, previewId: s.previewId });
    assert.ok(!res.isError && res.structuredContent.applied === true, text(res));
    assert.equal(res.structuredContent.diagnostics?.counts?.introduced, 0, `the rename introduced problems: ${text(res)}`);
    assertRenamed(ws, 'apply');
  } finally {
    await client.close();
  }
});

test('--approval elicit, accepted: the user sees the diff, and the one call applies it', { timeout: 300_000 }, async () => {
  const ws = copyGo();
  const asked = [];
  const client = await connect(['--workspace', ws.dir, '--approval', 'elicit'], { action: 'accept', content: {} }, asked);
  try {
    const res = await call(client, 'code_rename', rename);
    assert.ok(!res.isError && res.structuredContent?.applied === true, text(res));
    assert.match(text(res), /^The user approved this change\.\nApplied: /, text(res));
    assert.equal(asked.length, 1, `asked ${asked.length} times`);
    assert.ok(asked[0].startsWith(`Apply this change to ${ws.dir}?\n`), asked[0]);
    for (const f of changed) assert.ok(asked[0].includes(`+++ b/${f}`), `the message shows no diff of ${f}:\n${asked[0]}`);
    assert.ok(!asked[0].includes('previewId'), asked[0]);
    assertRenamed(ws, 'accepted');
  } finally {
    await client.close();
  }
});

test('--approval elicit, declined: nothing written, the answer says so and has no previewId', { timeout: 300_000 }, async () => {
  const ws = copyGo();
  const asked = [];
  const client = await connect(['--workspace', ws.dir, '--approval', 'elicit'], { action: 'decline' }, asked);
  try {
    const res = await call(client, 'code_rename', rename);
    const s = res.structuredContent;
    assert.ok(!res.isError && s?.ok === true, text(res));
    assert.equal(asked.length, 1, `asked ${asked.length} times`);
    assert.deepEqual({ applied: s.applied, declined: s.declined, userAction: s.userAction, previewId: s.previewId }, { applied: false, declined: true, userAction: 'decline', previewId: undefined }, text(res));
    assert.deepEqual(s.files.map((f) => f.path).sort(), [...changed].sort(), text(res));
    assert.match(text(res), /^Not applied: the user declined this change/, text(res));
    assert.ok(!/\bp-[0-9a-f]{16}\b/.test(text(res)), text(res));
    assertUnchanged(ws, 'declined');
  } finally {
    await client.close();
  }
});
