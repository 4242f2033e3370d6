// Copies the core module (built by `make wasm` in the repository root) into
// dist/, next to the compiled entry points that load it.
import { copyFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const from = fileURLToPath(new URL('../../go/core.wasm', import.meta.url));
const to = fileURLToPath(new URL('../dist/core.wasm', import.meta.url));
mkdirSync(fileURLToPath(new URL('../dist/', import.meta.url)), { recursive: true });
copyFileSync(from, to);
console.log(`copied ${from} -> ${to}`);
