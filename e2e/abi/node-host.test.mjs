// An outside host for the core module: Node's own WebAssembly and WASI
// implementations, no lspseam code. It proves the ABI documented in
// README.md is enough to drive bindings/go/core.wasm from any WASI
// preview1 host. Run by `make test` as `node --test e2e/abi/`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { WASI } from 'node:wasi';
import { fileURLToPath } from 'node:url';

const wasmPath = fileURLToPath(new URL('../../bindings/go/core.wasm', import.meta.url));

async function load() {
  const wasi = new WASI({ version: 'preview1', args: [], env: {} });
  const module = await WebAssembly.compile(readFileSync(wasmPath));
  const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
  wasi.initialize(instance); // calls _initialize
  const x = instance.exports;
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  const put = (bytes) => {
    const ptr = x.lspseam_alloc(bytes.length);
    new Uint8Array(x.memory.buffer, ptr, bytes.length).set(bytes); // re-read buffer: memory may have grown
    return ptr;
  };
  return {
    abiVersion: () => x.lspseam_abi_version(),
    call(method, input) {
      const m = enc.encode(method);
      const i = enc.encode(typeof input === 'string' ? input : JSON.stringify(input));
      const mp = put(m);
      const ip = put(i);
      const packed = x.lspseam_call(mp, m.length, ip, i.length);
      const ptr = Number(BigInt.asUintN(64, packed) >> 32n);
      const len = Number(BigInt.asUintN(32, packed));
      const text = dec.decode(new Uint8Array(x.memory.buffer, ptr, len));
      x.lspseam_free(ptr);
      x.lspseam_free(mp);
      x.lspseam_free(ip);
      return text;
    },
  };
}

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

test('the golden cases give the golden envelopes in this host too', async () => {
  const core = await load();
  const dir = new URL('../../testdata/core/', import.meta.url);
  const methods = ['toolDefinition', 'parseToolArgs', 'translate', 'render', 'validateConfig', 'serverRequest'];
  let n = 0;
  for (const method of methods) {
    const lines = readFileSync(new URL(`${method}.golden`, dir), 'utf8').split('\n');
    let name = '';
    let input = null;
    for (const line of lines) {
      if (line.startsWith('=== ')) name = line.slice(4);
      else if (line.startsWith('>q ')) input = JSON.parse(line.slice(3));
      else if (line.startsWith('> ')) input = line.slice(2);
      else if (line.startsWith('< ')) {
        assert.equal(core.call(method, input), line.slice(2), `${method}/${name}`);
        n++;
      }
    }
  }
  assert.ok(n > 80, `only ${n} golden cases ran`);
});
