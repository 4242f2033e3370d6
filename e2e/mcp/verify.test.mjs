// Issue 12's verify loop through `lspseam mcp --tools lsp,code,fs`, driven
// by the official MCP TypeScript SDK client against the real language
// servers (.tools/bin), with the expectations of
// testdata/workspaces/verify.json: per language, on a copy of the fixture,
// an agent reads a file, makes an edit that breaks the build, is told
// exactly what broke (and only that), fixes it and is told it is resolved.
// tools/list offers read, write and edit, the last two marked as changing
// files. The shim runs on its presets (no --config), which turn on gopls's
// pull diagnostics.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const toolsBin = join(repoRoot, '.tools', 'bin');
const workspaces = join(repoRoot, 'testdata', 'workspaces');
const languages = JSON.parse(readFileSync(join(workspaces, 'verify.json'), 'utf8')).languages;
let tmp, shim;

before(() => {
  for (const server of ['gopls', 'typescript-language-server', 'pyright-langserver', 'clangd']) {
    assert.ok(existsSync(join(toolsBin, server)), `${server} is not installed in ${toolsBin}: run \`make servers\``);
  }
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'lspseam-mcp-verify-')));
  // LSPSEAM_BIN (e.g. bin/lspseam from `make build`), else a fresh build.
  shim = process.env.LSPSEAM_BIN || join(tmp, 'lspseam');
  if (!process.env.LSPSEAM_BIN) {
    execFileSync('go', ['build', '-o', shim, './cmd/shim'], { cwd: repoRoot, stdio: 'inherit' });
  }
});
after(() => tmp && rmSync(tmp, { recursive: true, force: true }));

// copyFixture copies a fixture workspace (never edited in place) without
// its generated files; the C copy gets its own compilation database.
function copyFixture(ws) {
  const dir = join(tmp, 'ws-' + ws);
  mkdirSync(dir);
  const skip = new Set(['.cache', '__pycache__', 'node_modules', 'compile_commands.json']);
  cpSync(join(workspaces, ws), dir, { recursive: true, filter: (src) => !skip.has(basename(src)) });
  if (ws === 'c') execFileSync('sh', [join(dir, 'gen-compile-commands.sh')], { stdio: 'inherit' });
  return dir;
}

async function connect(args) {
  const client = new Client({ name: 'lspseam-e2e-verify', version: '0.0.0' }, { capabilities: {} });
  const transport = new StdioClientTransport({
    command: shim,
    args: ['mcp', ...args],
    cwd: tmp,
    env: { ...process.env, PATH: `${toolsBin}:${process.env.PATH}`, LSPSEAM_CACHE_DIR: join(tmp, 'cache'), LSPSEAM_DAEMON: 'off' },
    stderr: 'inherit',
  });
  await client.connect(transport);
  return client;
}

const text = (res) => res.content.filter((c) => c.type === 'text').map((c) => c.text).join('');
const call = (client, name, args) => client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
// The problem shape verify.json records, in its key order.
const problem = (p) => ({ path: p.path, line: p.line, column: p.column, endLine: p.endLine, endColumn: p.endColumn, severity: p.severity, code: p.code, source: p.source, message: p.message });

// checkDelta: the edit succeeded and its diagnostics delta lists exactly
// introduced and resolved, fresh, from the language's server; the text
// names each problem at its one-based position.
function checkDelta(what, lang, file, res, introduced, resolved) {
  const s = res.structuredContent;
  assert.ok(!res.isError && s?.ok === true, `${what}: ${text(res)}`);
  assert.equal(s.tool, 'edit', what);
  assert.equal(s.path, file, what);
  assert.ok(s.diagnostics, `${what}: no diagnostics delta (${s.diagnosticsError})`);
  const d = s.diagnostics;
  assert.equal(d.files.length, 1, what);
  const f = d.files[0];
  assert.deepEqual({ path: f.path, how: f.how, fresh: f.fresh }, { path: file, how: lang.how, fresh: true }, what);
  assert.deepEqual({ stale: d.stale, uncovered: d.uncovered, truncated: d.truncated }, { stale: [], uncovered: [], truncated: false }, what);
  assert.deepEqual(f.introduced.map(problem), introduced, `${what}: introduced`);
  assert.deepEqual(f.resolved.map(problem), resolved, `${what}: resolved`);
  const errors = introduced.filter((p) => p.severity === 'error').length;
  assert.deepEqual(d.counts, { introduced: introduced.length, resolved: resolved.length, persisting: 0, introducedErrors: errors }, `${what}: counts`);
  assert.deepEqual([f.introducedTotal, f.resolvedTotal, f.persisting], [introduced.length, resolved.length, 0], `${what}: totals`);
  for (const p of [...introduced, ...resolved]) {
    assert.ok(text(res).includes(`${p.path}:${p.line}:${p.column} ${p.severity}`), `${what}: the text does not name ${p.path}:${p.line}:${p.column}: ${text(res)}`);
  }
}

