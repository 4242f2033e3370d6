// ShimClient: drives `lspseam serve` (JSON-RPC 2.0 over the shim's stdio,
// Content-Length framing) for the queries that need language-server
// processes. Node only.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LspError } from './errors.js';
import { frame, FrameReader } from './framing.js';
import type {
  CatalogToolDefinition,
  LspErrorCode,
  LspQueryClient,
  LspQueryRequest,
  LspQueryResult,
  ToolCallClient,
  ToolResult,
  Toolset,
} from './types.js';

export interface ShimClientOptions {
  /** The lspseam executable; default: the repository's bin/lspseam when running from a checkout, else `lspseam` on PATH. */
  shimPath?: string;
  /** Passed as `serve --config configPath`; without it the shim registers its presets. */
  configPath?: string;
  /** Variables added to this process's environment for the shim. */
  env?: Record<string, string>;
  /** More `serve` flags, e.g. ['--log-level', 'debug']. */
  args?: string[];
  /** Working directory of the shim. */
  cwd?: string;
  /** Receives the shim's log output (stderr); by default it is kept only for crash reports. */
  onStderr?: (text: string) => void;
  /** Called when a shim process exits unexpectedly (the next query starts a new one). */
  onExit?: (info: { code: number | null; signal: NodeJS.Signals | null; stderrTail: string }) => void;
  /** How long dispose() waits for `shutdown` (the shim shuts its servers down first); default 15,000. */
  shutdownTimeoutMs?: number;
  /** How long dispose() waits after `exit` and after SIGTERM; default 2,000. */
  killGraceMs?: number;
}

const STDERR_TAIL_CHARS = 8192;

/** The repository's bin/lspseam when this package runs from a checkout (bindings/js), else `lspseam` (on PATH). */
export function defaultShimPath(): string {
  const repo = new URL('../../../', import.meta.url); // dist/ → bindings/js/ → bindings/ → the repository
  const inRepo = fileURLToPath(new URL('bin/lspseam', repo));
  return existsSync(inRepo) && existsSync(new URL('cmd/shim/', repo)) ? inRepo : 'lspseam';
}

export class ShimClient implements LspQueryClient, ToolCallClient {
  readonly #options: ShimClientOptions;
  readonly #shimPath: string;
  #proc: ShimProcess | undefined;
  #disposed: Promise<void> | undefined;

  constructor(options: ShimClientOptions = {}) {
    this.#options = options;
    this.#shimPath = options.shimPath ?? defaultShimPath();
  }

  /** The running shim's process id (undefined before the first query and after a crash). */
  get pid(): number | undefined {
    return this.#proc?.pid;
  }

