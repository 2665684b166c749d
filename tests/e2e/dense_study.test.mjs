// CMPM's dense design end to end (§5.3: every rater judges every page, in resumable parts):
// the admin creates a CMPM study of the demo comic board's models with `dense`; one rater
// judges the first part in Chromium, reloads in the middle and carries on where they were, is
// offered the next part in those words ("Judge the next batch"), judges it, and is then told
// on the quiz page that they have judged every part (no further offer). The study page shows CMPM Table 7 per annotator with the rater's row,
// and no rater page names a model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, watchErrors, expectNoSeriousA11yViolations, consentAndSurveyIfAsked, boardModels,
  nextRaterQuestion,
} from './harness.mjs';

const ADMIN = 'admin-token-for-dense-e2e';
const BOARD = 'demo-panel-explain';
const MAX_PAGES = 20;

const run = serverAndBrowser({ MEMEBOARD__ADMIN__TOKEN: ADMIN });

const auth = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };

/** Scores every dimension group of the page and submits it. */
async function scorePage(question, n) {
  const dims = await question.getByTestId('dimension-group').evaluateAll(
    (groups) => groups.map((g) => g.getAttribute('data-dimension')),
  );
  for (const [k, d] of dims.entries()) {
    await question.locator(`[data-testid="dimension-score"][data-dimension="${d}"][data-value="${((k + n) % 3) + 1}"]`).check();
  }
  await question.getByTestId('rating-submit').click();
}

/** Judges the pages of the open part until its end; `reloadAfter`: reload once after that
 * many pages and check the part resumes at the next page. Returns the item ids judged. */
async function judgePart(page, modelNames, reloadAfter = -1) {
  const judged = [];
  for (let i = 0; i < MAX_PAGES; i++) {
    const question = await nextRaterQuestion(page, modelNames);
    if (!question) break;
    assert.equal(await question.getAttribute('data-protocol'), 'dimensions');
    const position = await question.getAttribute('data-position');
    judged.push(await question.getAttribute('data-item-id'));
    await scorePage(question, i);
    await page.waitForFunction(
      (p) => !document.querySelector(`[data-testid="question"][data-position="${p}"]`),
      position,
    );
    if (judged.length === reloadAfter) {
      const next = await page.getByTestId('question').getAttribute('data-position');
      await page.reload();
      await page.getByTestId('question').waitFor();
      assert.equal(await page.getByTestId('question').getAttribute('data-position'), next, 'resumes where it was');
    }
  }
  await page.getByTestId('completion-code').waitFor();
  return judged;
}

test('a CMPM rater judges every part of a dense study, resuming after a reload; Table 7 per annotator', async () => {
  const models = await boardModels(run.server.base, BOARD);
  const modelNames = models.map((m) => m.label);
  const res = await fetch(`${run.server.base}/api/owner/tasks/${BOARD}/studies`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({
      slug: 'dense-e2e', protocol: 'cmpm',
      submissions: { pick: 'ids', ids: models.map((m) => m.submission_id) },
      items_per_category: 1, batch_size: 4, raters_per_batch: 1, planted_checks: false,
      dense: true, seed: 5,
    }),
  });
  const created = await res.json();
  assert.equal(res.status, 201, JSON.stringify(created));
  const rate = created.tasks[0];
  assert.ok(rate.batches >= 2, `several parts: ${JSON.stringify(rate)}`);

  const context = await run.browser.newContext();
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${run.server.base}${rate.link}`);
  await consentAndSurveyIfAsked(page);
  const seen = new Set();
  for (let part = 0; part < rate.batches; part++) {
    if (part > 0) {
      // Back on the quiz page: the next part, in those words.
      await page.goto(`${run.server.base}${rate.link}`);
      await page.getByTestId('finished').waitFor();
      const next = page.getByTestId('start-over');
      assert.match(await next.textContent(), /next batch|下一批/);
      await next.click();
      await consentAndSurveyIfAsked(page);
    }
    const judged = await judgePart(page, modelNames, part === 0 ? 1 : -1);
    for (const id of judged) {
      assert.ok(!seen.has(id), `${id} judged twice`);
      seen.add(id);
    }
  }
  assert.equal(seen.size, rate.items, 'every page of the task, once');
  // Every part done: nothing more to judge, and the page says so before any consent.
  await page.goto(`${run.server.base}${rate.link}`);
  await page.getByTestId('finished').waitFor();
  await page.getByTestId('refusal').waitFor();
  assert.match(await page.getByTestId('refusal').textContent(), /finished judging|已完成评判/);
  assert.equal(await page.getByTestId('start-over').count(), 0);
  // The refusal itself is the one 409 the browser logs.
  assert.deepEqual(errors.filter((e) => !/status of 409/.test(e)), []);
  await context.close();

  // The study page: CMPM Table 7 per annotator, one row for the one rater.
  const owner = await run.browser.newPage();
  const ownerErrors = watchErrors(owner);
  await owner.goto(`${run.server.base}/console`);
  await owner.getByTestId('owner-token').fill(ADMIN);
  await owner.getByTestId('owner-token-save').click();
  await owner.goto(`${run.server.base}/console/studies/dense-e2e`);
  const table = owner.getByTestId('study-table-per-rater');
  await table.waitFor();
  assert.equal(await table.getByTestId('study-table-row').count(), 1);
  const cells = await table.locator('tbody td').allTextContents();
  assert.ok(cells.some((c) => /\d\.\d/.test(c)), cells.join(' | '));
  await expectNoSeriousA11yViolations(owner, 'dense study page');
  assert.deepEqual(ownerErrors, []);
  await owner.close();
});
