// The wasi_snapshot_preview1 functions the Go runtime inside the core module
// imports, implemented for any JavaScript host (no node:wasi, nothing a
// browser lacks). The module does no I/O: there are no arguments, no
// environment, no preopened directories and no files but the console's
// stdin/stdout/stderr, whose output (only a Go crash writes) goes to sinks.

import type { WasiOptions } from './types.js';

/** WASI errno values used here. */
export const Errno = {
  SUCCESS: 0,
  BADF: 8,
  INVAL: 28,
  NOSYS: 52,
} as const;

/** Clock ids. */
export const Clock = { REALTIME: 0, MONOTONIC: 1 } as const;

/** Thrown by proc_exit: the module asked to end (a Go runtime crash). */
export class WasiExit extends Error {
  readonly exitCode: number;
  constructor(exitCode: number) {
    super(`the core module exited with code ${exitCode}`);
    this.name = 'WasiExit';
    this.exitCode = exitCode;
  }
}

type WasiFunction = (...args: never[]) => number | void;

/** The import object and the memory it needs once the instance exists. */
export interface Wasi {
  /** The functions for `{ wasi_snapshot_preview1: imports }`. */
  readonly imports: Record<string, WasiFunction>;
  /** Gives the functions the instance's memory (call before `_initialize`). */
  bind(memory: WebAssembly.Memory): void;
}

const FILETYPE_CHARACTER_DEVICE = 2;
const RIGHT_FD_READ = 1n << 1n;
const RIGHT_FD_WRITE = 1n << 6n;
const RIGHT_POLL_FD_READWRITE = 1n << 27n;
const EVENTTYPE_CLOCK = 0;
const SUBCLOCKFLAG_ABSTIME = 1;
const SUBSCRIPTION_SIZE = 48;
const EVENT_SIZE = 32;
const RANDOM_CHUNK = 65536; // crypto.getRandomValues' limit per call

export function createWasi(options: WasiOptions = {}): Wasi {
  let memory: WebAssembly.Memory | undefined;
  // Views are made per call: the module's memory may grow, which detaches them.
  const view = (): DataView => {
    if (!memory) throw new Error('lspseam: WASI function called before bind(memory)');
    return new DataView(memory.buffer);
  };
  const bytes = (ptr: number, len: number): Uint8Array => {
    if (!memory) throw new Error('lspseam: WASI function called before bind(memory)');
    return new Uint8Array(memory.buffer, ptr, len);
  };

  const sinks: Record<number, (text: string) => void> = {
    1: options.stdout ?? ((text) => console.log(text.replace(/\n$/, ''))),
    2: options.stderr ?? ((text) => console.error(text.replace(/\n$/, ''))),
  };
  const decoders: Record<number, TextDecoder> = { 1: new TextDecoder(), 2: new TextDecoder() };
  const open = new Set([0, 1, 2]);

  const imports: Record<string, WasiFunction> = {
    args_sizes_get(argcPtr: number, bufSizePtr: number): number {
      const v = view();
      v.setUint32(argcPtr, 0, true);
      v.setUint32(bufSizePtr, 0, true);
      return Errno.SUCCESS;
    },
    args_get(_argvPtr: number, _bufPtr: number): number {
      return Errno.SUCCESS;
    },
    environ_sizes_get(countPtr: number, bufSizePtr: number): number {
      const v = view();
      v.setUint32(countPtr, 0, true);
      v.setUint32(bufSizePtr, 0, true);
      return Errno.SUCCESS;
    },
    environ_get(_environPtr: number, _bufPtr: number): number {
      return Errno.SUCCESS;
    },

    clock_time_get(id: number, _precision: bigint, timePtr: number): number {
      const ns = now(id);
      if (ns === undefined) return Errno.INVAL;
      view().setBigUint64(timePtr, ns, true);
      return Errno.SUCCESS;
    },

    random_get(ptr: number, len: number): number {
      for (let off = 0; off < len; off += RANDOM_CHUNK) {
        crypto.getRandomValues(bytes(ptr + off, Math.min(RANDOM_CHUNK, len - off)));
      }
      return Errno.SUCCESS;
    },

    fd_write(fd: number, iovs: number, iovsLen: number, nwrittenPtr: number): number {
      const sink = sinks[fd];
      const decoder = decoders[fd];
      if (!sink || !decoder || !open.has(fd)) return Errno.BADF;
      const v = view();
      let written = 0;
      let text = '';
      for (let i = 0; i < iovsLen; i++) {
        const buf = v.getUint32(iovs + i * 8, true);
        const len = v.getUint32(iovs + i * 8 + 4, true);
        text += decoder.decode(bytes(buf, len), { stream: true });
        written += len;
      }
      v.setUint32(nwrittenPtr, written, true);
      if (text !== '') sink(text);
      return Errno.SUCCESS;
    },

    fd_close(fd: number): number {
      return open.delete(fd) ? Errno.SUCCESS : Errno.BADF;
    },

    fd_fdstat_get(fd: number, statPtr: number): number {
      if (!open.has(fd)) return Errno.BADF;
      const v = view();
      v.setUint8(statPtr, FILETYPE_CHARACTER_DEVICE); // fs_filetype
      v.setUint16(statPtr + 2, 0, true); // fs_flags
      const rights = (fd === 0 ? RIGHT_FD_READ : RIGHT_FD_WRITE) | RIGHT_POLL_FD_READWRITE;
      v.setBigUint64(statPtr + 8, rights, true); // fs_rights_base
      v.setBigUint64(statPtr + 16, 0n, true); // fs_rights_inheriting
      return Errno.SUCCESS;
    },

    fd_fdstat_set_flags(fd: number, _flags: number): number {
      return open.has(fd) ? Errno.NOSYS : Errno.BADF;
    },

    // No preopened directories: the first probe (fd 3) ends Go's scan.
    fd_prestat_get(_fd: number, _prestatPtr: number): number {
      return Errno.BADF;
    },
    fd_prestat_dir_name(_fd: number, _pathPtr: number, _pathLen: number): number {
      return Errno.BADF;
    },

    poll_oneoff(inPtr: number, outPtr: number, nsubscriptions: number, neventsPtr: number): number {
      if (nsubscriptions === 0) return Errno.INVAL;
      return pollOneoff(view, inPtr, outPtr, nsubscriptions, neventsPtr, open);
    },

    sched_yield(): number {
      return Errno.SUCCESS;
    },

    proc_exit(code: number): never {
      throw new WasiExit(code);
    },
  };

  return {
    imports,
    bind(m: WebAssembly.Memory) {
      memory = m;
    },
  };
}

