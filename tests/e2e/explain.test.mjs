// The explanation quiz in a real browser: write what a meme means, the answer is stored and
// scored on the server; for open dev items the reference is shown. The browser model
// (memeboard-embed) is opt-in: nothing under /model-files/ but its 1 KB manifest (for the
// size) is fetched until the participant asks; then a progress bar, the backend in words, an
// instant estimate before the server's score (which agrees), and the choice is remembered.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import {
  startServer, launchBrowser, watchErrors, ROOT, consentAndSurvey, tinyBertSettings,
} from './harness.mjs';

const MODELS = process.env.MEMEBOARD_TEST_MODELS;
const skip = !MODELS || !fs.existsSync(path.join(MODELS, 'tiny-bert/browser.json'))
  || !fs.existsSync(path.join(ROOT, 'dist/embed/memeboard_embed.js'));
if (skip && process.env.MEMEBOARD_REQUIRE_MODELS === '1') {
  throw new Error('MEMEBOARD_REQUIRE_MODELS=1 but the tiny model or dist/embed is missing');
}
// The demo's memes (one explanation item each).
const MEMES = JSON.parse(fs.readFileSync(path.join(ROOT, 'server/demo/demo_memes.json'), 'utf8')).length;
const WEIGHTS = '/model-files/model.f16.safetensors';
const MANIFEST = '/model-files/browser.json';

let server;
let browser;

