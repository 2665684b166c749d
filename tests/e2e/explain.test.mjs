// The explanation quiz in a real browser: write what a meme means, the answer is stored and
// scored on the server; for open dev items the reference is shown and the browser scores the
// answer too (memeboard-embed, loaded on demand) — and the two scores agree.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import { startServer, launchBrowser, watchErrors, ROOT } from './harness.mjs';

const MODELS = process.env.MEMEBOARD_TEST_MODELS;
const skip = !MODELS || !fs.existsSync(path.join(MODELS, 'tiny-bert/browser.json'))
  || !fs.existsSync(path.join(ROOT, 'dist/embed/memeboard_embed.js'));
if (skip && process.env.MEMEBOARD_REQUIRE_MODELS === '1') {
  throw new Error('MEMEBOARD_REQUIRE_MODELS=1 but the tiny model or dist/embed is missing');
}

let server;
let browser;

before(async () => {
  if (skip) return;
  server = await startServer({
    // Every meme in one batch, so open dev items are certain to come up.
    MEMEBOARD__QUIZ__EXPLAIN_BATCH_SIZE: '36',
    MEMEBOARD__MODEL__NAME: 'tiny-bert',
    MEMEBOARD__MODEL__DIR: path.join(MODELS, 'tiny-bert'),
    MEMEBOARD__MODEL__ONNXRUNTIME: path.join(MODELS, 'onnxruntime/libonnxruntime.so'),
    MEMEBOARD__MODEL__THREADS: '1',
  });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

test('explanations are scored on the server and, for dev items, in the browser with the same result', { skip }, async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.base}/quiz/demo-explain`);
  // The consent page describes the explanation task, not the multiple-choice one.
  const instructions = await page.getByTestId('task-instructions').textContent();
  assert.match(instructions, /own words|自己的话/);
  assert.doesNotMatch(instructions, /five options|五个选项/);
  await page.getByTestId('consent-checkbox').check();
  await page.getByTestId('consent-continue').click();
  await page.getByTestId('survey-age').selectOption({ index: 2 });
  await page.getByTestId('survey-language').selectOption({ index: 1 });
  await page.getByTestId('survey-online').selectOption({ index: 3 });
  await page.getByTestId('survey-familiarity').selectOption({ index: 4 });
  await page.getByTestId('survey-submit').click();
  await page.waitForURL(/\/session\//);

  let checked = false;
  for (let n = 0; n < 36 && !checked; n++) {
    await page.waitForSelector(`[data-testid="question"][data-position="${n}"]`);
    const meme = (await page.getByTestId('meme').textContent()).trim();
    await page.getByTestId('explanation-input').fill(`${meme}这个梗用来形容事情彻底搞砸了，无法挽回。`);
    await page.getByTestId('submit-answer').click();
    await page.getByTestId('explanation-feedback').waitFor();
    if (await page.getByTestId('reference-meaning').count()) {
      const server = await page.getByTestId('server-score').textContent();
      assert.match(server, /tiny-bert/);
      const shown = page.getByTestId('browser-score');
      await shown.waitFor({ timeout: 60_000 });
      const browserCos = Number(await shown.getAttribute('data-value'));
      const serverCos = Number(await page.getByTestId('server-score').getAttribute('data-value'));
      assert.ok(Math.abs(browserCos - serverCos) < 1e-3, `browser ${browserCos} vs server ${serverCos}`);
      assert.match(await shown.textContent(), /cpu|webgpu/);
      checked = true;
    } else {
      // Hidden test item: no score per answer (it comes with the results).
      assert.equal(await page.getByTestId('scores-with-results').count(), 1);
      assert.equal(await page.getByTestId('server-score').count(), 0);
      assert.equal(await page.getByTestId('reference-withheld').count(), 1);
      await page.getByTestId('next-item').click();
    }
  }
  assert.ok(checked, 'a dev item came up and was scored in the browser');
  assert.deepEqual(errors.filter((e) => !e.includes('favicon')), []);
  await page.close();
});

test('the submit page scores an explanation file on the dev split in the browser before upload', { skip }, async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
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
  const score = page.getByTestId('preview-explain-score');
  await score.waitFor({ timeout: 60_000 });
  const value = Number(await score.getAttribute('data-value'));
  assert.ok(Math.abs(value - 1) < 1e-3, `identical meanings score ${value}`);
  assert.deepEqual(errors.filter((e) => !e.includes('favicon')), []);
  await page.close();
});
