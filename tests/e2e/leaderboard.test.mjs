// The leaderboard end to end in a real browser: create an author token, check a prediction
// file in the browser (errors per line, or a dev-split preview score), upload it with a
// progress bar, find the model on the board, sort, download the CSV, open the model page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, launchBrowser, watchErrors } from './harness.mjs';

const MODEL = 'E2E-Model-7B';
let server;
let browser;
let tmp;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memeboard-e2e-preds-'));
});
after(async () => {
  await browser?.close();
  await server?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** Writes `lines` (objects) as a JSON Lines file and returns its path. */
function writeJsonl(name, lines) {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

test('an author creates a token, uploads checked predictions, and finds the model on the board', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);

  // Account: create a token; it is shown once and kept in localStorage.
  await page.goto(`${server.base}/account`);
  await page.getByTestId('account-name').fill('E2E Team');
  await page.getByTestId('account-organisation').fill('E2E Lab');
  await page.getByTestId('create-token').click();
  const token = (await page.getByTestId('new-token').textContent()).trim();
  assert.match(token, /^mb_[0-9a-f]+$/);
  assert.equal(await page.evaluate(() => localStorage.getItem('memeboard.token')), token);
  await page.getByTestId('quota').waitFor();
  assert.match(await page.getByTestId('quota').textContent(), /5\D+5/);

  // Submit: one line per item of demo-mcq, option 1 everywhere.
  const manifest = await (await fetch(`${server.base}/api/tasks/demo-mcq/manifest`)).json();
  assert.ok(manifest.items.length > 0);
  const file = writeJsonl('preds.jsonl', manifest.items.map((i) => ({ item_id: i.id, answer: 1 })));
  await page.getByTestId('nav-submit').click();
  await page.getByTestId('upload-form').waitFor();
  await page.getByTestId('submit-task').selectOption('demo-mcq');
  assert.equal(await page.getByTestId('submit-token').inputValue(), token);
  await page.getByTestId('model-name').fill(MODEL);
  await page.getByTestId('model-parameters').fill('7B');
  await page.getByTestId('model-weights').selectOption('open');
  await page.getByTestId('model-link').fill('https://example.org/e2e');
  await page.getByTestId('model-description').fill('<b>not bold</b>');
  await page.getByTestId('file-input').setInputFiles(file);

  await page.getByTestId('preview-ok').waitFor();
  assert.equal(await page.getByTestId('preview-errors').count(), 0);
  assert.match(await page.getByTestId('preview-ok').textContent(), new RegExp(`\\b${manifest.items.length}\\b`));
  const preview = page.getByTestId('preview-score');
  await preview.waitFor();
  assert.match(await preview.textContent(), /[01]\.\d{3} \[[01]\.\d{2}, [01]\.\d{2}\]/);
  assert.ok(await page.getByTestId('upload').isEnabled());

  await page.getByTestId('upload').click();
  await page.getByTestId('upload-result').waitFor();
  assert.equal(await page.getByTestId('upload-result').getAttribute('data-status'), 'scored');
  assert.match(await page.getByTestId('result-overall').textContent(), /[01]\.\d{3} \[/);
  assert.match(await page.getByTestId('result-quota').textContent(), /4\D+5/);
  assert.equal(await page.getByTestId('upload-progress').evaluate((p) => p.value), 1);
  assert.equal(await page.getByTestId('upload-errors').count(), 0);

  // The board: the model's row, sorting, the chart, the CSV download.
  await page.getByTestId('result-board-link').click();
  await page.waitForURL(/\/boards\/demo-mcq$/);
  const row = page.locator(`[data-testid="board-row"][data-label="${MODEL}"]`);
  await row.waitFor();
  assert.equal(await row.getAttribute('data-kind'), 'model');
  assert.match(await row.textContent(), /[01]\.\d{3}/);
  assert.ok((await page.locator('[data-testid="board-row"][data-kind="baseline"]').count()) >= 1);
  assert.match(await page.getByTestId('missing-policy').textContent(), /wrong/);

  const overallHeader = page.locator('th', { has: page.getByTestId('sort-overall') });
  assert.equal(await overallHeader.getAttribute('aria-sort'), null);
  await page.getByTestId('sort-overall').click();
  assert.equal(await overallHeader.getAttribute('aria-sort'), 'descending');
  await page.getByTestId('sort-overall').press('Enter');
  assert.equal(await overallHeader.getAttribute('aria-sort'), 'ascending');
  // Ascending: chance (0.2) comes before the model only if the model beats chance; either
  // way the first and last rows are the extremes.
  const firstKind = await page.getByTestId('board-row').first().getAttribute('data-kind');
  assert.ok(['model', 'baseline'].includes(firstKind));

  // The language switch re-renders the table headers.
  const overallLabel = await page.getByTestId('sort-overall').textContent();
  await page.getByTestId('lang-switch').click();
  await page.waitForFunction((t) => document.querySelector('[data-testid="sort-overall"]')?.textContent !== t, overallLabel);
  await page.getByTestId('lang-switch').click();
  await page.waitForFunction((t) => document.querySelector('[data-testid="sort-overall"]')?.textContent === t, overallLabel);

  await page.getByTestId('board-chart').waitFor();
  assert.ok((await page.getByTestId('chart-bar').count()) >= 1, 'the model has bars');
  assert.equal(await page.locator('[data-testid="board-chart"] > title').count(), 1);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('download-csv').click(),
  ]);
  assert.match(download.suggestedFilename(), /demo-mcq-public-board\.csv/);
  const csv = fs.readFileSync(await download.path(), 'utf8');
  assert.match(csv, new RegExp(`,${MODEL},`));

  // The model page: user text stays text, the link is marked, the author sees the gap view.
  await row.getByTestId('model-link').click();
  await page.getByTestId('model-page').waitFor();
  assert.equal((await page.getByTestId('model-name').textContent()).trim(), MODEL);
  assert.equal(await page.getByTestId('model-description').textContent(), '<b>not bold</b>');
  assert.equal(await page.locator('[data-testid="model-description"] b').count(), 0);
  assert.equal(await page.getByTestId('model-link-out').getAttribute('rel'), 'nofollow noopener noreferrer');
  await page.getByTestId('model-public-scores').waitFor();
  await page.getByTestId('item-gaps').waitFor();

  assert.deepEqual(errors, []);
  await page.close();
});