before(async () => {
  if (skip) return;
  server = await startServer({
    // Every meme in one batch, so open dev items are certain to come up.
    MEMEBOARD__QUIZ__EXPLAIN_BATCH_SIZE: String(MEMES),
    ...tinyBertSettings(MODELS),
  });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Paths of every request the page makes, in order. */
function watchRequests(page) {
  const paths = [];
  page.on('request', (r) => paths.push(new URL(r.url()).pathname));
  return paths;
}

/** Requests for the model beyond its manifest, and for the embedder module. */
function modelDownloads(paths) {
  return paths.filter((p) => (p.startsWith('/model-files/') && p !== MANIFEST) || p.startsWith('/embed/'));
}

async function startQuiz(page) {
  await page.goto(`${server.base}/quiz/demo-explain`);
  await consentAndSurvey(page);
  await page.waitForURL(/\/session\//);
}

/** Answers item `n`; resolves to whether it was an open dev item (reference shown). */
async function answer(page, n, onSubmitted = () => {}) {
  await page.waitForSelector(`[data-testid="question"][data-position="${n}"]`);
  const meme = (await page.getByTestId('meme').textContent()).trim();
  await page.getByTestId('explanation-input').fill(`${meme}这个梗用来形容事情彻底搞砸了，无法挽回。`);
  await page.getByTestId('submit-answer').click();
  const extra = onSubmitted();
  await page.getByTestId('explanation-feedback').waitFor();
  const dev = (await page.getByTestId('reference-meaning').count()) > 0;
  if (!dev) {
    // Hidden test item: no score per answer (it comes with the results).
    assert.equal(await page.getByTestId('scores-with-results').count(), 1);
    assert.equal(await page.getByTestId('server-score').count(), 0);
    assert.equal(await page.getByTestId('reference-withheld').count(), 1);
  }
  return { dev, extra };
}

/** Waits for the model to be ready; checks the backend text and the full progress bar. */
async function expectReady(page) {
  const status = page.getByTestId('browser-model-status');
  await page.waitForFunction(
    () => /WebGPU|processor|处理器/.test(document.querySelector('[data-testid="browser-model-status"]')?.textContent ?? ''),
    null, { timeout: 60_000 });
  const text = await status.textContent();
  // Where it runs, in a participant's words (no browser error text).
  assert.match(text, /runs on your (processor|graphics card)|在你的(处理器|显卡)上运行/);
  assert.doesNotMatch(text, /object Object/);
  assert.equal(await status.getAttribute('aria-live'), 'polite');
  const [value, max] = await page.getByTestId('browser-model-progress')
    .evaluate((p) => [p.value, p.max]);
  assert.ok(max > 0 && value === max, `progress ${value} / ${max}`);
}

test('explanations are scored on the server; the browser model loads only on request, then scores instantly and agrees', { skip }, async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  const paths = watchRequests(page);
  await page.goto(`${server.base}/quiz/demo-explain`);
  // The consent page describes the explanation task, not the multiple-choice one.
  const instructions = await page.getByTestId('task-instructions').textContent();
  assert.match(instructions, /own words|自己的话/);
  assert.doesNotMatch(instructions, /five options|五个选项/);
  await startQuiz(page);

  // Without opting in: up to and including a dev item, nothing is downloaded.
  let n = 0;
  for (;; n++) {
    const { dev } = await answer(page, n);
    if (dev) {
      assert.match(await page.getByTestId('server-score').textContent(), /tiny-bert/);
      break;
    }
    await page.getByTestId('next-item').click();
  }
  await page.waitForTimeout(1000);
  assert.equal(await page.getByTestId('browser-score').count(), 0);
  assert.deepEqual(modelDownloads(paths), [], 'no model download without opting in');
  // The offer names the size (tiny-bert: 0.1 MB) and waits for a click.
  assert.match(await page.getByTestId('browser-model-offer').textContent(), /\d+(\.\d)? MB/);
  await page.getByTestId('next-item').click();
  n++;

  // Opting in: a progress bar that reaches its max, the backend in words.
  await page.waitForSelector(`[data-testid="question"][data-position="${n}"]`);
  await page.getByTestId('browser-model-load').click();
  await expectReady(page);
  assert.ok(paths.includes(WEIGHTS), 'the weights were downloaded after the click');

  // With slow acknowledgements, a dev item shows the instant estimate before the server's
  // score, which then replaces it (the browser's number stays, in small print, and agrees).
  await page.route('**/api/sessions/*/answers', async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  let checked = false;
  for (; n < MEMES && !checked; n++) {
    const { dev, extra } = await answer(page, n, () => page.getByTestId('instant-score')
      .waitFor({ timeout: 10_000 }).then(() => true, () => false));
    if (dev) {
      assert.ok(await extra, 'the instant estimate came before the server answered');
      assert.equal(await page.getByTestId('instant-score').count(), 0);
      const shown = page.getByTestId('browser-score');
      await shown.waitFor({ timeout: 60_000 });
      // The same primary score (meaning identification against the open dev meanings) on
      // both sides, and the same cosine under it.
      const browserScore = Number(await shown.getAttribute('data-value'));
      const server = page.getByTestId('server-score');
      const serverScore = Number(await server.getAttribute('data-value'));
      assert.ok(Math.abs(browserScore - serverScore) < 1e-3, `browser ${browserScore} vs server ${serverScore}`);
      assert.ok(browserScore >= 0 && browserScore <= 1, `identification ${browserScore}`);
      checked = true;
    }
    await page.getByTestId('next-item').click();
  }
  assert.ok(checked, 'a dev item came up and was scored in the browser');
  await page.unroute('**/api/sessions/*/answers');

  // The choice is remembered: after a reload the model loads by itself, from the cache.
  paths.length = 0;
  await page.reload();
  await page.getByTestId('question').waitFor();
  await expectReady(page);
  assert.equal(await page.getByTestId('browser-model-load').count(), 0);
  assert.ok(!paths.includes(WEIGHTS), 'the weights came from the Cache API');
  assert.deepEqual(errors.filter((e) => !e.includes('favicon')), []);
  await page.close();
});

test('a failed model download shows an error with retry, and the quiz goes on', { skip }, async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.route(`**${WEIGHTS}`, (route) => route.abort());
  await startQuiz(page);
  await page.waitForSelector('[data-testid="question"][data-position="0"]');
  await page.getByTestId('browser-model-load').click();
  const retry = page.getByTestId('browser-model-retry');
  await retry.waitFor({ timeout: 30_000 });
  const status = await page.getByTestId('browser-model-status').textContent();
  assert.match(status, /model-files|fetch|GET/i);
  assert.doesNotMatch(status, /object Object/);
  // Never blocked: the answer is sent and acknowledged.
  await answer(page, 0);
  await page.unroute(`**${WEIGHTS}`);
  await retry.click();
  await expectReady(page);
  // The failed fetch is logged by the browser; nothing else may fail.
  assert.deepEqual(errors.filter((e) => !e.includes('favicon') && !e.includes('Failed to load resource')), []);
  await page.close();
});

test('the submit page scores an explanation file on the dev split in the browser once asked', { skip }, async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  const paths = watchRequests(page);
  // Dev gold is public by design: answer every dev item with its own reference meaning.
  const gold = (await (await fetch(`${server.base}/api/tasks/demo-explain/dev-gold.jsonl`)).text())
    .trim().split('\n').map((l) => JSON.parse(l));
  assert.ok(gold.length > 0);
  const lines = gold.map((g) => JSON.stringify({ item_id: g.item_id, meaning: g.meaning })).join('\n') + '\n';
  const file = path.join(fs.mkdtempSync(path.join(ROOT, 'target/e2e-')), 'explain.jsonl');
  fs.writeFileSync(file, lines);
  await page.goto(`${server.base}/submit`);
  await page.getByTestId('submit-task').selectOption('demo-explain');
  await page.getByTestId('file-input').setInputFiles(file);
  await page.getByTestId('preview-ok').waitFor();
  await page.getByTestId('browser-model-offer').waitFor();
  assert.equal(await page.getByTestId('preview-explain-score').count(), 0);
  assert.deepEqual(modelDownloads(paths), [], 'no model download without opting in');
  await page.getByTestId('browser-model-load').click();
  const score = page.getByTestId('preview-explain-score');
  await score.waitFor({ timeout: 60_000 });
  await expectReady(page);
  const value = Number(await score.getAttribute('data-value'));
  assert.ok(Math.abs(value - 1) < 1e-3, `identical meanings score ${value}`);
  assert.deepEqual(errors.filter((e) => !e.includes('favicon')), []);
  await page.close();
});
