// The tool definitions a model pays for in every prompt stay within
// budget (issue 23): the default toolsets' listing as the server sends it
// (titles and annotations included) at most 1,500 o200k tokens, and the
// compact listing smaller still. Token counts are deterministic, so this
// is a test, not a benchmark; tokens.mjs prints the table for `make bench`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { listTools, measure, countTokens } from './tokens.mjs';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const budget = 1500;
let tmp, shim;

before(() => {
  tmp = mkdtempSync(join(tmpdir(), 'lspseam-tokens-'));
  shim = process.env.LSPSEAM_BIN || join(tmp, 'lspseam');
  if (!process.env.LSPSEAM_BIN) {
    execFileSync('go', ['build', '-o', shim, './cmd/shim'], { cwd: repoRoot, stdio: 'inherit' });
  }
});
after(() => tmp && rmSync(tmp, { recursive: true, force: true }));

test('the default toolsets\' listing as sent fits in 1,500 o200k tokens', { timeout: 60_000 }, async () => {
  const { tools } = await listTools(shim);
  assert.deepEqual(tools.map((t) => t.name).sort(), ['code_diagnostics', 'code_hierarchy', 'code_hover', 'code_inlay_hints', 'code_navigate', 'code_symbols', 'lsp']);
  const { model, listing } = measure(tools);
  assert.ok(listing <= budget, `the default listing as sent: ${listing} tokens, budget ${budget}`);
  // The count is of the real listing: the census note and every schema are in it.
  assert.ok(tools.some((t) => t.description.includes('In this workspace, served: ')), 'the census note is counted');
  assert.ok(listing > model, `the listing (${listing}) includes titles and annotations beyond the model's view (${model})`);
  // The target grammar is said once, not once per targeted tool.
  const grammar = tools.filter((t) => t.description.includes('A target is a place in a file'));
  assert.deepEqual(grammar.map((t) => t.name), ['code_navigate']);
});

test('--profile compact: the whole default listing fits in 1,500 tokens and is smaller than the standard one', { timeout: 60_000 }, async () => {
  const standard = measure((await listTools(shim)).tools);
  const { tools } = await listTools(shim, { profile: 'compact' });
  const compact = measure(tools);
  assert.ok(compact.listing <= budget, `compact listing: ${compact.listing} tokens`);
  assert.ok(compact.listing < standard.model, `compact ${compact.listing} < standard's model view ${standard.model}`);
  for (const t of tools) {
    assert.equal(t.title, undefined, `${t.name}: title`);
    assert.equal(t.annotations, undefined, `${t.name}: annotations`);
  }
});

test('countTokens counts o200k tokens', () => {
  // Known o200k_base counts: "hello world" is two tokens.
  assert.equal(countTokens('hello world'), 2);
  assert.equal(countTokens({ a: 1 }), countTokens('{"a":1}'));
});
