// The TypeScript harness example (harness.ts): it type-checks strictly
// against the installed lspseam package and answers through the real shim
// and typescript-language-server.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const tsc = join(here, 'node_modules', '.bin', 'tsc');
const tsls = join(repoRoot, '.tools', 'bin', 'typescript-language-server');
let tmp;

before(() => {
  assert.ok(existsSync(tsc), `run \`npm ci\` in ${here} first`);
  assert.ok(existsSync(join(here, 'node_modules', 'lspseam', 'dist', 'node.js')), 'build the package first: `npm ci && npm run build` in bindings/js');
  tmp = mkdtempSync(join(tmpdir(), 'lspseam-harness-'));
});
after(() => tmp && rmSync(tmp, { recursive: true, force: true }));

test('harness.ts type-checks with tsc --strict --noEmit against the package', () => {
  execFileSync(tsc, ['-p', 'tsconfig.json', '--strict', '--noEmit'], { cwd: here, stdio: 'inherit' });
});

test('the harness answers the scripted tool calls through the shim', () => {
  assert.ok(existsSync(tsls), `typescript-language-server is not installed at ${tsls}: run \`make servers\` in ${repoRoot}`);
  const out = join(here, '.build'); // inside this package, so that `lspseam` resolves
  execFileSync(tsc, ['-p', 'tsconfig.json'], { cwd: here, stdio: 'inherit' });
  const shim = join(tmp, 'lspseam');
  execFileSync('go', ['build', '-o', shim, './cmd/shim'], { cwd: repoRoot, stdio: 'inherit' });
  const config = join(tmp, 'lspseam.yaml');
  writeFileSync(config, `servers:\n  typescript:\n    command: ${tsls}\n    args: [--stdio]\n    extensionToLanguage: {.ts: typescript}\n`);

  const stdout = execFileSync(process.execPath, [join(out, 'harness.js'), join(repoRoot, 'testdata/workspaces/ts'), config, shim], {
    cwd: here,
    encoding: 'utf8',
    timeout: 120_000,
  });
  const { tools, messages } = JSON.parse(stdout);
  assert.equal(tools[0].type, 'function');
  assert.equal(tools[0].function.name, 'lsp');
  assert.deepEqual(tools[0].function.parameters.required, ['operation', 'file_path', 'line', 'character']);
  assert.deepEqual(messages.map((m) => m.tool_call_id), ['call_1', 'call_2', 'call_3', 'call_4']);
  // Every answer's first line names what it answered for.
  assert.equal(messages[0].content, '`describe` at line 5, column 35:\nsrc/shape.ts:13:17');
  const [subject, ...refs] = messages[1].content.split('\n');
  assert.match(subject, /^`\w+` at line \d+, column \d+:$/);
  assert.deepEqual(refs.sort(), ['src/main.ts:11:25', 'src/main.ts:4:22']);
  assert.match(messages[2].content, /describe\(shape: Shape\): string/);
  assert.match(messages[2].content, /Returns a one-line, human-readable summary of a shape\./);
  assert.match(messages[3].content, /^LSP_INVALID_ARGUMENT: .*one-based/);
});
