// The package's own wasi_snapshot_preview1 functions, one by one, on a
// plain WebAssembly.Memory; and the list the core module really imports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createWasi, Errno, WasiExit } from '../dist/wasi.js';
import { wasmPath } from './helpers.mjs';

function setup(options) {
  const memory = new WebAssembly.Memory({ initial: 4 });
  const wasi = createWasi(options);
  wasi.bind(memory);
  const view = () => new DataView(memory.buffer);
  return { memory, f: wasi.imports, view, bytes: (p, n) => new Uint8Array(memory.buffer, p, n) };
}

test('the core module imports exactly these functions, all implemented', () => {
  const imports = WebAssembly.Module.imports(new WebAssembly.Module(readFileSync(wasmPath)));
  const names = [...new Set(imports.map((i) => `${i.module}.${i.name}`))].sort();
  assert.deepEqual(names, [
    'args_get', 'args_sizes_get', 'clock_time_get', 'environ_get', 'environ_sizes_get', 'fd_close',
    'fd_fdstat_get', 'fd_fdstat_set_flags', 'fd_prestat_dir_name', 'fd_prestat_get', 'fd_write',
    'poll_oneoff', 'proc_exit', 'random_get', 'sched_yield',
  ].map((n) => `wasi_snapshot_preview1.${n}`));
  const { f } = setup();
  for (const i of imports) assert.equal(typeof f[i.name], 'function', i.name);
});

test('args_sizes_get / args_get: no arguments', () => {
  const { f, view } = setup();
  view().setUint32(0, 99, true);
  view().setUint32(4, 99, true);
  assert.equal(f.args_sizes_get(0, 4), Errno.SUCCESS);
  assert.equal(view().getUint32(0, true), 0);
  assert.equal(view().getUint32(4, true), 0);
  assert.equal(f.args_get(16, 32), Errno.SUCCESS);
});

test('environ_sizes_get / environ_get: no environment', () => {
  const { f, view } = setup();
  view().setUint32(0, 99, true);
  view().setUint32(4, 99, true);
  assert.equal(f.environ_sizes_get(0, 4), Errno.SUCCESS);
  assert.equal(view().getUint32(0, true), 0);
  assert.equal(view().getUint32(4, true), 0);
  assert.equal(f.environ_get(16, 32), Errno.SUCCESS);
});

test('clock_time_get: realtime is near Date.now(), in nanoseconds', () => {
  const { f, view } = setup();
  const before = BigInt(Date.now()) * 1_000_000n;
  assert.equal(f.clock_time_get(0, 1000n, 8), Errno.SUCCESS);
  const after = BigInt(Date.now()) * 1_000_000n;
  const t = view().getBigUint64(8, true);
  assert.ok(t >= before - 5_000_000n && t <= after + 5_000_000n, `realtime ${t} not within [${before}, ${after}] ± 5 ms`);
});

test('clock_time_get: monotonic is performance.now() in nanoseconds and never goes backwards', async (t) => {
  const { f, view } = setup();
  const mono = () => (assert.equal(f.clock_time_get(1, 0n, 8), Errno.SUCCESS), view().getBigUint64(8, true));
  // It measures elapsed time like an independent monotonic reference (process.hrtime): read
  // strictly outside the reference's interval, it spans at least that interval (less the
  // microsecond rounding of both readings). The wait ends when the reference has moved, not
  // after a fixed sleep.
  const a = mono();
  const h0 = process.hrtime.bigint();
  while (process.hrtime.bigint() - h0 < 20_000_000n) await new Promise((r) => setImmediate(r));
  const h1 = process.hrtime.bigint();
  const b = mono();
  assert.ok(b - a >= h1 - h0 - 2_000n, `monotonic advanced ${b - a} ns while the reference inside its readings advanced ${h1 - h0} ns`);
  let last = b;
  for (let i = 0; i < 1000; i++) {
    const t = mono();
    assert.ok(t >= last, 'monotonic went backwards');
    last = t;
  }
  // The unit, exactly (microsecond-rounded): a clock stopped at 1234.5678 ms, then moved by 20 ms.
  const clock = fakeClock(t, 1234.5678);
  assert.equal(mono(), 1_234_568_000n);
  clock.advance(20);
  assert.equal(mono(), 1_254_568_000n);
});

test('clock_time_get: an unknown clock is EINVAL', () => {
  const { f } = setup();
  assert.equal(f.clock_time_get(2, 0n, 8), Errno.INVAL);
  assert.equal(f.clock_time_get(7, 0n, 8), Errno.INVAL);
});

test('random_get fills the buffer, also over 65,536 bytes', () => {
  const { f, bytes } = setup();
  const n = 65536 + 1000;
  assert.equal(f.random_get(100, n), Errno.SUCCESS);
  const b = bytes(100, n);
  const zeros = b.reduce((z, x) => z + (x === 0 ? 1 : 0), 0);
  assert.ok(zeros < n / 64, `${zeros} zero bytes out of ${n}`);
  assert.ok(b.subarray(65536).some((x) => x !== 0), 'the second chunk was not filled');
  assert.equal(bytes(0, 100).every((x) => x === 0), true, 'wrote before the buffer');
  assert.equal(bytes(100 + n, 100).every((x) => x === 0), true, 'wrote past the buffer');
});

