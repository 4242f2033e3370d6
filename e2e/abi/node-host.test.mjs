// An outside host for the core module: Node's own WebAssembly and WASI
// implementations, no lspseam code. It proves the ABI documented in
// docs/abi.md is enough to drive bindings/go/core.wasm from any WASI
// preview1 host. Run by `make test` as `node --test e2e/abi/`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { WASI } from 'node:wasi';
import { fileURLToPath } from 'node:url';

const wasmPath = fileURLToPath(new URL('../../bindings/go/core.wasm', import.meta.url));
const goldenDir = new URL('../../testdata/core/', import.meta.url);
const abiDocPath = new URL('../../docs/abi.md', import.meta.url);

const enc = new TextEncoder();
const dec = new TextDecoder();

async function load() {
  const wasi = new WASI({ version: 'preview1', args: [], env: {} });
  const module = await WebAssembly.compile(readFileSync(wasmPath));
  const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
  wasi.initialize(instance); // calls _initialize
  const x = instance.exports;
  const put = (bytes) => {
    const ptr = x.lspseam_alloc(bytes.length);
    new Uint8Array(x.memory.buffer, ptr, bytes.length).set(bytes); // re-read buffer: memory may have grown
    return ptr;
  };
  // One lspseam_call on whatever pointers and lengths it is given; reads and frees the result.
  const raw = (mp, ml, ip, il) => {
    const packed = x.lspseam_call(mp, ml, ip, il);
    const ptr = Number(BigInt.asUintN(64, packed) >> 32n);
    const len = Number(BigInt.asUintN(32, packed));
    assert.ok(ptr > 0 && ptr + len <= x.memory.buffer.byteLength, `result ${ptr}+${len} is not inside memory`);
    const text = dec.decode(new Uint8Array(x.memory.buffer, ptr, len));
    x.lspseam_free(ptr);
    return text;
  };
  return {
    x,
    put,
    raw,
    abiVersion: () => x.lspseam_abi_version(),
    call(method, input) {
      const m = enc.encode(method);
      const i = enc.encode(typeof input === 'string' ? input : JSON.stringify(input));
      const mp = put(m);
      const ip = put(i);
      const text = raw(mp, m.length, ip, i.length);
      x.lspseam_free(mp);
      x.lspseam_free(ip);
      return text;
    },
  };
}

// The methods the module itself says it has: LSP_UNKNOWN_METHOD lists them.
function moduleMethods(core) {
  const env = JSON.parse(core.call('no such method', {}));
  assert.equal(env.error?.code, 'LSP_UNKNOWN_METHOD', JSON.stringify(env));
  const m = /this module has: (.+)$/.exec(env.error.message);
  assert.ok(m, `LSP_UNKNOWN_METHOD no longer lists the module's methods: ${env.error.message}`);
  return m[1].split(', ');
}

// The methods docs/abi.md's table documents (rows "| `method` | input | ok value |").
function documentedMethods() {
  const doc = readFileSync(abiDocPath, 'utf8');
  const start = doc.indexOf('| method | input | ok value |');
  assert.ok(start >= 0, 'docs/abi.md has no ABI method table');
  const rows = doc.slice(start).split('\n').slice(2);
  const methods = [];
  for (const row of rows) {
    const m = /^\| `([A-Za-z]+)` \|/.exec(row);
    if (!m) break;
    methods.push(m[1]);
  }
  return methods;
}

// testdata/core/METHOD.golden (format in internal/casefile): "=== name",
// "> input" or ">q JSON-quoted input", "< envelope". Any other line fails.
function goldenCases(method) {
  const file = `${method}.golden`;
  const cases = [];
  let name = '';
  let input;
  readFileSync(new URL(file, goldenDir), 'utf8').replace(/\n$/, '').split('\n').forEach((line, i) => {
    if (line.startsWith('=== ')) [name, input] = [line.slice(4), undefined];
    else if (line.startsWith('>q ')) input = JSON.parse(line.slice(3));
    else if (line.startsWith('> ')) input = line.slice(2);
    else if (line.startsWith('< ') && name && input !== undefined) {
      cases.push({ name, input, envelope: line.slice(2) });
      [name, input] = ['', undefined];
    } else throw new Error(`${file}:${i + 1}: unexpected line`);
  });
  return cases;
}

const filesEnding = (suffix) => readdirSync(goldenDir).filter((f) => f.endsWith(suffix)).map((f) => f.slice(0, -suffix.length)).sort();
const caseNames = (method) => JSON.parse(readFileSync(new URL(`${method}.cases.json`, goldenDir), 'utf8')).map((c) => c.name);

test('ABI version', async () => {
  const core = await load();
  assert.equal(core.abiVersion(), 1);
});

