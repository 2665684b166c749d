// Boards for readers and model authors: the overall score stays in view at 1280 px and on a
// phone, human and baseline rows are never ranked, filters hide and show model rows (and live
// in the URL), the submit page shows the uploads left before uploading. The last two tests
// need the server contract of one row per model (`attempts`, `hidden_attempts`,
// `?attempts=all`) and of withdrawing (`DELETE /api/submissions/{id}`); they skip, saying so,
// against a server that has neither, and must pass once it has them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, watchErrors } from './harness.mjs';

const TASK = 'demo-mcq';
let server;
let browser;
let items;
let authorA;
const ids = {};

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const manifest = await (await fetch(`${server.base}/api/tasks/${TASK}/manifest`)).json();
  items = manifest.items;
  authorA = await createAuthor('Boards Team');
  ids.small = await upload(authorA, { model: 'Small-Open-7B', parameters: '7B', weights: 'open' }, 1);
  ids.big = await upload(authorA, { model: 'Big-Closed', parameters: '1.8T', weights: 'closed' }, 2);
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** A new author token (`POST /api/authors`). */
async function createAuthor(name) {
  const res = await fetch(`${server.base}/api/authors`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, organisation: `${name} Lab` }),
  });
  assert.ok(res.ok, `${res.status}: ${await res.clone().text()}`);
  return (await res.json()).token;
}

