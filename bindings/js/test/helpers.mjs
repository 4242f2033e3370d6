// Test support: paths, the golden-case reader, fresh-process runs.
import { readFileSync, readdirSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const pkgDir = fileURLToPath(new URL('../', import.meta.url));
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const goldenDir = new URL('../../../testdata/core/', import.meta.url);
export const distUrl = new URL('../dist/', import.meta.url);
export const wasmPath = fileURLToPath(new URL('../dist/core.wasm', import.meta.url));

/**
 * Every golden case: {method, name, input, envelope}. The format
 * (internal/casefile): "=== name", then "> input" or ">q JSON-quoted input",
 * then "< envelope".
 */
export function goldenCases() {
  const cases = [];
  for (const file of readdirSync(goldenDir).filter((f) => f.endsWith('.golden')).sort()) {
    const method = file.slice(0, -'.golden'.length);
    let name = '';
    let input;
    const lines = readFileSync(new URL(file, goldenDir), 'utf8').replace(/\n$/, '').split('\n');
    lines.forEach((line, i) => {
      if (line.startsWith('=== ')) [name, input] = [line.slice(4), undefined];
      else if (line.startsWith('>q ')) input = JSON.parse(line.slice(3));
      else if (line.startsWith('> ')) input = line.slice(2);
      else if (line.startsWith('< ') && name && input !== undefined) cases.push({ method, name, input, envelope: line.slice(2) });
      else throw new Error(`${file}:${i + 1}: unexpected line`);
    });
  }
  return cases;
}

/** Runs an ES module snippet in a fresh Node process (module state is per process); resolves its stdout. */
export function runFresh(source) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', source], { cwd: pkgDir }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${err.message}\n${stderr}`));
      else resolve({ stdout, stderr });
    });
  });
}
