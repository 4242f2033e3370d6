// The Node entry point: the shared API, init() that reads the packaged
// core.wasm from disk, and ShimClient for `lspseam serve`.

import { readFile } from 'node:fs/promises';
import { makeInit } from './init.js';

export * from './api.js';
export { ShimClient, defaultShimPath } from './shim-client.js';
export type { ShimClientOptions } from './shim-client.js';

const packagedCore = new URL('./core.wasm', import.meta.url);

/**
 * Loads the core module once; later calls return the same promise. Without
 * a source, the core.wasm shipped next to this file is read; a string is a
 * path or a file:/http(s): URL.
 */
export const init = makeInit({
  defaultSource: () => packagedCore,
  async read(location) {
    const url = location instanceof URL ? location : /^[a-z][a-z0-9+.-]+:/i.test(location) && !/^[a-z]:[\\/]/i.test(location) ? new URL(location) : undefined;
    if (url && url.protocol !== 'file:') return fetch(url);
    return readFile(url ?? location);
  },
  fixPackaged:
    "The package's dist/core.wasm is missing: reinstall lspseam (in a checkout, `make wasm` then `npm run build` in bindings/js), or pass the path, URL or bytes of `lspseam/core.wasm` to init(). If lspseam is bundled, copy `lspseam/core.wasm` next to the bundle.",
});
