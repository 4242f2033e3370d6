// Benchmarks of the npm package (issue #4, "Performance"): per-call cost of
// translate+render for 10, 1,000 and 10,000 locations in Node next to the
// Go host (bindings/go, BenchmarkTranslateRender) measured in the same run;
// init() cold and from a compiled module; the packed package size.
//
//   npm run build && node bench/bench.mjs        (from bindings/js)
//   LSPSEAM_BENCH_BASELINE=/tmp/old.wasm node bench/bench.mjs   (before/after)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Core } from '../dist/node.js';

const pkgDir = fileURLToPath(new URL('../', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const bytes = readFileSync(new URL('../dist/core.wasm', import.meta.url));

// The same payload as internal/casefile.ReferencesPayload(n).
function referencesPayload(n) {
  const parts = [];
  for (let i = 0; i < n; i++) {
    parts.push(
      `{"uri":"file:///work/project/pkg${i % 7}/file${Math.floor(i / 10)}.go","range":{"start":{"line":${i},"character":${i % 80}},"end":{"line":${i},"character":${(i % 80) + 5}}}}`,
    );
  }
  return `{"operation":"findReferences","result":[${parts.join(',')}]}`;
}

// The same two calls as bindings/go's translateRender, on raw JSON text.
function translateRender(core, payload) {
  const translated = core.call('translate', payload);
  const ok = translated.slice('{"ok":'.length, -1);
  return core.call('render', `{"workspaceUri":"file:///work/project","maxLocations":100000,"maxResultChars":10000000,"result":${ok}}`);
}

function nsPerOp(fn, minMs = 1000) {
  for (let i = 0; i < 3; i++) fn(); // warm up
  let n = 0;
  const t0 = performance.now();
  let elapsed = 0;
  while (elapsed < minMs) {
    fn();
    n++;
    elapsed = performance.now() - t0;
  }
  return (elapsed * 1e6) / n;
}

async function medianMs(fn, runs = 7) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)];
}

const fmt = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(1)} µs`);

const module = await WebAssembly.compile(bytes);
const core = await Core.instantiate(module);

// Go host, same machine, same run.
let goResults = {};
try {
  const out = execFileSync('go', ['test', '-run', '^$', '-bench', '^BenchmarkTranslateRender$/(native|module)/', '-benchtime', '1s', './bindings/go/'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  for (const m of out.matchAll(/BenchmarkTranslateRender\/(native|module)\/n=(\d+)\S*\s+\d+\s+([\d.]+) ns\/op/g)) goResults[`${m[1]}/${m[2]}`] = Number(m[3]);
} catch (err) {
  console.error(`(the Go benchmark did not run: ${err.message.split('\n')[0]})`);
  goResults = {};
}

// LSPSEAM_BENCH_BASELINE names an older core.wasm (as for the Go
// benchmark): it is run in Node beside this package's module, in the same
// process, for before/after figures.
const baselinePath = process.env.LSPSEAM_BENCH_BASELINE;
const baseline = baselinePath ? await Core.instantiate(await WebAssembly.compile(readFileSync(baselinePath))) : null;

console.log(`| translate+render | Node (this package) |${baseline ? ' Node, baseline module |' : ''} Go host (wazero) | Go native | Node / Go host |`);
console.log(`|---|---|${baseline ? '---|' : ''}---|---|---|`);
for (const n of [10, 1000, 10000]) {
  const payload = referencesPayload(n);
  const node = nsPerOp(() => translateRender(core, payload));
  const old = baseline ? nsPerOp(() => translateRender(baseline, payload)) : 0;
  const goModule = goResults[`module/${n}`];
  const goNative = goResults[`native/${n}`];
  console.log(
    `| ${n.toLocaleString('en')} locations | ${fmt(node)} |${baseline ? ` ${fmt(old)} |` : ''} ${goModule ? fmt(goModule) : '–'} | ${goNative ? fmt(goNative) : '–'} | ${goModule ? (node / goModule).toFixed(2) : '–'} |`,
  );
}

const cold = await medianMs(async () => Core.instantiate(await WebAssembly.compile(bytes)));
const warm = await medianMs(() => Core.instantiate(module));
const fresh = execFileSync(process.execPath, ['--input-type=module', '-e', `
  const t0 = performance.now();
  const l = await import('./dist/node.js');
  await l.init();
  l.toolDefinition();
  process.stdout.write(String(performance.now() - t0));
`], { cwd: pkgDir, encoding: 'utf8' });
console.log();
console.log(`| init | time |`);
console.log('|---|---|');
console.log(`| init() in a fresh process (import + read + compile + instantiate + first call) | ${Number(fresh).toFixed(0)} ms |`);
console.log(`| compile + instantiate from bytes (median of 7) | ${cold.toFixed(0)} ms |`);
console.log(`| instantiate from a compiled WebAssembly.Module (median of 7) | ${warm.toFixed(1)} ms |`);

const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: pkgDir, encoding: 'utf8' }));
console.log();
console.log(`packed package: ${(pack.size / 1024 / 1024).toFixed(2)} MiB (${pack.entryCount} files, ${(pack.unpackedSize / 1024 / 1024).toFixed(2)} MiB unpacked)`);
