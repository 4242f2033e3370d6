// Every TypeScript snippet of the package's README (bindings/js/README.md)
// and of the repository's README type-checks as written, with
// `tsc --strict` (plus exactOptionalPropertyTypes) against the installed
// lspseam package and the real `ai` and `openai` packages the snippets
// import. Each ```ts block is its own module; an error is reported at its
// README line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const tsc = join(here, 'node_modules', '.bin', 'tsc');
const readmes = ['bindings/js/README.md', 'README.md'];

/** The ```ts blocks of a markdown file: {line (of the first code line), code}. */
function tsBlocks(markdown) {
  const blocks = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== '```ts') continue;
    const start = i + 1;
    while (++i < lines.length && !lines[i].startsWith('```'));
    blocks.push({ line: start + 1, code: lines.slice(start, i).join('\n') });
  }
  return blocks;
}

test("the READMEs' TypeScript snippets type-check with tsc --strict", () => {
  assert.ok(existsSync(tsc), `run \`npm ci\` in ${here} first`);
  assert.ok(existsSync(join(here, 'node_modules', 'lspseam', 'dist', 'node.d.ts')), 'build the package first: `npm ci && npm run build` in bindings/js');
  // Inside this package, so that `lspseam`, `ai` and `openai` resolve from its node_modules.
  const dir = join(here, '.build', 'readme-snippets');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const origin = new Map();
  for (const readme of readmes) {
    tsBlocks(readFileSync(join(repoRoot, readme), 'utf8')).forEach((b, i) => {
      const file = `${readme.replace(/[/.]/g, '_')}_${i + 1}.ts`;
      // `export {}` keeps each snippet a module of its own (top-level await, no shared names).
      writeFileSync(join(dir, file), `${b.code}\nexport {};\n`);
      origin.set(file, { readme, line: b.line });
    });
  }
  assert.ok([...origin.values()].filter((o) => o.readme === 'bindings/js/README.md').length >= 5, 'bindings/js/README.md has lost its snippets');
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2022'],
        types: ['node'],
        strict: true,
        exactOptionalPropertyTypes: true,
        skipLibCheck: true,
        noEmit: true,
      },
      include: ['*.ts'],
    }),
  );
  const r = spawnSync(tsc, ['-p', join(dir, 'tsconfig.json'), '--pretty', 'false'], { cwd: here, encoding: 'utf8' });
  // file(line,col): error … → README.md:LINE:col: error …
  const errors = `${r.stdout}${r.stderr}`.replace(/^(\S+\.ts)\((\d+),(\d+)\)/gm, (m, file, line, col) => {
    const o = origin.get(file.split('/').pop());
    return o ? `${o.readme}:${o.line + Number(line) - 1}:${col}` : m;
  });
  assert.equal(r.status, 0, `README snippets do not type-check:\n${errors}`);
});