  /**
   * Runs one seam query (zero-based position). Aborting `signal` sends
   * `$/cancelRequest` and rejects with LSP_CANCELLED; seam failures reject
   * with their LspError; a shim that dies fails its queries with
   * LSP_SERVER_FAILED and the next query starts a new one.
   */
  async query(request: LspQueryRequest, options: { signal?: AbortSignal } = {}): Promise<LspQueryResult> {
    if (this.#disposed) throw new LspError('LSP_DISPOSED', 'ShimClient: disposed; create a new client');
    if (options.signal?.aborted) throw new LspError('LSP_CANCELLED', 'lsp/query: cancelled before it was sent');
    return (await this.#process().request('lsp/query', request, options.signal)) as LspQueryResult;
  }

  /**
   * Runs one tool (`tools/call`) on the model's arguments (an object) in
   * the session's workspace. The tool's own failures (an unknown tool, bad
   * arguments, an ambiguous target, a server error) resolve with
   * `isError: true`; cancellation (`$/cancelRequest`, LSP_CANCELLED), a
   * request the shim refuses (e.g. timeoutMs out of range) and a dead shim
   * reject. `timeoutMs` is the shim's budget for the call (default: its
   * config's timeoutMs).
   */
  async callTool(
    name: string,
    args: unknown,
    workspaceRoot: string,
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<ToolResult> {
    if (this.#disposed) throw new LspError('LSP_DISPOSED', 'ShimClient: disposed; create a new client');
    if (options.signal?.aborted) throw new LspError('LSP_CANCELLED', 'tools/call: cancelled before it was sent');
    const params = {
      name,
      arguments: args ?? {},
      workspaceRoot,
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    };
    return toToolResult(name, await this.#process().request('tools/call', params, options.signal));
  }

  /** The definitions of the tools `lspseam serve` runs (`tools/list`), of the given toolsets (default: all). */
  async listTools(toolsets?: readonly (Toolset | (string & {}))[], options: { signal?: AbortSignal } = {}): Promise<CatalogToolDefinition[]> {
    if (this.#disposed) throw new LspError('LSP_DISPOSED', 'ShimClient: disposed; create a new client');
    const answer = await this.#process().request('tools/list', toolsets === undefined ? {} : { toolsets }, options.signal);
    if (!isObject(answer) || !Array.isArray(answer['tools'])) {
      throw new LspError('LSP_PROTOCOL_ERROR', `lspseam serve answered tools/list with ${JSON.stringify(answer)?.slice(0, 200)}, not {tools: [...]}`);
    }
    return answer['tools'] as CatalogToolDefinition[];
  }

  /** Shuts the shim down (`shutdown`, `exit`), then terminates it if needed; resolves once it has exited. */
  dispose(): Promise<void> {
    this.#disposed ??= (async () => {
      const proc = this.#proc;
      this.#proc = undefined;
      await proc?.stop(this.#options.shutdownTimeoutMs ?? 15_000, this.#options.killGraceMs ?? 2_000);
    })();
    return this.#disposed;
  }

  #process(): ShimProcess {
    if (!this.#proc || this.#proc.dead) {
      const args = ['serve', ...(this.#options.configPath ? ['--config', this.#options.configPath] : []), ...(this.#options.args ?? [])];
      const proc = new ShimProcess(this.#shimPath, args, this.#options);
      proc.exited.then((info) => {
        if (this.#proc === proc) this.#proc = undefined;
        if (!proc.stopping) this.#options.onExit?.(info);
      });
      this.#proc = proc;
    }
    return this.#proc;
  }
}

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(err: LspError): void;
}

interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderrTail: string;
}

/** One `lspseam serve` process. */
class ShimProcess {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #shimPath: string;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #stderrTail = '';
  #failure: LspError | undefined;
  dead = false;
  stopping = false;
  readonly exited: Promise<ExitInfo>;

  constructor(shimPath: string, args: string[], options: ShimClientOptions) {
    this.#shimPath = shimPath;
    this.#child = spawn(shimPath, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, ...options.env },
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });
    live.add(this.#child);
    registerExitHook();

    const reader = new FrameReader((message) => this.#receive(message));
    this.#child.stdout.on('data', (chunk: Buffer) => {
      try {
        reader.push(chunk);
      } catch (err) {
        this.#fail('LSP_PROTOCOL_ERROR', `the lspseam shim broke the serve protocol (${(err as Error).message}); it was stopped, the next query starts a new one`);
        this.#child.kill('SIGKILL');
      }
    });
    this.#child.stderr.setEncoding('utf8');
    this.#child.stderr.on('data', (text: string) => {
      this.#stderrTail = (this.#stderrTail + text).slice(-STDERR_TAIL_CHARS);
      options.onStderr?.(text);
    });
    this.#child.stdin.on('error', () => {}); // EPIPE after a crash: the exit handler reports it

    this.exited = new Promise((resolve) => {
      this.#child.on('error', (err) => {
        this.#fail('LSP_SERVER_FAILED', `cannot start the lspseam shim ${JSON.stringify(shimPath)}: ${err.message}; build it (make build → bin/lspseam) or pass shimPath`);
        if (this.#child.pid === undefined) this.#exit(resolve, null, null);
      });
      this.#child.on('close', (code, signal) => this.#exit(resolve, code, signal));
    });
    this.#updateRef();
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  request(method: string, params: unknown, signal?: AbortSignal): Promise<unknown> {
    if (this.dead) return Promise.reject(this.#failure ?? new LspError('LSP_SERVER_FAILED', 'the lspseam shim is not running'));
    const id = this.#nextId++;
    let bytes: Uint8Array;
    try {
      bytes = frame({ jsonrpc: '2.0', id, method, params });
    } catch (err) {
      // Nothing was sent and the shim is fine: the caller's params (a
      // BigInt, a cycle) are the problem, not the transport.
      return Promise.reject(
        new LspError('LSP_INVALID_ARGUMENT', `${method}: the request cannot be sent as JSON (${(err as Error).message.split('\n')[0]}); pass plain JSON values (numbers, not BigInt; no object inside itself)`),
      );
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        if (!this.#pending.delete(id)) return;
        this.#send({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id } });
        this.#updateRef();
        reject(new LspError('LSP_CANCELLED', `${method}: cancelled by the caller`));
      };
      const done = () => signal?.removeEventListener('abort', onAbort);
      this.#pending.set(id, {
        method,
        resolve: (v) => (done(), resolve(v)),
        reject: (e) => (done(), reject(e)),
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#updateRef();
      this.#write(bytes);
    });
  }

  /** shutdown → exit → SIGTERM → SIGKILL, each step bounded; resolves once the process is gone. */
  async stop(shutdownTimeoutMs: number, killGraceMs: number): Promise<void> {
    this.stopping = true;
    this.#updateRef();
    this.#rejectAll(new LspError('LSP_DISPOSED', 'ShimClient: disposed while the query was running'));
    if (!this.dead) {
      await withTimeout(this.request('shutdown', null).catch(() => undefined), shutdownTimeoutMs);
      this.#send({ jsonrpc: '2.0', method: 'exit' });
      this.#child.stdin.end();
    }
    if (await withTimeout(this.exited, killGraceMs)) return;
    this.#child.kill('SIGTERM');
    if (await withTimeout(this.exited, killGraceMs)) return;
    this.#child.kill('SIGKILL');
    await this.exited;
  }

  #send(message: unknown): void {
    this.#write(frame(message));
  }

  #write(bytes: Uint8Array): void {
    if (this.dead || !this.#child.stdin.writable) return;
    this.#child.stdin.write(bytes);
  }

  #receive(message: unknown): void {
    if (!isObject(message)) return;
    if (typeof message['method'] === 'string') {
      // The shim sends no requests today; answer any so it never waits.
      if (message['id'] !== undefined) {
        this.#send({ jsonrpc: '2.0', id: message['id'], error: { code: -32601, message: `the lspseam JS client has no method ${message['method']}` } });
      }
      return;
    }
    const id = message['id'];
    const pending = typeof id === 'number' ? this.#pending.get(id) : undefined;
    if (!pending || typeof id !== 'number') return; // answered after its cancellation
    this.#pending.delete(id);
    this.#updateRef();
    const error = message['error'];
    if (error !== undefined && error !== null) pending.reject(toLspError(pending.method, error));
    else pending.resolve(message['result']);
  }