test('verify.json covers the four fixture languages', () => {
  assert.deepEqual(languages.map((l) => l.workspace), ['go', 'ts', 'py', 'c']);
});

test('tools/list with --tools lsp,code,fs: read, write and edit, write and edit marked as changing files', { timeout: 60_000 }, async () => {
  const defs = JSON.parse(execFileSync(shim, ['tools', '--tools', 'lsp,code,fs', '--format', 'json'], { encoding: 'utf8' }));
  const client = await connect(['--workspace', join(workspaces, 'go'), '--tools', 'lsp,code,fs']);
  try {
    const { tools } = await client.listTools();
    for (const name of ['read', 'write', 'edit', 'code_diagnostics']) {
      const t = tools.find((x) => x.name === name);
      assert.ok(t, `${name} not offered: ${tools.map((x) => x.name)}`);
      const def = defs.find((d) => d.name === name);
      assert.ok(def, `${name} not in lspseam tools`);
      assert.deepEqual(t.inputSchema, def.inputSchema, `${name}: schema`);
      // The core's description (the census note is the lsp tool's alone).
      assert.equal(t.description, def.description, `${name}: description`);
    }
    for (const name of ['read', 'code_diagnostics']) {
      const a = tools.find((x) => x.name === name).annotations;
      assert.equal(a?.readOnlyHint, true, `${name}: readOnlyHint`);
      // destructiveHint means something only for a tool that changes files.
      assert.equal(a?.destructiveHint, undefined, `${name}: destructiveHint`);
    }
    for (const name of ['write', 'edit']) {
      const a = tools.find((x) => x.name === name).annotations;
      assert.equal(a?.readOnlyHint, false, `${name}: readOnlyHint`);
      assert.equal(a?.idempotentHint, false, `${name}: idempotentHint`);
      assert.equal(a?.destructiveHint, true, `${name}: destructiveHint`);
    }
    // seed 002's snake_case arguments
    assert.deepEqual(tools.find((x) => x.name === 'edit').inputSchema.required, ['file_path', 'old_string', 'new_string']);
    assert.deepEqual(tools.find((x) => x.name === 'write').inputSchema.required, ['file_path', 'content']);
    assert.deepEqual(tools.find((x) => x.name === 'read').inputSchema.required, ['file_path']);
  } finally {
    await client.close();
  }
});

for (const lang of languages) {
  test(`real servers: read, break, told exactly that, fix, told it is resolved (${lang.workspace})`, { timeout: 300_000 }, async () => {
    const dir = copyFixture(lang.workspace);
    const expand = (p) => ({ ...p, message: p.message.replaceAll('{WS}', dir) });
    const want = expand(lang.problem);
    const original = readFileSync(join(dir, lang.file), 'utf8');
    const client = await connect(['--workspace', dir, '--tools', 'lsp,code,fs']);
    try {
      // Never read: the edit is refused and nothing is written.
      let res = await call(client, 'edit', { file_path: lang.file, old_string: lang.break.old_string, new_string: lang.break.new_string });
      assert.equal(res.isError, true, text(res));
      assert.equal(res.structuredContent.error.code, 'FS_NOT_OBSERVED', text(res));
      assert.equal(readFileSync(join(dir, lang.file), 'utf8'), original);

      res = await call(client, 'read', { file_path: lang.file });
      assert.ok(!res.isError, text(res));
      assert.equal(res.structuredContent.path, lang.file);

      res = await call(client, 'edit', { file_path: lang.file, old_string: lang.break.old_string, new_string: lang.break.new_string });
      checkDelta('break', lang, lang.file, res, [want], []);
      assert.equal(readFileSync(join(dir, lang.file), 'utf8'), original.replace(lang.break.old_string, lang.break.new_string));

      res = await call(client, 'edit', { file_path: lang.file, old_string: lang.break.new_string, new_string: lang.break.old_string });
      checkDelta('fix', lang, lang.file, res, [], [want]);
      assert.equal(readFileSync(join(dir, lang.file), 'utf8'), original);
    } finally {
      await client.close();
    }
  });
}
