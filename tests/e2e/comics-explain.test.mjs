// The comic explanation board in a real browser: the demo models' comic explanations (loaded
// in the background after start-up) are listed unscored, "judged by people only", with a note
// that the task has no automatic metric and no score chart, in both languages and without
// serious accessibility violations.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
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
