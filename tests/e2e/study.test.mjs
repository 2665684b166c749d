// A human-evaluation study end to end, from a clean start: the demo explanation board's
// models (the demo submissions, scored by the tiny test model) are on the board; an owner
// creates an accuracy study in the console (top 3 models, planted checks, CHIME's page of one
// meme with every model's explanation); two raters rate their batch in Chromium through the
// study link (one saves an explanation and reloads: it stays saved); the board then shows the human-judged
// columns, the agreement figures and the metric-validity panel, and the study page its
// progress and the CHIME paper's Tables 3, 11 and 12. Every page has no serious accessibility violation in either language, and no
// rater page names a model.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  startServer, launchBrowser, watchErrors, expectNoSeriousA11yViolations, consentAndSurvey,
  tinyBertSettings, nextRaterQuestion,
} from './harness.mjs';

const ADMIN = 'admin-token-for-study-e2e';
const BOARD = 'demo-explain';
const MAX_PAGES = 60;
const MODELS = process.env.MEMEBOARD_TEST_MODELS;
const skip = !MODELS || !fs.existsSync(path.join(MODELS, 'tiny-bert'));
if (skip && process.env.MEMEBOARD_REQUIRE_MODELS === '1') {
  throw new Error('MEMEBOARD_REQUIRE_MODELS=1 but MEMEBOARD_TEST_MODELS has no tiny-bert');
}

let server;
let browser;

