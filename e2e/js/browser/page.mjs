// Runs in Chromium: the lspseam package's browser entry, loaded through an
// import map from the local test server. Results go to window.__lspseam.
import * as lspseam from 'lspseam';


async function run() {
  const r = { exports: Object.keys(lspseam).sort() };
  try {
    lspseam.toolDefinition();
  } catch (e) {
    r.beforeInit = { name: e.name, code: e.code, message: e.message };
  }
  const t0 = performance.now();
  const p = lspseam.init();
  r.samePromise = p === lspseam.init();
  const core = await p;
  r.initMs = performance.now() - t0;
  r.abiVersion = core.abiVersion;

  r.toolDefinition = lspseam.toolDefinition();
  r.parseToolArgs = lspseam.parseToolArgs({ operation: 'goToDefinition', file_path: 'src/main.ts', line: 12, character: 40 });
  try {
    lspseam.parseToolArgs({ operation: 'goToDefinition', file_path: 'src/main.ts', line: 0, character: 40 });
  } catch (e) {
    r.badArgs = { isLspError: e instanceof lspseam.LspError, code: e.code, message: e.message };
  }
  r.translate = lspseam.translate({
    operation: 'findReferences',
    result: [
      { uri: 'file:///w/p/src/shape.ts', range: { start: { line: 12, character: 16 }, end: { line: 12, character: 24 } } },
      { targetUri: 'file:///w/p/src/main.ts', targetRange: { start: { line: 3, character: 0 }, end: { line: 3, character: 40 } }, targetSelectionRange: { start: { line: 3, character: 9 }, end: { line: 3, character: 17 } } },
      { uri: 'file:///usr/lib/node_modules/typescript/lib/lib.es5.d.ts', range: { start: { line: 671, character: 13 }, end: { line: 671, character: 15 } } },
    ],
  });
  r.render = lspseam.render({ result: r.translate, workspaceUri: 'file:///w/p' });
  r.hover = lspseam.render({
    result: lspseam.translate({ operation: 'hover', result: { contents: { kind: 'markdown', value: '```ts\nfunction describe(shape: Shape): string\n```' } } }),
    workspaceUri: 'file:///w/p',
  });
  r.present = lspseam.present({ operation: 'hover', file_path: 'src/main.ts', line: 12, character: 40 });

  // Every golden case of testdata/core, byte for byte, in this browser, for
  // every method the module says it has (LSP_UNKNOWN_METHOD lists them);
  // the test compares the per-method counts with the golden files.
  const unknown = JSON.parse(lspseam.call('no such method', '{}'));
  const listed = /this module has: (.+)$/.exec(unknown.error?.message ?? '');
  if (!listed) throw new Error(`LSP_UNKNOWN_METHOD does not list the module's methods: ${JSON.stringify(unknown)}`);
  const methods = listed[1].split(', ');
  const perMethod = {};
  const mismatches = [];
  for (const method of methods) {
    perMethod[method] = 0;
    const res = await fetch(`/golden/${method}.golden`);
    if (!res.ok) continue; // no golden file: the count stays 0
    const text = await res.text();
    let name = '';
    let input;
    for (const line of text.replace(/\n$/, '').split('\n')) {
      if (line.startsWith('=== ')) name = line.slice(4);
      else if (line.startsWith('>q ')) input = JSON.parse(line.slice(3));
      else if (line.startsWith('> ')) input = line.slice(2);
      else if (line.startsWith('< ')) {
        perMethod[method]++;
        if (lspseam.call(method, input) !== line.slice(2)) mismatches.push(`${method}/${name}`);
      }
    }
  }
  r.golden = { methods, perMethod, mismatches };
  return r;
}

run().then(
  (r) => {
    window.__lspseam = r;
    document.getElementById('out').textContent = JSON.stringify(r, null, 2);
  },
  (e) => {
    window.__lspseam = { failed: String(e && e.stack ? e.stack : e) };
  },
);
