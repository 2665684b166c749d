// memeboard-embed in headless Chromium: the CPU path and the WebGPU path (SwiftShader) give
// the server's onnxruntime cosines (embed/tests/data/cosines.json) to 1e-3, the backend
// detection says why the CPU is used without WebGPU, the weights are cached (Cache API) and
// verified (SHA-256) before use. Prints throughput and first-use figures for the benchmarks.
//
// Needs `bash scripts/build-embed-harness.sh` (target/embed-harness/) and the models of
// scripts/model/setup-model.sh in $MEMEBOARD_TEST_MODELS (skipped without them, unless
// MEMEBOARD_REQUIRE_MODELS=1). MEMEBOARD_EMBED_GPU_BUDGET_MS (default 60000) bounds the
// m3e-small WebGPU run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { ROOT } from './harness.mjs';

const CHROMIUM = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';
const BASE_FLAGS = ['--no-sandbox', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
// SwiftShader's Vulkan gives a WebGPU adapter (see /work/shared/toolchain/README.md).
const WEBGPU_FLAGS = [...BASE_FLAGS, '--enable-unsafe-webgpu', '--enable-features=Vulkan',
  '--use-vulkan=swiftshader', '--use-angle=swiftshader'];
const NO_GPU_FLAGS = [...BASE_FLAGS, '--disable-gpu'];

const HARNESS = path.join(ROOT, 'tests/e2e/embed-harness');
const PKG = path.join(ROOT, 'target/embed-harness');
const MODELS = process.env.MEMEBOARD_TEST_MODELS;
const REQUIRED = process.env.MEMEBOARD_REQUIRE_MODELS === '1';
const GPU_BUDGET_MS = Number(process.env.MEMEBOARD_EMBED_GPU_BUDGET_MS ?? 60000);
const TOLERANCE = 1e-3;
const MODEL_FILES = ['browser.json', 'tokenizer.json', 'model.f16.safetensors'];

const data = (name) => JSON.parse(fs.readFileSync(path.join(ROOT, 'embed/tests/data', name), 'utf8'));
const PAIRS = data('pairs.json');
const REFERENCE = data('cosines.json');

function missing() {
  if (!fs.existsSync(path.join(PKG, 'memeboard_embed_bg.wasm'))) {
    return `${PKG} missing: run scripts/build-embed-harness.sh`;
  }
  if (!MODELS) return 'MEMEBOARD_TEST_MODELS is not set (run scripts/model/setup-model.sh)';
  for (const model of ['tiny-bert', 'm3e-small']) {
    for (const file of MODEL_FILES) {
      const p = path.join(MODELS, model, file);
      if (!fs.existsSync(p)) return `${p} missing (run scripts/model/setup-model.sh)`;
    }
  }
  return null;
}
const SKIP = missing();
if (SKIP && REQUIRED) throw new Error(`MEMEBOARD_REQUIRE_MODELS=1 but ${SKIP}`);
const opts = SKIP ? { skip: SKIP } : {};

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.json': 'application/json' };

/** Static server: the harness page, the wasm package, the models, and a corrupt copy of
 * each model under /corrupt/ (one byte of the weights flipped). Counts requests by path. */
function startStatic() {
  const requests = new Map();
  const corrupt = new Map();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    requests.set(url.pathname, (requests.get(url.pathname) ?? 0) + 1);
    let file = null;
    let body = null;
    const parts = url.pathname.split('/').filter(Boolean);
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    if (url.pathname === '/' || url.pathname === '/index.html') {
      file = path.join(HARNESS, 'index.html');
    } else if (parts[0] === 'pkg' && parts.length === 2) {
      file = path.join(PKG, parts[1]);
    } else if ((parts[0] === 'models' || parts[0] === 'corrupt') && parts.length === 3
      && ['tiny-bert', 'm3e-small'].includes(parts[1]) && MODEL_FILES.includes(parts[2])) {
      file = path.join(MODELS, parts[1], parts[2]);
      if (parts[0] === 'corrupt' && parts[2] === 'model.f16.safetensors') {
        if (!corrupt.has(parts[1])) {
          const bytes = fs.readFileSync(file);
          bytes[bytes.length >> 1] ^= 0xff;
          corrupt.set(parts[1], bytes);
        }
        body = corrupt.get(parts[1]);
      }
    }
    if (!file || !fs.existsSync(file)) {
      res.writeHead(404).end('not found');
      return;
    }
    const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
    const size = body ? body.length : fs.statSync(file).size;
    res.writeHead(200, { 'Content-Type': type, 'Content-Length': size, 'Cache-Control': 'no-store' });
    if (body) res.end(body);
    else fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        base: `http://127.0.0.1:${server.address().port}`,
        requests,
        count: (p) => requests.get(p) ?? 0,
        stop: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }),
      });
    });
  });
}

