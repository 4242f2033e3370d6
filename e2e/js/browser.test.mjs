// The lspseam package in a real browser: headless Debian Chromium (driven by
// playwright-core) loads the package's browser entry from a page on
// localhost and runs toolDefinition, parseToolArgs, translate and render,
// plus every golden case of testdata/core, counted per method.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync, readFileSync, readdirSync, realpathSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = fileURLToPath(new URL('.', import.meta.url));
const pkgDir = realpathSync(join(here, 'node_modules', 'lspseam'));
const goldenDir = fileURLToPath(new URL('../../testdata/core/', import.meta.url));
const executablePath = '/usr/bin/chromium';
const types = { '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm', '.golden': 'text/plain; charset=utf-8' };

let server;
let browser;
let origin;

// Serves the page, the package's dist/ under /pkg/dist/ and the golden files; nothing else.
function serve(req, res) {
  const url = new URL(req.url, 'http://localhost');
  const routes = [
    ['/pkg/dist/', join(pkgDir, 'dist')],
    ['/golden/', goldenDir],
    ['/', join(here, 'browser')],
  ];
  for (const [prefix, dir] of routes) {
    if (!url.pathname.startsWith(prefix)) continue;
    const rel = url.pathname === '/' ? 'index.html' : url.pathname.slice(prefix.length);
    const file = normalize(join(dir, decodeURIComponent(rel)));
    if (!file.startsWith(dir) || !existsSync(file)) break;
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
    return res.end(readFileSync(file));
  }
  res.writeHead(404).end();
}

before(async () => {
  assert.ok(existsSync(executablePath), `Chromium is not installed at ${executablePath}: run \`apt-get install -y chromium\``);
  assert.ok(existsSync(join(pkgDir, 'dist', 'browser.js')), 'build the package first: `npm ci && npm run build` in bindings/js');
  server = createServer(serve);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
});

// Cases per method in testdata/core: "< " lines of METHOD.golden, which must
// name the cases of METHOD.cases.json; methods sorted.
function goldenCounts() {
  const counts = {};
  const methods = new Set(readdirSync(goldenDir).filter((f) => f.endsWith('.golden') || f.endsWith('.cases.json')).map((f) => f.replace(/\.(golden|cases\.json)$/, '')));
  for (const method of [...methods].sort()) {
    const golden = existsSync(join(goldenDir, `${method}.golden`)) ? readFileSync(join(goldenDir, `${method}.golden`), 'utf8') : '';
    const names = golden.split('\n').filter((l) => l.startsWith('=== ')).map((l) => l.slice(4));
    const cases = existsSync(join(goldenDir, `${method}.cases.json`)) ? JSON.parse(readFileSync(join(goldenDir, `${method}.cases.json`), 'utf8')) : [];
    assert.deepEqual(names, cases.map((c) => c.name), `${method}.golden vs ${method}.cases.json`);
    counts[method] = golden.split('\n').filter((l) => l.startsWith('< ')).length;
  }
  return counts;
}

after(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
});

test('the browser entry runs the core in Chromium', async () => {
  const page = await browser.newPage();
  const problems = [];
  page.on('console', (m) => (m.type() === 'error' || m.type() === 'warning') && problems.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => window.__lspseam !== undefined, null, { timeout: 60_000 });
  const r = await page.evaluate(() => window.__lspseam);
  assert.equal(r.failed, undefined, r.failed);
  assert.deepEqual(problems, []);

  assert.ok(!r.exports.includes('ShimClient'), 'the browser entry has no ShimClient');
  for (const name of ['init', 'call', 'toolDefinition', 'parseToolArgs', 'translate', 'render', 'createLspTool', 'LspError', 'Core']) assert.ok(r.exports.includes(name), name);
  assert.equal(r.beforeInit.name, 'LspError');
  assert.equal(r.beforeInit.code, 'LSP_NOT_INITIALIZED');
  assert.match(r.beforeInit.message, /call init\(\) before toolDefinition\(\)/);
  assert.equal(r.samePromise, true);
  assert.equal(r.abiVersion, 1);

  assert.equal(r.toolDefinition.name, 'lsp');
  assert.deepEqual(r.toolDefinition.inputSchema.required, ['operation', 'file_path', 'line', 'character']);
  assert.deepEqual(r.toolDefinition.inputSchema.properties.operation.enum, ['goToDefinition', 'findReferences', 'goToImplementation', 'hover']);
  assert.deepEqual(r.parseToolArgs, { operation: 'goToDefinition', filePath: 'src/main.ts', position: { line: 11, character: 39 } });
  assert.equal(r.badArgs.isLspError, true);
  assert.equal(r.badArgs.code, 'LSP_INVALID_ARGUMENT');
  assert.match(r.badArgs.message, /one-based/);
  assert.deepEqual(r.translate, {
    kind: 'locations',
    locations: [
      { uri: 'file:///w/p/src/shape.ts', range: { start: { line: 12, character: 16 }, end: { line: 12, character: 24 } } },
      { uri: 'file:///w/p/src/main.ts', range: { start: { line: 3, character: 9 }, end: { line: 3, character: 17 } } },
      { uri: 'file:///usr/lib/node_modules/typescript/lib/lib.es5.d.ts', range: { start: { line: 671, character: 13 }, end: { line: 671, character: 15 } } },
    ],
  });
  assert.deepEqual(r.render, {
    text: 'src/shape.ts:13:17\nsrc/main.ts:4:10\n/usr/lib/node_modules/typescript/lib/lib.es5.d.ts:672:14',
    shown: 3,
    omitted: 0,
    truncated: false,
  });
  assert.equal(r.hover.text, '```ts\nfunction describe(shape: Shape): string\n```');
  assert.deepEqual(r.present, { card: 'generic', kind: 'search', title: 'LSP hover src/main.ts:12:40', locations: [{ path: 'src/main.ts', line: 12 }] });

  // Per method, not a total: every method the module has and every golden
  // file's method ran exactly the golden file's cases (a lost method, file
  // or case fails), and each has at least one.
  const want = goldenCounts();
  assert.deepEqual([...r.golden.methods].sort(), Object.keys(want), "the module's methods (LSP_UNKNOWN_METHOD's list) vs testdata/core/*.golden");
  assert.deepEqual(r.golden.perMethod, want, 'golden cases run in the browser per method vs cases in testdata/core/METHOD.golden');
  for (const [method, n] of Object.entries(r.golden.perMethod)) assert.ok(n > 0, `${method}: no golden cases ran`);
  assert.deepEqual(r.golden.mismatches, []);
  const total = Object.values(r.golden.perMethod).reduce((a, b) => a + b, 0);
  console.log(`# browser: init ${r.initMs.toFixed(0)} ms, ${Object.keys(r.golden.perMethod).length} methods, ${total} golden cases byte-identical`);
  await page.close();
});
