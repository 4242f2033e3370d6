// Runs in Chromium: the package's browser entry served as a bundle whose
// bundler did not copy core.wasm next to it. Results go to window.__lspseam.
import * as lspseam from 'lspseam';

async function failure(promise) {
  try {
    await promise;
    return null;
  } catch (e) {
    return { name: e.name, code: e.code, message: e.message, isLspError: e instanceof lspseam.LspError };
  }
}

async function run() {
  const r = {};
  r.missing = await failure(lspseam.init()); // /bundle/core.wasm: 404
  r.htmlInstead = await failure(lspseam.init('/spa/core.wasm')); // a dev server's index.html for any path
  r.givenUrl = await failure(lspseam.init('/assets/core.wasm')); // the fix: its URL
  r.toolName = lspseam.toolDefinition().name;
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