test('documented methods answer documented envelopes', async () => {
  const core = await load();
  const def = JSON.parse(core.call('toolDefinition', {}));
  assert.equal(def.ok.name, 'lsp');
  assert.deepEqual(def.ok.inputSchema.required, ['operation', 'file_path', 'line', 'character']);

  assert.equal(
    core.call('parseToolArgs', { operation: 'hover', file_path: 'a.go', line: 3, character: 7 }),
    '{"ok":{"operation":"hover","filePath":"a.go","position":{"line":2,"character":6}}}',
  );
  const bad = JSON.parse(core.call('parseToolArgs', { operation: 'hover', file_path: 'a.go', line: 0, character: 7 }));
  assert.equal(bad.error.code, 'LSP_INVALID_ARGUMENT');
  assert.match(bad.error.message, /one-based/);

  const translated = core.call('translate', {
    operation: 'findReferences',
    result: [{ uri: 'file:///w/p/b.go', range: { start: { line: 4, character: 1 }, end: { line: 4, character: 5 } } }],
  });
  const rendered = JSON.parse(core.call('render', `{"workspaceUri":"file:///w/p","result":${translated.slice(6, -1)}}`));
  assert.deepEqual(rendered.ok, { text: 'b.go:5:2', shown: 1, omitted: 0, truncated: false });

  assert.equal(JSON.parse(core.call('nope', {})).error.code, 'LSP_UNKNOWN_METHOD');
  assert.equal(JSON.parse(core.call('render', '{')).error.code, 'LSP_INVALID_ARGUMENT');
});

test('the module, docs/abi.md and testdata/core name the same methods', async () => {
  const methods = moduleMethods(await load());
  assert.ok(methods.length > 0);
  assert.deepEqual([...methods].sort(), documentedMethods().sort(), "the module's methods vs docs/abi.md's method table");
  assert.deepEqual([...methods].sort(), filesEnding('.golden'), "the module's methods vs testdata/core/*.golden");
  assert.deepEqual([...methods].sort(), filesEnding('.cases.json'), "the module's methods vs testdata/core/*.cases.json");
});

test('every method replays all its golden cases in this host', async (t) => {
  const core = await load();
  // Every method the module has or a golden file names: a method missing on either side fails.
  const methods = [...new Set([...moduleMethods(core), ...filesEnding('.golden')])].sort();
  let total = 0;
  for (const method of methods) {
    await t.test(method, () => {
      const cases = goldenCases(method);
      assert.ok(cases.length > 0, `${method}.golden has no cases`);
      assert.deepEqual(cases.map((c) => c.name), caseNames(method), `${method}.golden does not hold every case of ${method}.cases.json, in order`);
      for (const c of cases) assert.equal(core.call(method, c.input), c.envelope, `${method}/${c.name}`);
      total += cases.length;
    });
  }
  t.diagnostic(`${methods.length} methods, ${total} golden cases byte-identical`);
});

test('a pointer lspseam_alloc did not return, or a length past its buffer, is answered LSP_INVALID_ARGUMENT, never read', async (t) => {
  const core = await load();
  const { x, put, raw } = core;
  const okDefinition = goldenCases('toolDefinition').find((c) => c.input === '{}').envelope;
  const method = enc.encode('toolDefinition');
  const input = enc.encode('{}');

  // Good pointers, and a length shorter than its buffer (documented as fine): the control.
  const mp = put(method);
  const ip = put(input);
  const long = put(enc.encode('toolDefinition and more'));
  assert.equal(raw(mp, method.length, ip, input.length), okDefinition);
  assert.equal(raw(long, method.length, ip, input.length), okDefinition);

  // Memory that holds a valid method and input at addresses lspseam_alloc did not return:
  // one byte into a buffer, and a buffer already freed.
  const inner = put(enc.encode(' toolDefinition'));
  const innerIn = put(enc.encode(' {}'));
  const freed = put(method);
  const freedIn = put(input);
  x.lspseam_free(freed);
  x.lspseam_free(freedIn);
  const bytes = x.memory.buffer.byteLength;
  const bad = {
    'method one byte into a buffer': [inner + 1, method.length, ip, input.length],
    'input one byte into a buffer': [mp, method.length, innerIn + 1, input.length],
    'method freed': [freed, method.length, ip, input.length],
    'input freed': [mp, method.length, freedIn, input.length],
    'method length past its buffer': [mp, method.length + 1, ip, input.length],
    'input length past its buffer': [mp, method.length, ip, input.length + 1],
    'negative method length': [mp, -1, ip, input.length],
    'negative input length': [mp, method.length, ip, -1],
    'null method pointer': [0, method.length, ip, input.length],
    'method pointer past the end of memory': [bytes + 4096, method.length, ip, input.length],
    'input pointer past the end of memory': [mp, method.length, bytes + 4096, input.length],
    'negative pointer': [-8, method.length, ip, input.length],
  };
  for (const [name, args] of Object.entries(bad)) {
    await t.test(name, () => {
      const env = JSON.parse(raw(...args));
      assert.deepEqual(Object.keys(env), ['error']);
      assert.deepEqual(Object.keys(env.error), ['code', 'message']);
      assert.equal(env.error.code, 'LSP_INVALID_ARGUMENT', JSON.stringify(env));
      assert.match(env.error.message, /lspseam_alloc/);
    });
  }

  // The instance is unharmed: the good pointers still give the golden envelope.
  assert.equal(raw(mp, method.length, ip, input.length), okDefinition);
  for (const p of [mp, ip, long, inner, innerIn]) x.lspseam_free(p);
});
