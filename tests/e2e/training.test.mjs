// Rater training end to end (issue 31): the admin creates a CMPM study of the demo comic
// board's models with a rubric, two practice pages with expected scores and a 60% pass mark.
// A careful rater reads the rubric, practises with feedback after each page (the expected
// score beside theirs, the owner's note), passes, and goes on to the real pages; a reload
// opens on the real pages, not the practice. A careless rater sees where they differ, falls
// below the pass mark and is screened out to the study's screen-out link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, watchErrors, expectNoSeriousA11yViolations, consentAndSurveyIfAsked, boardModels } from './harness.mjs';

const ADMIN = 'admin-token-for-training-e2e';
const BOARD = 'demo-panel-explain';
const NOTES = ['Note one: this output is about another comic.', 'Note two: every panel read right.'];

const run = serverAndBrowser({ MEMEBOARD__ADMIN__TOKEN: ADMIN });

const auth = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };

/** Two dev comics of the board (public inputs): id and whether they have text context. */
async function devComics() {
  const text = await (await fetch(`${run.server.base}/api/tasks/${BOARD}/inputs.jsonl`)).text();
  return text.trim().split('\n').map((l) => JSON.parse(l))
    .filter((l) => l.split === 'dev').slice(0, 2)
    .map((l) => ({ id: l.item_id, context: Boolean(l.context?.title || l.context?.caption) }));
}

/** Expected dimension scores, all `v`. */
function scores(v, context) {
  return {
    protocol: 'dimensions',
    scores: {
      visual_correctness: v, panel_coherence: v, humour_comprehension: v,
      context_handling: context ? v : null, faithfulness: v,
    },
  };
}

/** Scores every dimension of the shown rating page `v` and submits it. */
async function scoreAll(page, v) {
  const question = page.getByTestId('question');
  await question.waitFor();
  const dims = await question.getByTestId('dimension-group').evaluateAll(
    (groups) => groups.map((g) => g.getAttribute('data-dimension')),
  );
  for (const d of dims) {
    await question.locator(`[data-testid="dimension-score"][data-dimension="${d}"][data-value="${v}"]`).check();
  }
  await question.getByTestId('rating-submit').click();
}

/** The feedback card's rows: whether each field matched. */
async function matches(page) {
  await page.getByTestId('training-feedback').waitFor();
  return page.getByTestId('training-field').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-matched')));
}

test('raters practise with feedback; a rater below the pass mark is screened out', async () => {
  const models = await boardModels(run.server.base, BOARD);
  const comics = await devComics();
  const res = await fetch(`${run.server.base}/api/owner/tasks/${BOARD}/studies`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({
      slug: 'train-e2e', protocol: 'cmpm',
      submissions: { pick: 'ids', ids: models.map((m) => m.submission_id) },
      items_per_category: 1, batch_size: 4, raters_per_batch: 2, planted_checks: false, seed: 3,
      training: {
        rubric: 'Score each dimension from 1 to 3.\n\nA 1 means the explanation misses it entirely.',
        practice: [
          { source_item: comics[0].id, output: { meaning: 'A story about a cat and the moon.' }, expected: scores(1, comics[0].context), note: NOTES[0] },
          { source_item: comics[1].id, output: { meaning: 'Each panel builds to the joke in the last.' }, expected: scores(3, comics[1].context), note: NOTES[1] },
        ],
        pass_percent: 60,
      },
    }),
  });
  const created = await res.json();
  assert.equal(res.status, 201, JSON.stringify(created));
  const rate = created.tasks[0];
  // The study's screen-out link, for raters below the pass mark.
  const path = `${run.server.base}/api/owner/tasks/${rate.slug}`;
  const settings = (await (await fetch(`${path}/console`, { headers: auth })).json()).settings;
  settings.study.handoff.screenout_url_template = '/?screenout={participant}';
  const put = await fetch(`${path}/settings`, { method: 'PUT', headers: auth, body: JSON.stringify(settings) });
  assert.equal(put.status, 200, await put.text());

  // The careful rater: rubric, two practice pages as expected, then the real pages.
  const careful = await run.browser.newContext();
  const page = await careful.newPage();
  const errors = watchErrors(page);
  await page.goto(`${run.server.base}${rate.link}`);
  await consentAndSurveyIfAsked(page, '[data-testid="training-rubric"]');
  await page.getByTestId('training-rubric').waitFor();
  assert.match(await page.getByTestId('training-rubric').textContent(), /misses it entirely/);
  assert.match(await page.getByTestId('training-pass').textContent(), /60%/);
  assert.ok(!(await page.content()).includes(NOTES[0]), 'no note before its page is answered');
  await expectNoSeriousA11yViolations(page, 'training rubric');
  await page.getByTestId('training-start').click();
  await page.getByTestId('training-page').waitFor();
  assert.match(await page.getByTestId('training-label').textContent(), /1 of 2|1 \/ 2/);
  await scoreAll(page, 1);
  assert.ok((await matches(page)).every((m) => m === 'true'));
  assert.match(await page.getByTestId('training-note').textContent(), /another comic/);
  await expectNoSeriousA11yViolations(page, 'training feedback');
  await page.getByTestId('training-next').click();
  await scoreAll(page, 3);
  assert.ok((await matches(page)).every((m) => m === 'true'));
  assert.match(await page.getByTestId('training-outcome').textContent(), /100%/);
  await page.getByTestId('training-done').click();
  // A real page (not a practice one), answered; after a reload the practice stays done.
  await page.waitForFunction(() => document.querySelector('[data-testid="question"]')
    && !document.querySelector('[data-testid="training-page"]'));
  const first = await page.getByTestId('question').getAttribute('data-item-id');
  assert.ok(!first.startsWith('practice-'), first);
  await scoreAll(page, 2);
  await page.waitForFunction(
    (id) => document.querySelector('[data-testid="question"]')?.getAttribute('data-item-id') !== id, first);
  await page.reload();
  await page.getByTestId('question').waitFor();
  assert.equal(await page.getByTestId('training-rubric').count(), 0, 'no rubric again after a reload');
  assert.equal(await page.getByTestId('training-page').count(), 0);
  assert.deepEqual(errors, []);
  await careful.close();

  // The careless rater: all 3s differ from page 1's expected 1s and match page 2's: about
  // half the fields (4 or 5 a page, with context handling where the comic has context).
  const fields = comics.map((c) => (c.context ? 5 : 4));
  const percent = Math.round((fields[1] * 100) / (fields[0] + fields[1]));
  assert.ok(percent < 60);
  const careless = await run.browser.newContext();
  const other = await careless.newPage();
  const otherErrors = watchErrors(other);
  await other.goto(`${run.server.base}${rate.link}`);
  await consentAndSurveyIfAsked(other, '[data-testid="training-rubric"]');
  await other.getByTestId('training-start').click();
  await scoreAll(other, 3);
  assert.ok((await matches(other)).every((m) => m === 'false'));
  await other.getByTestId('training-next').click();
  await scoreAll(other, 3);
  assert.match(await other.getByTestId('training-outcome').textContent(), new RegExp(`${percent}%`));
  await other.getByTestId('training-done').click();
  await other.getByTestId('screened-out').waitFor();
  await expectNoSeriousA11yViolations(other, 'failed qualification');
  assert.match(await other.getByTestId('screened-out').textContent(), /pass mark 60%/);
  await other.waitForURL(/\/\?screenout=/, { timeout: 15_000 });
  assert.deepEqual(otherErrors, []);
  await careless.close();
});
