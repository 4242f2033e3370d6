// Copies the core module (built by `make wasm` in the repository root) into
// dist/, next to the compiled entry points that load it, and the
// repository's LICENSE into the package (npm packs it from here).
import { copyFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const copies = [
  ['../../go/core.wasm', '../dist/core.wasm'],
  ['../../../LICENSE', '../LICENSE'],
];
mkdirSync(fileURLToPath(new URL('../dist/', import.meta.url)), { recursive: true });
for (const [fromRel, toRel] of copies) {
  const from = fileURLToPath(new URL(fromRel, import.meta.url));
  const to = fileURLToPath(new URL(toRel, import.meta.url));
  copyFileSync(from, to);
  console.log(`copied ${from} -> ${to}`);
}
