// The package's browser entry bundled without core.wasm, in headless
// Chromium: init() must say what to do (copy lspseam/core.wasm next to the
// bundle or pass its URL) with LSP_CORE_UNAVAILABLE, not
// LSP_INVALID_ARGUMENT, and work once given the module's URL.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = fileURLToPath(new URL('.', import.meta.url));
const dist = join(realpathSync(join(here, 'node_modules', 'lspseam')), 'dist');
const executablePath = '/usr/bin/chromium';
const types = { '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm' };

let server;
let browser;
let origin;

// /bundle/: the package's dist/ without core.wasm (what a bundler that does
// not copy it leaves); /spa/: a dev server answering every path with its
// index.html; /assets/core.wasm: the module where the app serves it; /: the
// page.
function serve(req, res) {
  const url = new URL(req.url, 'http://localhost');
  const send = (file) => {
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  };
  if (url.pathname === '/assets/core.wasm') return send(join(dist, 'core.wasm'));
  if (url.pathname.startsWith('/spa/')) return send(join(here, 'browser', 'missing-core.html'));
  const [dir, rel] = url.pathname.startsWith('/bundle/')
    ? [dist, url.pathname.slice('/bundle/'.length)]
    : [join(here, 'browser'), url.pathname === '/' ? 'missing-core.html' : url.pathname.slice(1)];
  const file = normalize(join(dir, decodeURIComponent(rel)));
  if (file.startsWith(dir) && !file.endsWith('.wasm') && existsSync(file)) return send(file);
  res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
}

before(async () => {
  assert.ok(existsSync(executablePath), `Chromium is not installed at ${executablePath}: run \`apt-get install -y chromium\``);
  assert.ok(existsSync(join(dist, 'browser.js')), 'build the package first: `npm ci && npm run build` in bindings/js');
  server = createServer(serve);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
});

test('a bundle without core.wasm: init() says to copy lspseam/core.wasm next to it or pass its URL (LSP_CORE_UNAVAILABLE)', async () => {
  const page = await browser.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => window.__lspseam !== undefined, null, { timeout: 60_000 });
  const r = await page.evaluate(() => window.__lspseam);
  assert.equal(r.failed, undefined, r.failed);
  assert.deepEqual(pageErrors, []);

  assert.ok(r.missing, 'init() succeeded without core.wasm');
  assert.equal(r.missing.isLspError, true);
  assert.equal(r.missing.code, 'LSP_CORE_UNAVAILABLE');
  assert.ok(r.missing.message.includes(`from ${origin}/bundle/core.wasm`), r.missing.message);
  assert.match(r.missing.message, /HTTP 404/);
  assert.match(r.missing.message, /copy `lspseam\/core\.wasm` \(node_modules\/lspseam\/dist\/core\.wasm\) next to the bundle/);
  assert.match(r.missing.message, /pass its URL to init\(\)/);

  assert.ok(r.htmlInstead, 'init() accepted an HTML page as the module');
  assert.equal(r.htmlInstead.code, 'LSP_CORE_UNAVAILABLE');
  assert.ok(r.htmlInstead.message.includes(`from ${origin}/spa/core.wasm`), r.htmlInstead.message);
  assert.match(r.htmlInstead.message, /not a WebAssembly module .*content-type text\/html/);

  assert.equal(r.givenUrl, null, 'init(url) after a failed init() must load the module');
  assert.equal(r.toolName, 'lsp');
  await page.close();
});