test('a bad file lists its problem lines and cannot be sent; server errors are listed too', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.base}/submit`);
  await page.getByTestId('upload-form').waitFor();
  await page.getByTestId('submit-task').selectOption('demo-mcq');
  await page.getByTestId('model-name').fill('Broken');
  const file = writeJsonl('bad.jsonl', [{ item_id: 'nope', answer: 1 }]);
  await page.getByTestId('file-input').setInputFiles(file);
  const problems = page.getByTestId('preview-errors');
  await problems.waitFor();
  const lines = problems.locator('li');
  assert.equal(await lines.count(), 1);
  assert.match(await lines.first().textContent(), /^line 1\b.*nope/);
  assert.ok(await page.getByTestId('upload').isDisabled());
  assert.equal(await page.getByTestId('preview-score').count(), 0);

  // A valid file sent with an unknown token: the server's message is listed as it came.
  const manifest = await (await fetch(`${server.base}/api/tasks/demo-mcq/manifest`)).json();
  const good = writeJsonl('good.jsonl', manifest.items.slice(0, 3).map((i) => ({ item_id: i.id, answer: 2 })));
  await page.getByTestId('file-input').setInputFiles(good);
  await page.getByTestId('preview-ok').waitFor();
  assert.match(await page.getByTestId('preview-missing').textContent(), /scored as wrong/);
  await page.getByTestId('submit-token').fill('mb_not_a_real_token');
  await page.getByTestId('upload').click();
  const rejected = page.getByTestId('upload-errors');
  await rejected.waitFor();
  assert.equal(await rejected.getAttribute('data-status'), '401');
  assert.match(await rejected.locator('li').first().textContent(), /unknown token/);
  assert.equal(await page.getByTestId('upload-result').count(), 0);
  // The only console error allowed is the browser's note about the expected 401.
  assert.deepEqual(errors.filter((e) => !/status of 401/.test(e)), []);
  await page.close();
});

test('in 中文 the file check and the server\'s errors read in Chinese', async () => {
  const page = await browser.newPage();
  await page.addInitScript(() => localStorage.setItem('memeboard.lang', 'zh'));
  const errors = watchErrors(page);
  await page.goto(`${server.base}/submit`);
  await page.getByTestId('upload-form').waitFor();
  await page.getByTestId('submit-task').selectOption('demo-mcq');
  await page.getByTestId('model-name').fill('Broken');
  // The browser's own check, from the shared catalogue.
  await page.getByTestId('file-input').setInputFiles(writeJsonl('bad-zh.jsonl', [{ item_id: 'nope', answer: 1 }]));
  const problems = page.getByTestId('preview-errors');
  await problems.waitFor();
  assert.equal(await problems.locator('li').first().textContent(), '第 1 行，字段 `item_id`：未知的题目编号 `nope`');
  // A language switch writes the check's lines again, in English, and back.
  await page.getByTestId('lang-switch').click();
  await page.waitForFunction(() => /unknown item id `nope`/.test(document.querySelector('[data-testid="preview-errors"] li')?.textContent ?? ''));
  await page.getByTestId('lang-switch').click();
  await page.waitForFunction(() => /未知的题目编号/.test(document.querySelector('[data-testid="preview-errors"] li')?.textContent ?? ''));
  // A server refusal (unknown token), rendered from its code.
  const manifest = await (await fetch(`${server.base}/api/tasks/demo-mcq/manifest`)).json();
  const good = writeJsonl('good-zh.jsonl', manifest.items.slice(0, 3).map((i) => ({ item_id: i.id, answer: 2 })));
  await page.getByTestId('file-input').setInputFiles(good);
  await page.getByTestId('preview-ok').waitFor();
  assert.match(await page.getByTestId('preview-missing').textContent(), /按答错计分/);
  await page.getByTestId('submit-token').fill('mb_not_a_real_token');
  await page.getByTestId('upload').click();
  const rejected = page.getByTestId('upload-errors');
  await rejected.waitFor();
  assert.equal(await rejected.getAttribute('data-status'), '401');
  assert.match(await rejected.locator('li').first().textContent(), /^令牌无效/);
  assert.deepEqual(errors.filter((e) => !/status of 401/.test(e)), []);
  await page.close();
});

test('the private and whole boards show the server message until revealed, and boards fit a phone', async () => {
  const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
  const errors = watchErrors(page);
  await page.goto(`${server.base}/boards`);
  await page.getByTestId('task-card').first().waitFor();
  await page.getByTestId('board-link').first().click();
  await page.getByTestId('board-table').waitFor();
  let overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `board page is ${overflow}px wider than the phone screen`);
  // On a phone the rows are cards: the column headers give way to one sort select.
  assert.ok(!(await page.getByTestId('sort-overall').isVisible()), 'no header chips on a phone');
  const labels = () => page.getByTestId('board-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-label')));
  await page.getByTestId('sort-key').selectOption('label');
  const byName = await labels();
  await page.getByTestId('sort-direction').click();
  assert.deepEqual(await labels(), [...byName].reverse(), 'the direction button flips the order');

  await page.getByTestId('split-private').click();
  const locked = page.getByTestId('board-locked');
  await locked.waitFor();
  assert.match(await locked.textContent(), /not revealed/);
  // The server's message is written again in the reader's language on a switch.
  await page.getByTestId('lang-switch').click();
  await page.waitForFunction(() => /私有榜尚未公布/.test(document.querySelector('[data-testid="board-locked"]')?.textContent ?? ''));
  await page.getByTestId('lang-switch').click();
  await page.waitForFunction(() => /not revealed/.test(document.querySelector('[data-testid="board-locked"]')?.textContent ?? ''));
  assert.equal(await page.getByTestId('split-private').getAttribute('aria-current'), 'page');
  // The whole test split (both halves) waits for the same reveal, with its own message.
  await page.getByTestId('split-whole').click();
  await page.waitForFunction(() => /whole test split/.test(document.querySelector('[data-testid="board-locked"]')?.textContent ?? ''));
  assert.equal(await page.getByTestId('split-whole').getAttribute('aria-current'), 'page');

  await page.goto(`${server.base}/submit`);
  await page.getByTestId('upload-form').waitFor();
  overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `submit page is ${overflow}px wider than the phone screen`);

  // The only console error allowed is the browser's note about the expected 403.
  assert.deepEqual(errors.filter((e) => !/status of 403/.test(e)), []);
  await page.close();
});