  #fail(code: LspErrorCode, message: string): void {
    this.#failure ??= new LspError(code, message);
    this.#rejectAll(this.#failure);
  }

  #rejectAll(err: LspError): void {
    const all = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of all) p.reject(err);
    this.#updateRef();
  }

  #exit(resolve: (info: ExitInfo) => void, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.dead) return;
    this.dead = true;
    live.delete(this.#child);
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    const tail = this.#stderrTail.trim();
    // A shim that could not start says why as "lspseam serve: LSP_…: message".
    const startup = /^lspseam serve: (LSP_[A-Z_]+): ([\s\S]*)$/m.exec(tail);
    if (startup) this.#fail(startup[1] as LspErrorCode, `lspseam serve could not start: ${startup[2]}`);
    this.#fail(
      'LSP_SERVER_FAILED',
      `the lspseam shim (${this.#shimPath}) ${how}; the next query starts a new one` + (tail ? `; its last log lines:\n${tail}` : ''),
    );
    resolve({ code, signal, stderrTail: this.#stderrTail });
  }

  // A shim with nothing to do does not keep Node's event loop alive.
  #updateRef(): void {
    const busy = this.#pending.size > 0 || this.stopping;
    for (const handle of [this.#child, this.#child.stdin, this.#child.stdout, this.#child.stderr] as unknown as Refable[]) {
      if (busy) handle.ref?.();
      else handle.unref?.();
    }
  }
}

interface Refable {
  ref?(): void;
  unref?(): void;
}

function toLspError(method: string, error: unknown): LspError {
  if (isObject(error)) {
    const data = error['data'];
    if (isObject(data) && typeof data['code'] === 'string' && (data['code'].startsWith('LSP_') || data['code'].startsWith('FS_'))) {
      return new LspError(data['code'] as LspErrorCode, typeof data['message'] === 'string' ? data['message'] : String(error['message']));
    }
    return new LspError('LSP_PROTOCOL_ERROR', `lspseam serve answered ${method} with JSON-RPC error ${String(error['code'])}: ${String(error['message'])}`);
  }
  return new LspError('LSP_PROTOCOL_ERROR', `lspseam serve answered ${method} with a malformed error`);
}

/** tools/call's MCP-shaped answer ({content:[{type:"text", text}], structuredContent, isError}) as a ToolResult. */
function toToolResult(name: string, answer: unknown): ToolResult {
  const content = isObject(answer) ? answer['content'] : undefined;
  const structured = isObject(answer) ? answer['structuredContent'] : undefined;
  if (!isObject(answer) || !Array.isArray(content) || !isObject(structured) || typeof answer['isError'] !== 'boolean') {
    throw new LspError(
      'LSP_PROTOCOL_ERROR',
      `lspseam serve answered tools/call ${name} with ${JSON.stringify(answer)?.slice(0, 200)}, not {content, structuredContent, isError}; is the shim older than this package?`,
    );
  }
  const text = content
    .filter((c): c is Record<string, unknown> => isObject(c) && c['type'] === 'text' && typeof c['text'] === 'string')
    .map((c) => c['text'] as string)
    .join('\n');
  return { text, structured, isError: answer['isError'] } as unknown as ToolResult;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** True when p settled within ms. */
async function withTimeout(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([p.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

// Shims still running when this process exits get SIGTERM: they shut their
// language servers down (their stdin also closes with this process).
const live = new Set<ChildProcessWithoutNullStreams>();
let hooked = false;
function registerExitHook(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const child of live) child.kill('SIGTERM');
  });
}