let server;
let gpuBrowser;
let cpuBrowser;

before(async () => {
  if (SKIP) return;
  server = await startStatic();
  gpuBrowser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: WEBGPU_FLAGS });
  cpuBrowser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: NO_GPU_FLAGS });
});
after(async () => {
  await gpuBrowser?.close();
  await cpuBrowser?.close();
  await server?.stop();
});

/** A new page (own context: empty Cache API) with the harness loaded; page errors collected. */
async function openHarness(browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`${server.base}/`);
  await page.waitForFunction(() => window.embedReady || window.embedError);
  const failed = await page.evaluate(() => window.embedError ?? null);
  assert.equal(failed, null, 'the wasm module loads');
  page.setDefaultTimeout(0);
  return { page, errors, close: () => context.close() };
}

const load = (page, name, url, backend) =>
  page.evaluate(([n, u, b]) => window.loadModel(n, u, b), [name, url, backend]);
const runPairs = (page, name, pairs, budgetMs) =>
  page.evaluate(([n, p, b]) => window.runPairs(n, p, b ?? Infinity), [name, pairs, budgetMs ?? null]);

/** Max |cos − onnxruntime| over the first cosines.length pairs, and where. */
function compare(model, cosines) {
  const reference = REFERENCE[model];
  assert.equal(reference.length, PAIRS.length);
  let worst = 0;
  let at = -1;
  cosines.forEach((c, i) => {
    const d = Math.abs(c - reference[i]);
    if (!(d <= worst)) { worst = d; at = i; }
  });
  return { worst, at };
}

function report(label, load, run, cmp) {
  const rate = run.sentences / (run.forwardMs / 1000);
  const s = load.stats;
  console.log(`[embed] ${label}: ${run.cosines.length} pairs, max |cos - onnxruntime| = `
    + `${cmp.worst.toExponential(2)} (pair ${cmp.at}); ${run.sentences} sentences in `
    + `${(run.forwardMs / 1000).toFixed(1)} s = ${rate.toFixed(1)} sentences/s; first use `
    + `${Math.round(load.wallMs)} ms (weights ${(s.bytes / 1e6).toFixed(1)} MB; download+verify ${Math.round(s.totalMs)} ms `
    + `[verify ${Math.round(s.verifyMs)} ms, from cache: ${s.fromCache}], `
    + `set-up ${Math.round(s.initMs)} ms)`);
}

function assertClose(label, model, run) {
  const cmp = compare(model, run.cosines);
  assert.ok(cmp.worst < TOLERANCE,
    `${label}: pair ${cmp.at} ${JSON.stringify(PAIRS[cmp.at])} differs from onnxruntime by ${cmp.worst}`);
  return cmp;
}

test('detectBackend: WebGPU with the WebGPU flags, the CPU and a reason without a GPU', opts, async () => {
  const gpu = await openHarness(gpuBrowser);
  const found = await gpu.page.evaluate(() => window.embed.detectBackend());
  console.log(`[embed] WebGPU flags: ${JSON.stringify(found)}`);
  assert.equal(found.backend, 'webgpu');
  assert.ok(found.adapterInfo.length > 0);
  await gpu.close();

  const cpu = await openHarness(cpuBrowser);
  const none = await cpu.page.evaluate(() => window.embed.detectBackend());
  console.log(`[embed] --disable-gpu: ${JSON.stringify(none)}`);
  assert.equal(none.backend, 'cpu');
  assert.match(none.reason, /WebGPU: .*(adapter|navigator\.gpu)/);
  // "auto" falls back to the CPU and says why; "webgpu" refuses.
  const url = `${server.base}/models/tiny-bert/browser.json`;
  const auto = await load(cpu.page, 'auto', url, 'auto');
  assert.equal(auto.backend, 'cpu');
  assert.equal(auto.info.reason, none.reason);
  const strict = await cpu.page.evaluate(
    (u) => window.embed.MemeboardEmbedder.load(u, 'webgpu', null).then(() => 'loaded', (e) => String(e)), url);
  assert.match(strict, /WebGPU: /);
  assert.deepEqual(cpu.errors, []);
  await cpu.close();
});