before(async () => {
  if (skip) return;
  server = await startServer({
    MEMEBOARD__ADMIN__TOKEN: ADMIN,
    ...tinyBertSettings(MODELS),
  });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** The demo models reach the board in the background after start-up. */
async function demoModels() {
  for (let i = 0; i < 600; i++) {
    const board = await (await fetch(`${server.base}/api/boards/${BOARD}`)).json();
    const models = (board.rows ?? []).filter((r) => r.kind === 'model');
    if (models.length >= 4) return models;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the demo submissions never reached the board');
}

async function a11yBothLanguages(page, label) {
  const lang = () => page.evaluate(() => document.documentElement.lang);
  const first = await lang();
  await expectNoSeriousA11yViolations(page, `${label} (${first})`);
  await page.getByTestId('lang-switch').click();
  await page.waitForFunction((l) => document.documentElement.lang !== l, first);
  await expectNoSeriousA11yViolations(page, `${label} (${await lang()})`);
  await page.getByTestId('lang-switch').click();
  await page.waitForFunction((l) => document.documentElement.lang === l, first);
}

/** Share of the output's character pairs (bigrams) that also appear in the reference. */
function overlap(output, reference) {
  const pairs = (text) => {
    const chars = [...text.replace(/[\s\p{P}]/gu, '')];
    return chars.slice(1).map((c, i) => chars[i] + c);
  };
  const ref = new Set(pairs(reference));
  const out = pairs(output);
  if (out.length === 0) return 0;
  return out.filter((p) => ref.has(p)).length / out.length;
}

/** The verdict a rater gives an output, by its overlap with the reference. */
function verdictFor(output, reference, strict) {
  const share = overlap(output, reference);
  return share > (strict ? 0.7 : 0.6) ? 'agree' : share > (strict ? 0.25 : 0.2) ? 'neutral' : 'disagree';
}

/** Judges one explanation's verdict groups inside `scope` (the meaning by overlap); a
 * meaning judged wrong is tagged with the paper's "semantic shift" (the error labels appear
 * only then). Returns whether it was tagged. */
async function judge(scope, reference, strict) {
  const output = await scope.getByTestId('output-meaning').textContent();
  const verdict = verdictFor(output, reference, strict);
  const fields = await scope.getByTestId('verdict-group').evaluateAll(
    (groups) => groups.map((g) => g.getAttribute('data-field')),
  );
  for (const field of fields) {
    const value = field === 'meaning' ? verdict : 'neutral';
    await scope.locator(`[data-testid="verdict"][data-field="${field}"][data-value="${value}"]`).check();
  }
  if (verdict !== 'disagree') {
    assert.ok(!(await scope.getByTestId('error-labels').isVisible()), 'no error labels on an output not judged wrong');
    return false;
  }
  await scope.getByTestId('error-labels').waitFor({ state: 'visible' });
  await scope.getByTestId('error-label-semantic_shift').check();
  return true;
}

/**
 * One rater takes the study link to the end (CHIME's design: a page is one meme with every
 * model's explanation, each saved on its own); `strict` moves the thresholds a little;
 * `first` also checks the page's accessibility and that a reload keeps what was saved.
 * Returns the explanations judged and the pages seen.
 */
async function rate(link, strict, modelNames, first = false) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.base}${link}`);
  await consentAndSurvey(page);
  await page.waitForURL(/\/session\//);
  let judged = 0;
  let pages = 0;
  for (let i = 0; i < MAX_PAGES; i++) {
    const question = await nextRaterQuestion(page, modelNames);
    if (!question) break;
    assert.equal(await question.getAttribute('data-page'), 'subject', 'one page per meme');
    const position = await question.getAttribute('data-position');
    assert.match(await question.locator('[data-field="meaning"] [data-testid="statement"]').first().textContent(), /^E2E/);
    // The reference once, above every model's explanation of the meme (3 models).
    assert.equal(await question.getByTestId('reference-meaning').count(), 1);
    const reference = await question.getByTestId('reference-meaning').textContent();
    const outputs = question.getByTestId('page-output');
    assert.equal(await outputs.count(), 3, 'three explanations on the page');
    if (first && pages === 0) {
      await a11yBothLanguages(page, 'a meme with every explanation');
      // The first explanation saved, then a reload: it stays saved, the others open.
      await judge(outputs.nth(0), reference, strict);
      await outputs.nth(0).getByTestId('page-output-save').click();
      await outputs.nth(0).getByTestId('page-output-saved').waitFor();
      judged++;
      await page.reload();
      await page.getByTestId('question').waitFor();
      assert.equal(await page.getByTestId('page-output-saved').count(), 1, 'kept after a reload');
      assert.equal(await page.getByTestId('page-output-save').count(), 2);
    }
    const count = await outputs.count();
    for (let k = 0; k < count; k++) {
      const one = outputs.nth(k);
      if (await one.getByTestId('page-output-saved').count()) continue;
      await judge(one, reference, strict);
      await one.getByTestId('page-output-save').click();
      judged++;
    }
    pages++;
    await page.waitForFunction(
      (p) => !document.querySelector(`[data-testid="question"][data-position="${p}"]`),
      position,
    );
  }
  await page.getByTestId('completion-code').waitFor();
  assert.deepEqual(errors, []);
  await context.close();
  return { judged, pages };
}

test('an owner creates a study from the demo board, raters rate, the board shows what people think', { skip }, async () => {
  const models = await demoModels();
  const modelNames = models.map((m) => m.label);

  // The owner: console, study form, links.
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  const ownerErrors = watchErrors(owner);
  await owner.goto(`${server.base}/console`);
  await owner.getByTestId('owner-token').fill(ADMIN);
  await owner.getByTestId('owner-token-save').click();
  await owner.locator(`[data-testid="owner-tasks"] a[href="/console/${BOARD}"]`).click();
  await owner.waitForURL(new RegExp(`/console/${BOARD}`));
  await owner.getByTestId('study-form').waitFor();
  await owner.getByTestId('study-slug').fill('e2e-study');
  await owner.getByTestId('study-top').fill('3');
  await owner.getByTestId('study-items').fill('1');
  await owner.getByTestId('study-batch').fill('40');
  await owner.getByTestId('study-raters').fill('2');
  await owner.getByTestId('study-planted').check();
  await owner.getByTestId('study-seed').fill('11');
  // CHIME's design: a meme with every model's explanation on one page.
  await owner.getByTestId('study-one-page').check();
  // The paper's error types (CHIME: origin confusion, semantic shift, cross-type confusion).
  await owner.getByTestId('study-error-labels').check();
  assert.ok(await owner.getByTestId('study-error-labels-paper').isChecked());
  assert.match(await owner.getByTestId('study-error-labels-list').inputValue(), /semantic_shift/);
  // The paper's statements are filled in; the owner rewords the one on the meaning.
  const statement = owner.getByTestId('study-statement-meaning-en');
  assert.match(await statement.inputValue(), /completely accurate/);
  await statement.fill('E2E: the meaning is right.');
  await owner.getByTestId('study-statement-meaning-zh').fill('E2E：含义正确。');
  // The preview first: what each category offers and what this request draws.
  await owner.getByTestId('study-preview-button').click();
  await owner.getByTestId('study-preview').waitFor();
  const drawn = await owner.getByTestId('preview-drawn').allTextContents();
  assert.ok(drawn.length > 0 && drawn.every((d) => Number(d) <= 1), drawn.join(','));
  assert.match(await owner.getByTestId('preview-summary').textContent(), /rater/);
  await owner.getByTestId('study-create').click();
  await owner.waitForSelector('[data-testid="study-created"], [data-testid="study-error"]')
    .catch(async (e) => { throw new Error(`${e}\n${await owner.locator('body').innerText()}`); });
  assert.equal(await owner.getByTestId('study-error').count(), 0,
    await owner.getByTestId('study-error').allTextContents().then((t) => t.join(' ')));
  const link = new URL(await owner.getByTestId('rater-link').first().getAttribute('href'));
  assert.equal(link.pathname, '/quiz/e2e-study-rate');
  await a11yBothLanguages(owner, 'console with the study form');

  // Two raters, each through the whole (only) batch.
  const first = await rate(link.pathname, false, modelNames, true);
  const second = await rate(link.pathname, true, modelNames);
  assert.deepEqual(first, second);
  assert.ok(first.pages >= 2, `${first.pages} pages`);
  assert.equal(first.judged, 3 * first.pages, 'three explanations per page');

  // The board: human columns for the three judged models, agreement, validity panel.
  const viewer = await browser.newPage();
  const viewerErrors = watchErrors(viewer);
  await viewer.goto(`${server.base}/boards/${BOARD}`);
  await viewer.getByTestId('human-eval').waitFor().catch(async (e) => {
    const board = await (await fetch(`${server.base}/api/boards/${BOARD}`)).json();
    throw new Error(`${e}\nhuman_eval: ${JSON.stringify(board.human_eval)}`);
  });
  // Nobody was excluded: both raters judged the planted outputs the right way round.
  const summary = await viewer.getByTestId('study-summary').first().textContent();
  if (!/2 raters \(0 excluded\)/.test(summary)) {
    const res = await fetch(`${server.base}/api/owner/tasks/e2e-study-rate/console`, { headers: { authorization: `Bearer ${ADMIN}` } });
    assert.fail(`${summary}: ${JSON.stringify((await res.json()).exclusions)}`);
  }
  assert.equal(await viewer.getByTestId('human-row').count(), 3);
  assert.match(await viewer.getByTestId('human-agree').first().textContent(), /%/);
  await viewer.getByTestId('kappa-summary').waitFor();
  await viewer.getByTestId('validity-panel').waitFor();
  // Identification (the board's score), cosine, rescaled cosine, BERTScore-F1.
  assert.equal(await viewer.getByTestId('validity-row').count(), 4);
  await a11yBothLanguages(viewer, 'board with human columns');
  assert.deepEqual(viewerErrors, []);

  // The study page: both raters finished the batch.
  await owner.goto(`${server.base}/console/studies/e2e-study`);
  await owner.getByTestId('study-page').waitFor();
  assert.equal((await owner.getByTestId('batch-finished').first().textContent()).trim(), '2');
  assert.equal(await owner.getByTestId('study-models').locator('li').count(), 3);
  // The papers' tables (CHIME): Table 3 (model × field) and Table 12 (model × meme type, on
  // the meaning) with a row per judged model, Table 11 with Fleiss' κ per batch.
  for (const id of ['study-table-3', 'study-table-12']) {
    const table = owner.getByTestId(id);
    await table.waitFor();
    assert.ok(await table.locator('caption').count(), `${id} has a caption`);
    assert.equal(await table.getByTestId('study-table-row').count(), 3, id);
    assert.match(await table.locator('tbody td').first().textContent(), /%/, id);
  }
  // The error labels: a row per model and label, and agreement per label (3 labels).
  const types = owner.getByTestId('study-table-error-types');
  await types.waitFor();
  assert.equal(await types.locator('tbody tr').count(), 3 * 3, 'three models × three labels');
  assert.equal(await owner.getByTestId('study-table-error-agreement').locator('tbody tr').count(), 3);
  const kappas = await owner.getByTestId('study-table-11').getByTestId('batch-kappa').allTextContents();
  assert.ok(kappas.length >= 1, 'a κ row per batch');
  for (const k of kappas) assert.match(k.trim(), /^(-?\d+\.\d{2}|—)$/, k);
  // The rater links, whole, beside their copy buttons.
  assert.equal(
    (await owner.getByTestId('rater-link-copy').first().textContent()).trim(),
    `${server.base}/quiz/e2e-study-rate`,
  );
  await a11yBothLanguages(owner, 'study page');
  assert.deepEqual(ownerErrors, []);
  await ownerContext.close();
});