function writeIovs(view, bytes, iovs, pieces) {
  let data = 1024;
  pieces.forEach((piece, i) => {
    const enc = new TextEncoder().encode(piece);
    bytes(data, enc.length).set(enc);
    view().setUint32(iovs + i * 8, data, true);
    view().setUint32(iovs + i * 8 + 4, enc.length, true);
    data += enc.length;
  });
}

test('fd_write to stdout and stderr goes to the sinks and returns the byte count', () => {
  const out = [];
  const err = [];
  const { f, view, bytes } = setup({ stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
  writeIovs(view, bytes, 0, ['hello ', 'wörld\n']);
  assert.equal(f.fd_write(1, 0, 2, 512), Errno.SUCCESS);
  assert.equal(view().getUint32(512, true), 13);
  assert.deepEqual(out, ['hello wörld\n']);
  writeIovs(view, bytes, 0, ['panic: boom\n']);
  assert.equal(f.fd_write(2, 0, 1, 512), Errno.SUCCESS);
  assert.equal(view().getUint32(512, true), 12);
  assert.deepEqual(err, ['panic: boom\n']);
});

test('fd_write keeps a UTF-8 sequence split across writes whole', () => {
  const out = [];
  const { f, view, bytes } = setup({ stdout: (t) => out.push(t) });
  const rocket = new TextEncoder().encode('🚀');
  bytes(1024, 4).set(rocket);
  view().setUint32(0, 1024, true);
  view().setUint32(4, 2, true);
  assert.equal(f.fd_write(1, 0, 1, 512), Errno.SUCCESS);
  view().setUint32(0, 1026, true);
  assert.equal(f.fd_write(1, 0, 1, 512), Errno.SUCCESS);
  assert.equal(out.join(''), '🚀');
});

test('fd_write to stdin or an unknown fd is EBADF', () => {
  const { f, view, bytes } = setup({ stdout: () => assert.fail('wrote') });
  writeIovs(view, bytes, 0, ['x']);
  assert.equal(f.fd_write(0, 0, 1, 512), Errno.BADF);
  assert.equal(f.fd_write(3, 0, 1, 512), Errno.BADF);
  assert.equal(f.fd_write(99, 0, 1, 512), Errno.BADF);
});

test('proc_exit throws WasiExit with the code', () => {
  const { f } = setup();
  assert.throws(() => f.proc_exit(2), (e) => e instanceof WasiExit && e.exitCode === 2 && /code 2/.test(e.message));
});

test('sched_yield succeeds', () => {
  assert.equal(setup().f.sched_yield(), Errno.SUCCESS);
});

test('fd_fdstat_get describes stdio as character devices; unknown fd is EBADF', () => {
  const { f, view } = setup();
  for (const fd of [0, 1, 2]) {
    assert.equal(f.fd_fdstat_get(fd, 64), Errno.SUCCESS);
    assert.equal(view().getUint8(64), 2, 'filetype character device');
    assert.equal(view().getUint16(66, true), 0, 'flags');
    const rights = view().getBigUint64(72, true);
    assert.equal((rights & (fd === 0 ? 2n : 64n)) !== 0n, true, 'read right on stdin, write right on stdout/stderr');
  }
  assert.equal(f.fd_fdstat_get(3, 64), Errno.BADF);
});

test('fd_fdstat_set_flags: ENOSYS on stdio, EBADF elsewhere', () => {
  const { f } = setup();
  assert.equal(f.fd_fdstat_set_flags(1, 4), Errno.NOSYS);
  assert.equal(f.fd_fdstat_set_flags(5, 4), Errno.BADF);
});

test('fd_prestat_get / fd_prestat_dir_name: no preopened directories (EBADF)', () => {
  const { f } = setup();
  assert.equal(f.fd_prestat_get(3, 0), Errno.BADF);
  assert.equal(f.fd_prestat_get(0, 0), Errno.BADF);
  assert.equal(f.fd_prestat_dir_name(3, 0, 10), Errno.BADF);
});

test('fd_close closes stdio once; unknown fd is EBADF', () => {
  const { f, view, bytes } = setup({ stderr: () => {} });
  assert.equal(f.fd_close(9), Errno.BADF);
  assert.equal(f.fd_close(2), Errno.SUCCESS);
  assert.equal(f.fd_close(2), Errno.BADF);
  writeIovs(view, bytes, 0, ['x']);
  assert.equal(f.fd_write(2, 0, 1, 512), Errno.BADF);
});

function subscribeClock(view, at, userdata, clock, timeoutNs, flags = 0) {
  view().setBigUint64(at, userdata, true);
  view().setUint8(at + 8, 0); // clock
  view().setUint32(at + 16, clock, true);
  view().setBigUint64(at + 24, timeoutNs, true);
  view().setBigUint64(at + 32, 0n, true);
  view().setUint16(at + 40, flags, true);
}

// The host's clocks read performance.now(); this stops it at startMs for
// the test, and advance(ms) moves it.
function fakeClock(t, startMs) {
  let ms = startMs;
  const had = Object.hasOwn(performance, 'now');
  const real = performance.now;
  performance.now = () => ms;
  t.after(() => (had ? (performance.now = real) : delete performance.now));
  return { advance: (d) => (ms += d), now: () => ms };
}

// poll_oneoff blocks only through Atomics.wait (the package's sleep). This
// records every wait and, instead of blocking, moves the fake clock by the
// wait's timeout, as a real wait that timed out would have. The real
// Atomics.wait still runs on the same arguments with a zero timeout, so an
// argument it would reject (or a wait this thread may not do) still fails.
function spyWaits(t, clock) {
  const real = Atomics.wait;
  const waits = [];
  Atomics.wait = (cell, index, value, timeout) => {
    const result = real.call(Atomics, cell, index, value, 0);
    waits.push({ shared: cell.buffer instanceof SharedArrayBuffer, timeout, result });
    clock.advance(timeout);
    return result;
  };
  t.after(() => (Atomics.wait = real));
  return waits;
}

test('poll_oneoff: a relative clock subscription sleeps until its deadline, then fires', (t) => {
  const { f, view } = setup();
  const clock = fakeClock(t, 5000);
  const waits = spyWaits(t, clock);
  subscribeClock(view, 0, 42n, 1, 30_000_000n);
  assert.equal(f.poll_oneoff(0, 256, 1, 512), Errno.SUCCESS);
  assert.deepEqual(waits, [{ shared: true, timeout: 30, result: 'timed-out' }], 'one blocking wait for the whole 30 ms');
  assert.ok(clock.now() >= 5030, 'returned before the deadline');
  assert.equal(view().getUint32(512, true), 1);
  assert.equal(view().getBigUint64(256, true), 42n, 'userdata');
  assert.equal(view().getUint16(264, true), Errno.SUCCESS, 'error');
  assert.equal(view().getUint8(266), 0, 'type clock');
});

test('poll_oneoff: the earliest of two clocks fires; an absolute deadline in the past fires without waiting', (t) => {
  const { f, view } = setup();
  const clock = fakeClock(t, 5000);
  const waits = spyWaits(t, clock);
  subscribeClock(view, 0, 1n, 1, 5_000_000_000n);
  subscribeClock(view, 48, 2n, 1, 10_000_000n);
  assert.equal(f.poll_oneoff(0, 256, 2, 512), Errno.SUCCESS);
  assert.deepEqual(waits.map((w) => w.timeout), [10], 'waited for the 10 ms clock only');
  assert.equal(view().getUint32(512, true), 1);
  assert.equal(view().getBigUint64(256, true), 2n);

  waits.length = 0;
  subscribeClock(view, 0, 3n, 0, 1n, 1); // realtime, abstime 1 ns after the epoch
  assert.equal(f.poll_oneoff(0, 256, 1, 512), Errno.SUCCESS);
  assert.deepEqual(waits, [], 'waited for a deadline already past');
  assert.equal(view().getBigUint64(256, true), 3n);
});

test('poll_oneoff: fd subscriptions answer without waiting (EBADF for fds that are not open); no subscriptions is EINVAL', (t) => {
  const { f, view } = setup();
  const waits = spyWaits(t, fakeClock(t, 5000));
  view().setBigUint64(0, 7n, true);
  view().setUint8(8, 1); // fd_read
  view().setUint32(16, 9, true);
  subscribeClock(view, 48, 8n, 1, 5_000_000_000n);
  assert.equal(f.poll_oneoff(0, 256, 2, 512), Errno.SUCCESS);
  assert.deepEqual(waits, [], 'waited for the clock');
  assert.equal(view().getUint32(512, true), 1);
  assert.equal(view().getBigUint64(256, true), 7n);
  assert.equal(view().getUint16(264, true), Errno.BADF);
  assert.equal(view().getUint8(266), 1);
  assert.equal(f.poll_oneoff(0, 256, 0, 512), Errno.INVAL);
});

test('views are re-read after the memory grows', () => {
  const { f, memory, view } = setup();
  const old = memory.buffer;
  memory.grow(1);
  assert.equal(old.byteLength, 0, 'the old buffer is detached');
  const at = 4 * 65536; // only in the grown page
  view().setUint32(at + 8, 99, true);
  assert.equal(f.args_sizes_get(at + 8, at + 12), Errno.SUCCESS);
  assert.equal(view().getUint32(at + 8, true), 0);
});

test('the core runs on these imports and prints nothing (Node warns of nothing either)', async () => {
  const { runFresh } = await import('./helpers.mjs');
  const { stdout, stderr } = await runFresh(`
    import * as l from './dist/node.js';
    await l.init();
    process.stdout.write(l.call('parseToolArgs', '{"operation":"hover","file_path":"a.go","line":1,"character":1}'));
  `);
  assert.equal(stdout, '{"ok":{"operation":"hover","filePath":"a.go","position":{"line":0,"character":0}}}');
  assert.equal(stderr, '');
});
