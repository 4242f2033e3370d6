// Turning what init() was given into a compiled core module.

import { LspError } from './errors.js';
import type { CoreSource } from './types.js';

/** How a platform reads a URL or path it was given as the module's source. */
export type ReadSource = (location: string | URL) => Promise<ArrayBuffer | ArrayBufferView | Response>;

export async function compileSource(source: CoreSource, read: ReadSource): Promise<WebAssembly.Module> {
  if (source instanceof WebAssembly.Module) return source;
  if (typeof source === 'string' || source instanceof URL) return compileSource(await readOrExplain(read, source), read);
  if (isResponseLike(source) || source instanceof Promise) return compileResponse(await source);
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return compileBytes(source);
  throw new LspError(
    'LSP_INVALID_ARGUMENT',
    'lspseam: init(source) takes the core module as bytes (ArrayBuffer/Uint8Array), a URL or path, a Response, or a compiled WebAssembly.Module',
  );
}

async function readOrExplain(read: ReadSource, location: string | URL): Promise<ArrayBuffer | ArrayBufferView | Response> {
  try {
    return await read(location);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new LspError('LSP_INVALID_ARGUMENT', `lspseam: init(): cannot read the core module from ${String(location)}: ${why}`, { cause: err });
  }
}

async function compileBytes(bytes: ArrayBuffer | ArrayBufferView): Promise<WebAssembly.Module> {
  const src = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // WebAssembly.compile takes no shared memory: copy bytes that live in one.
  const view = src.buffer instanceof ArrayBuffer ? (src as Uint8Array<ArrayBuffer>) : src.slice();
  try {
    return await WebAssembly.compile(view);
  } catch (err) {
    throw new LspError('LSP_INVALID_ARGUMENT', `lspseam: init(): not a WebAssembly module (${String(err)}); pass the core.wasm shipped with this package`, { cause: err });
  }
}

async function compileResponse(res: Response): Promise<WebAssembly.Module> {
  if (!res.ok) {
    throw new LspError('LSP_INVALID_ARGUMENT', `lspseam: init(): fetching the core module from ${res.url || 'its URL'} failed with HTTP ${res.status}`);
  }
  if (typeof WebAssembly.compileStreaming === 'function' && res.headers.get('content-type')?.startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(res);
  }
  return compileBytes(await res.arrayBuffer());
}

function isResponseLike(value: unknown): value is Response {
  return typeof Response !== 'undefined' && value instanceof Response;
}
