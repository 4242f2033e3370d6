// Turning what init() was given into a compiled core module.
//
// Two failures are told apart by their code:
// - LSP_INVALID_ARGUMENT: the caller passed something that cannot be a core
//   module (a number, bytes that are not WebAssembly);
// - LSP_CORE_UNAVAILABLE: a location (URL, path, Response) did not give the
//   module: missing file, HTTP error, network error, or something else
//   served in its place (a dev server's index.html). The message says where
//   it looked and how to fix it: above all, a bundle whose bundler did not
//   copy core.wasm next to it.

import { LspError } from './errors.js';
import type { CoreSource } from './types.js';

/** How a platform reads a URL or path it was given as the module's source. */
export type ReadSource = (location: string | URL) => Promise<ArrayBuffer | ArrayBufferView | Response>;

/** Where a source came from, for the messages of a failed load. */
export interface SourceOrigin {
  /** The platform's packaged core.wasm (init() without a source). */
  packaged: boolean;
  /** What to do when the packaged core.wasm cannot be loaded (per platform). */
  fixPackaged: string;
}

const fixGiven =
  'pass init() the URL or path where the core module is served (the package ships it as `lspseam/core.wasm`, i.e. node_modules/lspseam/dist/core.wasm), or its bytes';

export async function compileSource(
  source: CoreSource,
  read: ReadSource,
  origin: SourceOrigin = { packaged: false, fixPackaged: '' },
): Promise<WebAssembly.Module> {
  if (source instanceof WebAssembly.Module) return source;
  if (typeof source === 'string' || source instanceof URL) {
    const loaded = await readOrExplain(read, source, origin);
    if (loaded instanceof ArrayBuffer || ArrayBuffer.isView(loaded)) return compileBytes(loaded, { location: String(source), origin });
    return compileResponse(loaded, origin, String(source));
  }
  if (isResponseLike(source) || source instanceof Promise) return compileResponse(await source, origin);
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return compileBytes(source);
  throw new LspError(
    'LSP_INVALID_ARGUMENT',
    'lspseam: init(source) takes the core module as bytes (ArrayBuffer/Uint8Array), a URL or path, a Response, or a compiled WebAssembly.Module',
  );
}

/** The LSP_CORE_UNAVAILABLE error for a location that did not give the module. */
function unavailable(location: string, why: string, origin: SourceOrigin, cause?: unknown): LspError {
  const message = origin.packaged
    ? `lspseam: init(): cannot load the core module (core.wasm) from ${location}, where this package expects it next to its own code: ${why}. ${origin.fixPackaged}`
    : `lspseam: init(): cannot load the core module from ${location}: ${why}. ${capitalize(fixGiven)}.`;
  return new LspError('LSP_CORE_UNAVAILABLE', message, cause === undefined ? undefined : { cause });
}

async function readOrExplain(
  read: ReadSource,
  location: string | URL,
  origin: SourceOrigin,
): Promise<ArrayBuffer | ArrayBufferView | Response> {
  try {
    return await read(location);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw unavailable(String(location), why, origin, err);
  }
}

interface Fetched {
  /** The URL or path the bytes came from. */
  location: string;
  origin: SourceOrigin;
  /** The response's content type, when they came from one. */
  contentType?: string | null;
}

async function compileBytes(bytes: ArrayBuffer | ArrayBufferView, fetched?: Fetched): Promise<WebAssembly.Module> {
  const src = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // WebAssembly.compile takes no shared memory: copy bytes that live in one.
  const view = src.buffer instanceof ArrayBuffer ? (src as Uint8Array<ArrayBuffer>) : src.slice();
  try {
    return await WebAssembly.compile(view);
  } catch (err) {
    if (fetched) throw notWasm(fetched, err);
    throw new LspError('LSP_INVALID_ARGUMENT', `lspseam: init(): not a WebAssembly module (${String(err)}); pass the core.wasm shipped with this package`, { cause: err });
  }
}

/** A location answered with something that is not WebAssembly (e.g. a dev server's index.html for a missing file). */
function notWasm(fetched: Fetched, err: unknown): LspError {
  const type = fetched.contentType ? `, content-type ${fetched.contentType}` : '';
  return unavailable(fetched.location, `what it returned is not a WebAssembly module (${String(err)}${type})`, fetched.origin, err);
}

async function compileResponse(res: Response, origin: SourceOrigin, requested?: string): Promise<WebAssembly.Module> {
  const location = res.url || requested || 'its URL';
  if (!res.ok) throw unavailable(location, `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`, origin);
  const contentType = res.headers.get('content-type');
  const fetched: Fetched = { location, origin, contentType };
  if (typeof WebAssembly.compileStreaming === 'function' && contentType?.startsWith('application/wasm')) {
    try {
      return await WebAssembly.compileStreaming(res);
    } catch (err) {
      throw notWasm(fetched, err);
    }
  }
  return compileBytes(await res.arrayBuffer(), fetched);
}

function isResponseLike(value: unknown): value is Response {
  return typeof Response !== 'undefined' && value instanceof Response;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