/** Uploads one answer (`answer`) for every item through the API; returns the submission id. */
async function upload(token, meta, answer) {
  const query = new URLSearchParams({ ...meta, format: 'jsonl', filename: 'p.jsonl' });
  const body = items.map((i) => JSON.stringify({ item_id: i.id, answer })).join('\n') + '\n';
  const res = await fetch(`${server.base}/api/tasks/${TASK}/submissions?${query}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-ndjson' },
    body,
  });
  assert.ok(res.ok, `${res.status}: ${await res.clone().text()}`);
  return (await res.json()).submission_id;
}

/** A page with `token` stored as this browser's author token. */
async function pageWithToken(token, viewport = { width: 1280, height: 800 }) {
  const page = await browser.newPage({ viewport });
  await page.goto(`${server.base}/`);
  await page.evaluate((t) => localStorage.setItem('memeboard.token', t), token);
  return page;
}

const row = (page, label) => page.locator(`[data-testid="board-row"][data-label="${label}"]`);

test('the overall score stays in view at 1280 px and on a phone; reference rows are not ranked', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = watchErrors(page);
  await page.goto(`${server.base}/boards/${TASK}`);
  const firstModel = page.locator('[data-testid="board-row"][data-kind="model"]').first();
  await firstModel.waitFor();
  const overall = firstModel.getByTestId('overall');
  let box = await overall.boundingBox();
  assert.ok(box && box.x >= 0 && box.x + box.width <= 1280, `overall cell at ${JSON.stringify(box)}`);
  assert.match(await overall.textContent(), /[01]\.\d{3}/);
  // Scrolled all the way sideways, the sticky name and overall cells are still in the box.
  const scroller = page.locator('.board-scroll');
  await scroller.evaluate((el) => { el.scrollLeft = el.scrollWidth; });
  const frame = await scroller.boundingBox();
  box = await overall.boundingBox();
  assert.ok(box.x >= frame.x - 1 && box.x + box.width <= frame.x + frame.width + 1,
    `overall cell ${JSON.stringify(box)} left the table ${JSON.stringify(frame)}`);
  const name = await firstModel.locator('th').boundingBox();
  assert.ok(name.x >= frame.x - 1, 'the model name stays in view');

  // Models ranked 1..n among themselves; human and baseline rows have no rank.
  const ranks = async () => page.getByTestId('board-row').evaluateAll((rows) => rows.map((r) => ({
    kind: r.dataset.kind, rank: r.dataset.rank ?? null,
    text: r.querySelector('[data-testid="rank"]').textContent,
  })));
  let all = await ranks();
  const models = all.filter((r) => r.kind === 'model');
  assert.deepEqual(models.map((r) => r.rank), models.map((_, i) => String(i + 1)));
  const references = all.filter((r) => r.kind !== 'model');
  assert.ok(references.length >= 1, 'the board has reference rows');
  for (const r of references) {
    assert.equal(r.rank, null);
    assert.doesNotMatch(r.text, /\d/);
  }
  // Sorting keeps the reference rows, still without a rank.
  await page.getByTestId('sort-overall').click();
  all = await ranks();
  assert.equal(all.filter((r) => r.kind !== 'model').length, references.length);
  assert.ok(all.filter((r) => r.kind !== 'model').every((r) => r.rank === null));
  await page.close();

  // A phone: rows are cards; the first model's overall score (with its interval) shows.
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const phoneErrors = watchErrors(phone);
  await phone.goto(`${server.base}/boards/${TASK}`);
  const card = phone.locator('[data-testid="board-row"][data-kind="model"]').first();
  await card.waitFor();
  const score = card.getByTestId('overall');
  assert.ok(await score.isVisible());
  await score.scrollIntoViewIfNeeded();
  box = await score.boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 390, `overall on the phone at ${JSON.stringify(box)}`);
  assert.match(await score.textContent(), /[01]\.\d{3}.*\[/);
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `board page is ${overflow}px wider than the phone`);
  await phone.close();
  assert.deepEqual([...errors, ...phoneErrors], []);
});

test('filters hide model rows and show them again, keep reference rows, and live in the URL', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = watchErrors(page);
  await page.goto(`${server.base}/boards/${TASK}`);
  await row(page, 'Small-Open-7B').waitFor();
  await row(page, 'Big-Closed').waitFor();
  const references = await page.locator('[data-testid="board-row"]:not([data-kind="model"])').count();
  assert.ok(references >= 1);
  const referencesStay = async () => assert.equal(
    await page.locator('[data-testid="board-row"]:not([data-kind="model"])').count(), references);

  await page.getByTestId('filter-weights').selectOption('closed');
  await page.waitForURL(/[?&]weights=closed\b/);
  await row(page, 'Small-Open-7B').waitFor({ state: 'detached' });
  assert.equal(await row(page, 'Big-Closed').count(), 1);
  await referencesStay();
  assert.match(await page.getByTestId('filter-count').textContent(), /\b1\b.*\b2\b/);

  await page.getByTestId('filter-weights').selectOption('all');
  await page.waitForURL((u) => !u.search.includes('weights='));
  await row(page, 'Small-Open-7B').waitFor();

  await page.getByTestId('filter-size').selectOption('le10b');
  await page.waitForURL(/[?&]size=le10b\b/);
  await row(page, 'Big-Closed').waitFor({ state: 'detached' });
  assert.equal(await row(page, 'Small-Open-7B').count(), 1);
  await referencesStay();

  await page.getByTestId('filter-size').selectOption('all');
  await page.waitForURL((u) => !u.search.includes('size='));
  await page.getByTestId('filter-since').fill('2099-01-01');
  await page.waitForURL(/[?&]since=2099-01-01\b/);
  await row(page, 'Small-Open-7B').waitFor({ state: 'detached' });
  assert.equal(await page.locator('[data-testid="board-row"][data-kind="model"]').count(), 0);
  await referencesStay();
  await page.getByTestId('filter-clear').click();
  await page.waitForURL((u) => u.search === '');
  await row(page, 'Small-Open-7B').waitFor();
  await row(page, 'Big-Closed').waitFor();

  // A shared link opens filtered, with the filter shown as chosen.
  await page.goto(`${server.base}/boards/${TASK}?size=gt100b&weights=closed`);
  await row(page, 'Big-Closed').waitFor();
  assert.equal(await row(page, 'Small-Open-7B').count(), 0);
  assert.equal(await page.getByTestId('filter-size').inputValue(), 'gt100b');
  assert.equal(await page.getByTestId('filter-weights').inputValue(), 'closed');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the submit page shows the uploads left today before uploading, and after', async () => {
  const token = await createAuthor('Quota Team');
  const page = await pageWithToken(token);
  const errors = watchErrors(page);
  await page.goto(`${server.base}/submit`);
  await page.getByTestId('upload-form').waitFor();
  const quota = page.getByTestId('quota-before');
  await quota.waitFor();
  assert.match(await quota.textContent(), /5 of 5 uploads left today/);
  // It stands before the upload button.
  const before = await page.evaluate(() => {
    const q = document.querySelector('[data-testid="quota-before"]');
    const b = document.querySelector('[data-testid="upload"]');
    return Boolean(q.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
  });
  assert.ok(before, 'the quota comes before the upload button');

  await page.getByTestId('submit-task').selectOption(TASK);
  await page.getByTestId('model-name').fill('Quota-Model');
  await page.getByTestId('file-input').setInputFiles({
    name: 'p.jsonl', mimeType: 'application/x-ndjson',
    buffer: Buffer.from(items.map((i) => JSON.stringify({ item_id: i.id, answer: 1 })).join('\n') + '\n'),
  });
  await page.getByTestId('preview-ok').waitFor();
  await page.getByTestId('upload').click();
  await page.getByTestId('upload-result').waitFor();
  await page.waitForFunction(() => /4 of 5/.test(document.querySelector('[data-testid="quota-before"]')?.textContent ?? ''));
  assert.deepEqual(errors, []);
  await page.close();
});

// ---- Needs the server contract: one row per model, `?attempts=all` -------------------------
test('SERVER CONTRACT (attempts): one row per model by default, every attempt behind a toggle', async (t) => {
  const probe = await (await fetch(`${server.base}/api/boards/${TASK}`)).json();
  if (!('hidden_attempts' in probe)) {
    t.skip('the server does not send `hidden_attempts` yet (one row per model)');
    return;
  }
  // A second attempt of the same model.
  ids.small2 = await upload(authorA, { model: 'Small-Open-7B', parameters: '7B', weights: 'open' }, 3);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = watchErrors(page);
  await page.goto(`${server.base}/boards/${TASK}?weights=open`);
  await row(page, 'Small-Open-7B').waitFor();
  assert.equal(await row(page, 'Small-Open-7B').count(), 1);
  const toggle = page.getByTestId('attempts-toggle');
  await toggle.waitFor();
  const board = await (await fetch(`${server.base}/api/boards/${TASK}`)).json();
  assert.ok(board.hidden_attempts >= 1);
  const total = board.rows.filter((r) => r.kind === 'model').length + board.hidden_attempts;
  assert.match(await toggle.textContent(), new RegExp(`Show all ${total} attempts`));

  await toggle.click();
  await page.waitForURL((u) => u.searchParams.get('attempts') === 'all' && u.searchParams.get('weights') === 'open');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="board-row"][data-label="Small-Open-7B"]').length === 2);
  assert.match(await toggle.textContent(), /Show one row per model/);
  // Every attempt of a model is ranked; reference rows still are not.
  const refs = await page.locator('[data-testid="board-row"]:not([data-kind="model"])[data-rank]').count();
  assert.equal(refs, 0);

  await toggle.click();
  await page.waitForURL((u) => !u.searchParams.has('attempts') && u.searchParams.get('weights') === 'open');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="board-row"][data-label="Small-Open-7B"]').length === 1);
  assert.deepEqual(errors, []);
  await page.close();
});

// ---- Needs the server contract: `DELETE /api/submissions/{id}` -----------------------------
test('SERVER CONTRACT (withdraw): authors withdraw their own rows from the account and model pages', async (t) => {
  const token = await createAuthor('Withdraw Team');
  const probe = await fetch(`${server.base}/api/submissions/no-such-id`, {
    method: 'DELETE', headers: { Authorization: `Bearer ${token}` },
  });
  if (probe.status === 405) {
    t.skip('the server has no `DELETE /api/submissions/{id}` yet');
    return;
  }
  const first = await upload(token, { model: 'Withdraw-Me', parameters: '3B', weights: 'open' }, 4);
  const second = await upload(token, { model: 'Withdraw-Me-Too', parameters: '3B', weights: 'open' }, 4);
  // Someone else's submission: 403.
  const other = await fetch(`${server.base}/api/submissions/${ids.big}`, {
    method: 'DELETE', headers: { Authorization: `Bearer ${token}` },
  });
  assert.equal(other.status, 403);

  const page = await pageWithToken(token);
  const errors = watchErrors(page);
  // Account page: Withdraw, cancel, Withdraw, "Yes, withdraw".
  await page.goto(`${server.base}/account`);
  const item = page.locator(`[data-testid="my-submission"][data-submission-id="${first}"]`);
  await item.waitFor();
  await item.getByTestId('withdraw').click();
  await item.getByTestId('withdraw-confirm').waitFor();
  await item.getByTestId('withdraw-cancel').click();
  assert.equal(await item.getByTestId('withdraw-confirm').count(), 0);
  await item.getByTestId('withdraw').click();
  await item.getByTestId('withdraw-confirm').click();
  await item.getByTestId('withdrawn').waitFor();
  assert.equal(await item.getAttribute('data-withdrawn'), 'true');
  assert.match(await item.textContent(), /Withdrawn/);

  // Model page of the other own submission.
  await page.goto(`${server.base}/models/${second}`);
  await page.getByTestId('model-page').waitFor();
  await page.getByTestId('withdraw').click();
  await page.getByTestId('withdraw-confirm').click();
  await page.getByTestId('withdrawn').waitFor();

  // Both are off the board.
  await page.goto(`${server.base}/boards/${TASK}?attempts=all`);
  await row(page, 'Big-Closed').waitFor();
  assert.equal(await row(page, 'Withdraw-Me').count(), 0);
  assert.equal(await row(page, 'Withdraw-Me-Too').count(), 0);

  // Someone else's model page has no Withdraw button.
  await page.goto(`${server.base}/models/${ids.big}`);
  await page.getByTestId('model-page').waitFor();
  await page.getByTestId('model-public-scores').waitFor();
  assert.equal(await page.getByTestId('withdraw').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a run condition picked on the submit page shows on the board row, in the filter and in a paired difference', async () => {
  // (A fourth token would pass the per-network limit of three a day.)
  const token = authorA;
  // The default run goes up through the API, the second through the form.
  await upload(token, { model: 'Cond-Model', weights: 'open' }, 1);
  const page = await pageWithToken(token);
  const errors = watchErrors(page);
  await page.goto(`${server.base}/submit`);
  await page.getByTestId('submit-task').selectOption(TASK);
  const select = page.getByTestId('condition-options');
  await select.waitFor();
  assert.equal(await select.inputValue(), 'labels_only', 'the default is picked');
  await select.selectOption('with_meanings');
  await page.getByTestId('model-name').fill('Cond-Model');
  await page.getByTestId('file-input').setInputFiles({
    name: 'p.jsonl', mimeType: 'application/x-ndjson',
    buffer: Buffer.from(items.map((i) => JSON.stringify({ item_id: i.id, answer: 2 })).join('\n') + '\n'),
  });
  await page.getByTestId('preview-ok').waitFor();
  await page.getByTestId('upload').click();
  await page.getByTestId('upload-result').waitFor();
  assert.match(await page.getByTestId('result-conditions').textContent(), /with each option's meaning/);
  const modelHref = await page.getByTestId('result-model-link').getAttribute('href');

  // One row per run, the second naming its condition; the pair's difference below the table.
  await page.goto(`${server.base}/boards/${TASK}`);
  await row(page, 'Cond-Model').first().waitFor();
  assert.equal(await row(page, 'Cond-Model').count(), 2);
  const named = row(page, 'Cond-Model').getByTestId('row-conditions');
  assert.equal(await named.count(), 1);
  assert.match(await named.textContent(), /with each option's meaning/);
  const pair = page.locator('[data-testid="paired-row"][data-condition="options"]');
  await pair.waitFor();
  assert.match(await pair.textContent(), /Cond-Model/);
  assert.match(await pair.getByTestId('paired-delta').textContent(), /^[+−]\d\.\d{3}$/);

  // The condition filter keeps the runs under one value, and lives in the URL.
  await page.getByTestId('filter-condition').selectOption('options=with_meanings');
  await page.waitForURL(/[?&]condition=options%3Dwith_meanings\b/);
  await page.waitForFunction(() =>
    document.querySelectorAll('[data-testid="board-row"][data-label="Cond-Model"]').length === 1);
  assert.equal(await row(page, 'Cond-Model').getByTestId('row-conditions').count(), 1);

  // The model page says how it was run.
  await page.goto(`${server.base}${modelHref}`);
  const facts = page.getByTestId('model-conditions');
  await facts.waitFor();
  assert.match(await facts.textContent(), /Options: with each option's meaning/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the paper-tables page lays out the runs in the paper\'s tables in both languages, with CSV and LaTeX downloads', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = watchErrors(page);
  await page.goto(`${server.base}/boards/${TASK}`);
  await page.getByTestId('tables-link').click();
  await page.waitForURL(/\/benchmarks\/demo\/tables$/);
  const table4 = page.locator('[data-testid="paper-table"][data-table="chime-table-4"]');
  await table4.waitFor();
  assert.match(await table4.locator('h2').textContent(), /CHIME Table 4: Multiple-choice accuracy by meme type/);
  // Table 4 has the default runs with intervals and the crowd; Table 5 the run with meanings
  // and its Δ against the labels-only run (no interval on the public half).
  const cond4 = table4.locator('tr[data-kind="model"]', { hasText: 'Cond-Model' });
  assert.equal(await cond4.count(), 1);
  assert.match(await cond4.locator('td').first().textContent(), /^\d+\.\d \[\d+\.\d, \d+\.\d\]$/);
  const table5 = page.locator('[data-testid="paper-table"][data-table="chime-table-5"]');
  const cond5 = table5.locator('tr[data-kind="model"]', { hasText: 'Cond-Model' });
  assert.equal(await cond5.count(), 1);
  assert.match(await cond5.locator('td').last().textContent(), /^[+-]?\d+\.\d\s*$/);

  // The downloads open: CSV with every row, LaTeX with booktabs rules in the page's language.
  const csv = await (await fetch(server.base + await table4.getByTestId('table-csv').getAttribute('href'))).text();
  assert.match(csv, /^row,kind,conditions,source,overall,overall_ci_low,overall_ci_high,overall_n,/);
  assert.match(csv, /\nCond-Model,model,,,/);
  await page.getByTestId('lang-switch').click();
  await page.waitForFunction(() => document.documentElement.lang.startsWith('zh'));
  assert.match(await table4.locator('h2').textContent(), /各梗类型的选择题准确率/);
  assert.match(await table4.locator('thead').textContent(), /模型/);
  const texHref = await table4.getByTestId('table-tex').getAttribute('href');
  assert.match(texHref, /lang=zh/);
  const tex = await (await fetch(server.base + texHref)).text();
  assert.match(tex, /\\toprule[\s\S]*模型 & 总体[\s\S]*\\bottomrule/);
  await page.getByTestId('lang-switch').click();
  assert.deepEqual(errors, []);
  await page.close();
});