test('tiny-bert: CPU and WebGPU cosines equal onnxruntime for every pair; the cache serves a second load', opts, async () => {
  const { page, errors, close } = await openHarness(gpuBrowser);
  const url = `${server.base}/models/tiny-bert/browser.json`;
  const weights = '/models/tiny-bert/model.f16.safetensors';
  const downloads = server.count(weights);

  const cpuLoad = await load(page, 'cpu', url, 'cpu');
  assert.equal(cpuLoad.backend, 'cpu');
  assert.equal(cpuLoad.stats.fromCache, false);
  assert.deepEqual(cpuLoad.progress, [81752, 81752]);
  assert.equal(server.count(weights), downloads + 1);
  const cpu = await runPairs(page, 'cpu', PAIRS);
  assert.equal(cpu.cosines.length, PAIRS.length);
  report('tiny-bert CPU', cpuLoad, cpu, assertClose('tiny-bert CPU', 'tiny-bert', cpu));

  // The batch API gives the same numbers.
  const batch = await page.evaluate((p) => window.models.cpu.cosines(JSON.stringify(p)).then(Array.from), PAIRS);
  batch.forEach((c, i) => assert.ok(Math.abs(c - cpu.cosines[i]) < 1e-12, `cosines()[${i}]`));

  const gpuLoad = await load(page, 'gpu', url, 'webgpu');
  assert.equal(gpuLoad.backend, 'webgpu', JSON.stringify(gpuLoad.info));
  assert.equal(gpuLoad.stats.fromCache, true, 'the second load reads the Cache API');
  assert.equal(server.count(weights), downloads + 1, 'no second download of the weights');
  const gpu = await runPairs(page, 'gpu', PAIRS);
  assert.equal(gpu.cosines.length, PAIRS.length);
  report('tiny-bert WebGPU', gpuLoad, gpu, assertClose('tiny-bert WebGPU', 'tiny-bert', gpu));
  const cross = Math.max(...gpu.cosines.map((c, i) => Math.abs(c - cpu.cosines[i])));
  console.log(`[embed] tiny-bert: max |cos_gpu - cos_cpu| = ${cross.toExponential(2)}`);

  // The batch API on WebGPU: the distinct sentences go 32 to a pass (one pass per batch),
  // with the same cosines as one sentence per pass.
  const gpuBatch = await page.evaluate(async (p) => {
    const t = performance.now();
    const c = Array.from(await window.models.gpu.cosines(JSON.stringify(p)));
    return { cosines: c, ms: performance.now() - t };
  }, PAIRS);
  const batchDiff = Math.max(...gpuBatch.cosines.map((c, i) => Math.abs(c - gpu.cosines[i])));
  assert.ok(batchDiff < 1e-6, `batched WebGPU cosines differ from single passes by ${batchDiff}`);
  console.log(`[embed] tiny-bert WebGPU batched (cosines(), 32 sentences per pass): ${gpu.sentences} `
    + `sentences in ${(gpuBatch.ms / 1000).toFixed(1)} s = ${(gpu.sentences / (gpuBatch.ms / 1000)).toFixed(1)} `
    + `sentences/s; max |cos_batched - cos_single| = ${batchDiff.toExponential(2)}`);

  // BERTScore on both backends.
  const [a, b] = PAIRS[0];
  const f1 = await page.evaluate(async ([x, y]) => [
    await window.models.cpu.bertF1(x, y), await window.models.gpu.bertF1(x, y),
    await window.models.gpu.bertF1(x, x)], [a, b]);
  assert.ok(f1[0] > 0 && f1[0] <= 1 && Math.abs(f1[0] - f1[1]) < TOLERANCE, `bertF1 ${f1}`);
  assert.ok(Math.abs(f1[2] - 1) < 1e-6);
  assert.deepEqual(errors, []);
  await close();
});

