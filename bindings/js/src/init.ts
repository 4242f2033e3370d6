// The package's one core instance: init() loads it once; the top-level
// functions use it and explain how to fix a call made before init().

import { Core } from './core.js';
import { LspError } from './errors.js';
import { compileSource, type ReadSource } from './load.js';
import type { CoreSource, InitOptions } from './types.js';

/** What an entry point (node.ts, browser.ts) supplies. */
export interface Platform {
  /** The packaged core.wasm, when init() is called without a source. */
  defaultSource(): CoreSource;
  read: ReadSource;
  /** What to do when the packaged core.wasm cannot be loaded (LSP_CORE_UNAVAILABLE's advice). */
  fixPackaged: string;
}

let pending: Promise<Core> | undefined;
let current: Core | undefined;

/** init() for a platform: idempotent; a failed init() may be retried. */
export function makeInit(platform: Platform) {
  return function init(source?: CoreSource, options: InitOptions = {}): Promise<Core> {
    if (pending && !current?.broken) return pending;
    const started = (async () => {
      const module = await compileSource(source ?? platform.defaultSource(), platform.read, {
        packaged: source === undefined,
        fixPackaged: platform.fixPackaged,
      });
      current = await Core.instantiate(module, options);
      return current;
    })();
    pending = started;
    started.catch(() => {
      if (pending === started) pending = undefined;
    });
    return started;
  };
}

/** The initialized core; throws a fix-it LspError before init() has finished. */
export function getCore(method = 'this function'): Core {
  if (!current) {
    const fix = pending ? 'await the promise init() returned' : 'call init() once at startup and await it';
    throw new LspError(
      'LSP_NOT_INITIALIZED',
      `lspseam: call init() before ${method}: the core module is not loaded yet (${fix}; in Node, init() loads the packaged core.wasm, in a browser pass its URL or bytes)`,
    );
  }
  return current;
}
