// The browser entry point (also the default for other runtimes): the shared
// API and init() that fetches core.wasm from next to this file.

import { makeInit } from './init.js';

export * from './api.js';

const packagedCore = new URL('./core.wasm', import.meta.url);

/**
 * Loads the core module once; later calls return the same promise. Without
 * a source, fetches the core.wasm shipped next to this file (serve it with
 * `Content-Type: application/wasm` for streaming compilation). A bundler
 * that does not copy it leaves it missing: init() then rejects with
 * `LSP_CORE_UNAVAILABLE` saying to copy `lspseam/core.wasm` next to the
 * bundle or pass its URL.
 */
export const init = makeInit({
  defaultSource: () => packagedCore,
  read: (location) => fetch(location),
  fixPackaged:
    'If lspseam is bundled, the bundler did not copy core.wasm: copy `lspseam/core.wasm` (node_modules/lspseam/dist/core.wasm) next to the bundle, or serve it and pass its URL to init(), e.g. `await init("/assets/core.wasm")`.',
});