test('m3e-small: CPU cosines for every pair, WebGPU for as many as fit the budget, equal onnxruntime', opts, async () => {
  const { page, errors, close } = await openHarness(gpuBrowser);
  const url = `${server.base}/models/m3e-small/browser.json`;
  const weights = '/models/m3e-small/model.f16.safetensors';
  const downloads = server.count(weights);

  const gpuLoad = await load(page, 'gpu', url, 'webgpu');
  assert.equal(gpuLoad.backend, 'webgpu', JSON.stringify(gpuLoad.info));
  assert.equal(gpuLoad.stats.fromCache, false);
  assert.equal(gpuLoad.stats.bytes, gpuLoad.progress[1]);
  assert.equal(gpuLoad.progress[0], gpuLoad.progress[1]);
  const gpu = await runPairs(page, 'gpu', PAIRS, GPU_BUDGET_MS);
  assert.ok(gpu.cosines.length >= 20, `only ${gpu.cosines.length} pairs in ${GPU_BUDGET_MS} ms`);
  report(`m3e-small WebGPU (budget ${GPU_BUDGET_MS / 1000} s)`, gpuLoad, gpu,
    assertClose('m3e-small WebGPU', 'm3e-small', gpu));
  const reference = await page.evaluate(() => window.models.gpu.cosine(
    '这个梗用来形容事情彻底搞砸了，无法挽回。', '这句流行语表示事情已经完全失败、没救了。'));
  assert.ok(Math.abs(reference - 0.803098) < 1e-3, `reference pair ${reference}`);
  // Free the GPU model before the CPU run.
  await page.evaluate(() => { window.models.gpu.free(); delete window.models.gpu; });

  const cpuLoad = await load(page, 'cpu', url, 'cpu');
  assert.equal(cpuLoad.stats.fromCache, true, 'the second load reads the Cache API');
  assert.equal(server.count(weights), downloads + 1, 'no second download of the weights');
  const cpu = await runPairs(page, 'cpu', PAIRS);
  assert.equal(cpu.cosines.length, PAIRS.length);
  report('m3e-small CPU', cpuLoad, cpu, assertClose('m3e-small CPU', 'm3e-small', cpu));
  const cross = Math.max(...gpu.cosines.map((c, i) => Math.abs(c - cpu.cosines[i])));
  console.log(`[embed] m3e-small: max |cos_gpu - cos_cpu| = ${cross.toExponential(2)} over ${gpu.cosines.length} pairs`);
  assert.deepEqual(errors, []);
  await close();
});

test('corrupt weights fail the integrity check and are never cached; a corrupt cache entry is replaced', opts, async () => {
  const { page, close } = await openHarness(cpuBrowser);
  const message = await page.evaluate((u) => window.embed.MemeboardEmbedder.load(u, 'cpu', null)
    .then(() => 'loaded', (e) => e.message), `${server.base}/corrupt/tiny-bert/browser.json`);
  console.log(`[embed] corrupt download: ${message}`);
  assert.match(message, /^model weights failed the integrity check \(expected [0-9a-f]{64}, got [0-9a-f]{64}\)$/);
  const cached = await page.evaluate(async () =>
    (await (await caches.open('memeboard-models')).keys()).map((r) => r.url));
  assert.deepEqual(cached.filter((u) => u.includes('/corrupt/')), []);

  // Garbage stored under the real key: detected, deleted, downloaded again.
  const manifest = JSON.parse(fs.readFileSync(path.join(MODELS, 'tiny-bert/browser.json'), 'utf8'));
  const key = `${server.base}/models/tiny-bert/${manifest.weights}?sha256=${manifest.sha256}`;
  await page.evaluate(async (k) => {
    const cache = await caches.open('memeboard-models');
    await cache.put(k, new Response(new Uint8Array([1, 2, 3])));
  }, key);
  const before = server.count('/models/tiny-bert/model.f16.safetensors');
  const loaded = await load(page, 'tiny', `${server.base}/models/tiny-bert/browser.json`, 'cpu');
  assert.equal(loaded.stats.fromCache, false);
  assert.match(loaded.stats.cacheNote, /failed the integrity check/);
  assert.equal(server.count('/models/tiny-bert/model.f16.safetensors'), before + 1);
  const again = await load(page, 'tiny2', `${server.base}/models/tiny-bert/browser.json`, 'cpu');
  assert.equal(again.stats.fromCache, true);
  await close();
});
