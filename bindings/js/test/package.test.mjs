// What `npm pack` ships besides the code: the license, declared and included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { pkgDir, repoRoot } from './helpers.mjs';

test('package.json declares Apache-2.0 and the packed package holds the repository LICENSE', () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  assert.equal(pkg.license, 'Apache-2.0');
  const license = readFileSync(`${repoRoot}LICENSE`, 'utf8');
  assert.match(license, /^\s+Apache License\n\s+Version 2\.0, January 2004\n/);
  assert.equal(readFileSync(`${pkgDir}LICENSE`, 'utf8'), license, 'npm run build copies the repository LICENSE into the package');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const [packed] = JSON.parse(execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: pkgDir, encoding: 'utf8' }));
  const files = packed.files.map((f) => f.path);
  for (const f of ['LICENSE', 'README.md', 'package.json', 'dist/core.wasm', 'dist/browser.js', 'dist/node.js']) assert.ok(files.includes(f), `${f} is not in the packed package: ${files.join(', ')}`);
});
