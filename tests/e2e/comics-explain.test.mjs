// The comic explanation board in a real browser: the demo models' comic explanations (loaded
// in the background after start-up) are listed unscored, "judged by people only", with a note
// that the task has no automatic metric and no score chart, in both languages and without
// serious accessibility violations.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  startServer, launchBrowser, watchErrors, expectNoSeriousA11yViolations,
} from './harness.mjs';

const SLUG = 'demo-panel-explain';

let server;
let browser;

before(async () => {
  server = await startServer({ MEMEBOARD__LEADERBOARD__MIN_CATEGORY_ITEMS: '1' });
  browser = await launchBrowser();
  // The demo submissions arrive shortly after start-up.
  for (let i = 0; i < 300; i++) {
    const board = await (await fetch(`${server.base}/api/boards/${SLUG}`)).json();
    if ((board.rows ?? []).filter((r) => r.kind === 'model').length === 4) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the demo comic explanation submissions did not load');
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

test('the comic explanation board lists unscored rows judged by people only', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.base}/boards/${SLUG}`);
  await page.getByTestId('board-unscored').waitFor();
  const badges = page.getByTestId('judged-by-people');
  assert.equal(await badges.count(), 4);
  assert.match(await badges.first().innerText(), /judged by people only|仅人工评判/);
  assert.equal(await page.locator('.chart-section').count(), 0, 'no score chart');
  await expectNoSeriousA11yViolations(page, 'comic explanation board');
  // The other language: the note and the badges follow the switch.
  const note = await page.getByTestId('board-unscored').textContent();
  const badge = await badges.first().textContent();
  await page.getByTestId('lang-switch').click();
  await page.waitForFunction((t) => document.querySelector('[data-testid="board-unscored"]')?.textContent !== t, note);
  assert.notEqual(await badges.first().textContent(), badge);
  await expectNoSeriousA11yViolations(page, 'comic explanation board (other language)');
  assert.deepEqual(errors.filter((e) => !e.includes('favicon')), []);
  await page.close();
});

test('an upload of comic explanations says they are judged by people, not that the board is blind', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.base}/account`);
  await page.getByTestId('account-name').fill('Comic Team');
  await page.getByTestId('account-organisation').fill('Comic Lab');
  await page.getByTestId('create-token').click();
  await page.getByTestId('new-token').waitFor();
  const manifest = await (await fetch(`${server.base}/api/tasks/${SLUG}/manifest`)).json();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'comics-e2e-')), 'comics.jsonl');
  fs.writeFileSync(file, manifest.items
    .map((i) => JSON.stringify({ item_id: i.id, explanation: '四格里的反转 · the twist in the last panel' }))
    .join('\n') + '\n');
  await page.goto(`${server.base}/submit`);
  await page.getByTestId('upload-form').waitFor();
  await page.getByTestId('submit-task').selectOption(SLUG);
  await page.getByTestId('model-name').fill('Twist-Finder');
  await page.getByTestId('file-input').setInputFiles(file);
  await page.getByTestId('preview-ok').waitFor();
  await page.getByTestId('upload').click();
  await page.getByTestId('upload-result').waitFor();
  assert.equal(await page.getByTestId('upload-result').getAttribute('data-status'), 'judged by people only');
  await page.getByTestId('result-unscored').waitFor();
  assert.doesNotMatch(await page.getByTestId('upload-result').textContent(), /blind|盲评/);
  assert.deepEqual(errors.filter((e) => !e.includes('favicon')), []);
  await page.close();
});