/** Nanoseconds on a clock, or undefined for a clock this host does not have. */
export function now(id: number): bigint | undefined {
  switch (id) {
    case Clock.REALTIME:
      return msToNs(typeof performance !== 'undefined' ? performance.timeOrigin + performance.now() : Date.now());
    case Clock.MONOTONIC:
      return msToNs(typeof performance !== 'undefined' ? performance.now() : Date.now());
    default:
      return undefined;
  }
}

// Exact for the integral milliseconds, microsecond-rounded below them (a
// double of ~1.7e18 ns would lose the low bits).
function msToNs(ms: number): bigint {
  const whole = Math.floor(ms);
  return BigInt(whole) * 1_000_000n + BigInt(Math.round((ms - whole) * 1e3)) * 1_000n;
}

// poll_oneoff: clock subscriptions fire when their time comes (this host
// sleeps synchronously where it can; elsewhere it reports the earliest clock
// at once and the Go scheduler polls again); fd subscriptions are answered
// at once, EBADF for fds that are not open.
function pollOneoff(
  view: () => DataView,
  inPtr: number,
  outPtr: number,
  n: number,
  neventsPtr: number,
  open: Set<number>,
): number {
  let v = view();
  type Sub = { userdata: bigint; tag: number; fd: number; deadline: bigint };
  const subs: Sub[] = [];
  for (let i = 0; i < n; i++) {
    const base = inPtr + i * SUBSCRIPTION_SIZE;
    const userdata = v.getBigUint64(base, true);
    const tag = v.getUint8(base + 8);
    if (tag === EVENTTYPE_CLOCK) {
      const clock = v.getUint32(base + 16, true);
      const timeout = v.getBigUint64(base + 24, true);
      const flags = v.getUint16(base + 40, true);
      const start = now(clock);
      const deadline = start === undefined ? -1n : flags & SUBCLOCKFLAG_ABSTIME ? timeout : start + timeout;
      subs.push({ userdata, tag, fd: clock, deadline });
    } else {
      subs.push({ userdata, tag, fd: v.getUint32(base + 16, true), deadline: 0n });
    }
  }

  const fdSubs = subs.filter((s) => s.tag !== EVENTTYPE_CLOCK);
  const clockSubs = subs.filter((s) => s.tag === EVENTTYPE_CLOCK);
  let fired: Sub[];
  if (fdSubs.length > 0) {
    fired = fdSubs.concat(clockSubs.filter((s) => s.deadline <= (now(s.fd) ?? 0n)));
  } else {
    const first = clockSubs.reduce((a, b) => (b.deadline < a.deadline ? b : a));
    const wait = first.deadline - (now(first.fd) ?? first.deadline);
    if (wait > 0n) sleep(Number(wait / 1_000_000n));
    fired = [first];
  }

  v = view();
  fired.forEach((s, i) => {
    const base = outPtr + i * EVENT_SIZE;
    for (let b = 0; b < EVENT_SIZE; b++) v.setUint8(base + b, 0);
    v.setBigUint64(base, s.userdata, true);
    let errno: number = Errno.SUCCESS;
    if (s.tag === EVENTTYPE_CLOCK) errno = s.deadline < 0n ? Errno.INVAL : Errno.SUCCESS;
    else if (!open.has(s.fd)) errno = Errno.BADF;
    v.setUint16(base + 8, errno, true);
    v.setUint8(base + 10, s.tag);
  });
  v.setUint32(neventsPtr, fired.length, true);
  return Errno.SUCCESS;
}

let sleepCell: Int32Array | null | undefined;

// Blocks the thread for ms where Atomics.wait is allowed (Node, workers);
// returns at once where it is not (a browser's main thread).
function sleep(ms: number): void {
  if (ms <= 0) return;
  if (sleepCell === undefined) {
    try {
      sleepCell = new Int32Array(new SharedArrayBuffer(4));
    } catch {
      sleepCell = null;
    }
  }
  if (sleepCell === null) return;
  try {
    Atomics.wait(sleepCell, 0, 0, ms);
  } catch {
    sleepCell = null;
  }
}
