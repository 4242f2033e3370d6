import { test } from 'node:test';
import assert from 'node:assert/strict';
import { frame, FrameReader, FramingError } from '../dist/framing.js';

test('frame() writes Content-Length in bytes', () => {
  assert.equal(frame({ a: 'é' }).toString(), 'Content-Length: 10\r\n\r\n{"a":"é"}');
});

test('FrameReader splits messages across and within chunks', () => {
  const got = [];
  const r = new FrameReader((m) => got.push(m));
  const bytes = Buffer.concat([frame({ n: 1, s: '🚀' }), frame({ n: 2 }), frame({ n: 3 })]);
  for (let i = 0; i < bytes.length; i += 3) r.push(bytes.subarray(i, i + 3)); // splits headers, bodies and a UTF-8 sequence
  assert.deepEqual(got, [{ n: 1, s: '🚀' }, { n: 2 }, { n: 3 }]);
  r.push(Buffer.concat([frame({ n: 4 }), frame({ n: 5 })]));
  assert.deepEqual(got.slice(3), [{ n: 4 }, { n: 5 }]);
  r.push(Buffer.from('Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: 2\r\n\r\n{}'));
  assert.deepEqual(got[5], {});
});

test('FrameReader rejects broken streams', () => {
  const bad = [
    ['Content-Length: x\r\n\r\n', /bad Content-Length/],
    ['Foo: 1\r\n\r\n', /without Content-Length/],
    ['garbage\r\n\r\n', /malformed header/],
    ['Content-Length: 1\r\n\r\n{', /not JSON/],
    ['Content-Length: 999999999\r\n\r\n', /over the/],
    ['x'.repeat(5000), /longer than 4096/],
  ];
  for (const [input, message] of bad) {
    const r = new FrameReader(() => {}, 1_000_000);
    assert.throws(() => r.push(Buffer.from(input)), (e) => e instanceof FramingError && message.test(e.message), input.slice(0, 30));
  }
});
