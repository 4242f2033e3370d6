// The browser entry point (also the default for other runtimes): the shared
// API and init() that fetches core.wasm from next to this file.

import { makeInit } from './init.js';

export * from './api.js';

const packagedCore = new URL('./core.wasm', import.meta.url);

/**
 * Loads the core module once; later calls return the same promise. Without
 * a source, fetches the core.wasm shipped next to this file (serve it with
 * `Content-Type: application/wasm` for streaming compilation).
 */
export const init = makeInit({
  defaultSource: () => packagedCore,
  read: (location) => fetch(location),
});
