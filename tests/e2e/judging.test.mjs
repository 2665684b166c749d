// Human judging in a real browser. Three judging tasks are created on the server's database
// with `memeboard study create-task --spec FILE.json` (the owners' command): an
// invitation-only accuracy rating (CHIME: the reference first, then Disagree / Neutral / Agree
// per field), a dimension rating of demo comics (CMPM: five 1–3 groups, context handling only
// where the comic has context), and a ranking of five and of three explanations. A rater
// rates a batch in both protocols, and ranks with a tie once by mouse (rank buttons and
// dragging a card onto a rank) and once by keyboard alone (digits, arrows, Enter). Every run
// reaches the results page; the pages have no serious accessibility violation in either
// language, and no model identity appears on them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  startServer, launchBrowser, watchErrors, expectNoSeriousA11yViolations, consentAndSurvey,
} from './harness.mjs';

const INVITE = 'e2e-invite-secret';
const ADMIN = 'e2e-judging-admin';
/** Every submission id in the specs contains this; no page may show it. */
const SECRET = 'SUBSECRET';
const MAX_QUESTIONS = 20;

let server;
let browser;
let tmp;

const out = (meaning, origin, example) => ({
  meaning,
  ...(origin ? { origin } : {}),
  ...(example ? { example } : {}),
});

function ratingItem(id, prompt, planted) {
  return {
    id, category: 'slang', split: 'dev', batch: 0,
    prompt: { kind: 'rating', ...prompt },
    gold: {
      kind: 'rating', submission_id: planted ? null : `${SECRET}-${id}`,
      source_item: `explain-${id}`, batch: 0, ...(planted ? { planted } : {}),
    },
  };
}

function spec(slug, kind, items) {
  return {
    benchmark_id: 'demo', slug, title: `Judging ${slug}`,
    description: 'Judge model explanations (end-to-end test).', kind, batch_size: items.length, items,
  };
}

async function createTask(name, body, extra = []) {
  const file = path.join(tmp, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify(body));
  const said = await server.cli(['study', 'create-task', '--spec', file, ...extra]);
  assert.match(said, /created judging task/);
}

before(async () => {
  server = await startServer({ MEMEBOARD__ADMIN__TOKEN: ADMIN });
  browser = await launchBrowser();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memeboard-judging-'));
  // Real comic panels of the demo, for the dimension rating.
  const inputs = await (await fetch(`${server.base}/api/tasks/demo-panel-type/inputs.jsonl`)).text();
  const comics = inputs.trim().split('\n').map((l) => JSON.parse(l)).slice(0, 2);
  const reference = { meaning: '形容一个人非常厉害，永远的神。', origin: '电竞圈', examples: ['他这操作，yyds！'] };
  await createTask('accuracy', spec('judge-accuracy', 'rating', [
    ratingItem('acc-1', {
      protocol: 'accuracy', subject: { kind: 'meme', phrase: 'yyds' }, reference,
      output: out('永远的神，夸人厉害', '来自电竞直播', '这波操作 yyds'),
    }),
    ratingItem('acc-2', {
      protocol: 'accuracy', subject: { kind: 'meme', phrase: 'yyds' }, reference,
      output: out('一种饮料的名字'),
    }, 'other_meaning'),
  ]), ['--invite', INVITE]);
  await createTask('dimensions', spec('judge-dimensions', 'rating', comics.map((c, i) => ratingItem(`dim-${i}`, {
    protocol: 'dimensions',
    subject: { kind: 'comic', panels: c.panels.map((p) => p.url), title: `Comic ${i + 1}` },
    output: out(`The cat waits, pounces and misses (comic ${i + 1}).`),
    has_context: i === 0,
  }))));
  const rankItem = (id, n) => ({
    id, category: 'slang', split: 'dev', batch: 0,
    prompt: {
      kind: 'ranking', subject: { kind: 'meme', phrase: `梗 ${id}` },
      candidates: Array.from({ length: n }, (_, c) => out(`explanation ${c} of ${id}`)),
    },
    gold: {
      kind: 'ranking', submissions: Array.from({ length: n }, (_, c) => `${SECRET}-model-${c}`),
      source_item: `explain-${id}`, batch: 0,
    },
  });
  await createTask('ranking', spec('judge-ranking', 'ranking', [rankItem('rk-5', 5), rankItem('rk-3', 3)]));
});
after(async () => {
  await browser?.close();
  await server?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** Consent and survey on the quiz page at `url`, up to the start request. */
async function introAndSurvey(page, url) {
  await page.goto(`${server.base}${url}`);
  await consentAndSurvey(page);
}

async function startQuiz(page, url) {
  await introAndSurvey(page, url);
  await page.waitForURL(/\/session\//);
}

/** Answers every question with `answer(page, question, n)` until the batch is done. */
async function answerAll(page, answer) {
  let n = 0;
  for (let i = 0; i < MAX_QUESTIONS; i++) {
    await page.waitForSelector('[data-testid="question"], [data-testid="completion-code"]');
    if (await page.getByTestId('completion-code').count()) break;
    const question = page.getByTestId('question');
    const position = await question.getAttribute('data-position');
    assert.ok(!(await page.content()).includes(SECRET), 'no submission id on the page');
    await answer(page, question, n);
    n++;
    await page.waitForFunction(
      (p) => !document.querySelector(`[data-testid="question"][data-position="${p}"]`),
      position,
    );
  }
  await page.getByTestId('completion-code').waitFor();
  return n;
}

async function seeResults(page, answered) {
  await page.getByTestId('see-results').click();
  await page.getByTestId('results').waitFor();
  const score = page.getByTestId('your-score');
  assert.equal(await score.getAttribute('data-state'), 'judged');
  assert.match(await score.textContent(), new RegExp(`${answered}`));
  // A rater has no score: the page does not say "Your score".
  assert.equal(await page.locator('.score-label').count(), 0);
  assert.equal(await page.getByTestId('review-item').count(), answered);
  assert.ok(!(await page.content()).includes(SECRET), 'no submission id on the results');
}

/** Axe on the current page in both languages (back to the first one after). */
async function a11yBothLanguages(page, label) {
  await expectNoSeriousA11yViolations(page, `${label} (${await page.evaluate(() => document.documentElement.lang)})`);
  const before = await page.evaluate(() => document.documentElement.lang);
  await page.getByTestId('lang-switch').click();
  await page.waitForFunction((l) => document.documentElement.lang !== l, before);
  await expectNoSeriousA11yViolations(page, `${label} (${await page.evaluate(() => document.documentElement.lang)})`);
  await page.getByTestId('lang-switch').click();
  await page.waitForFunction((l) => document.documentElement.lang === l, before);
}

test('judging tasks are not on the public list, and the invitation-only one refuses a stranger', async () => {
  const list = await (await fetch(`${server.base}/api/quizzes`)).json();
  assert.ok(!list.some((q) => q.slug.startsWith('judge-')), 'judging tasks are unlisted');
  const page = await browser.newPage();
  await page.goto(`${server.base}/quiz/judge-accuracy`);
  // Without the link's secret the page says so before consent, in the catalogue's words.
  const refusal = page.getByTestId('refusal');
  await refusal.waitFor();
  assert.match(await refusal.textContent(), /by invitation only|仅限受邀/);
  assert.equal(await page.getByTestId('consent').count(), 0);
  assert.ok(!page.url().includes('/session/'));
  await page.close();
});

test('accuracy rating: the reference first, then a verdict per field the explanation has', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await startQuiz(page, `/quiz/judge-accuracy?invite=${INVITE}`);
  // Raters get the boards bundle (the quiz bundle leaves the judging kinds out), also when
  // they come back to the session's own address.
  const bundle = () => page.evaluate(() => [...document.scripts].some((s) => s.textContent.includes('/boards-app/memeboard-boards-')));
  assert.ok(await bundle(), 'the quiz page of a judging task loads the boards bundle');
  await page.reload();
  await page.getByTestId('question').waitFor();
  assert.ok(await bundle(), 'the session page of a judging task loads the boards bundle');
  let checked = false;
  const answered = await answerAll(page, async (p, question) => {
    assert.equal(await question.getAttribute('data-protocol'), 'accuracy');
    const reference = question.getByTestId('judging-reference');
    const output = question.getByTestId('rating-output');
    await reference.waitFor();
    // The reference comes before the explanation on the page.
    const first = await p.evaluate(() => {
      const r = document.querySelector('[data-testid="judging-reference"]');
      const o = document.querySelector('[data-testid="rating-output"]');
      return Boolean(r.compareDocumentPosition(o) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    assert.ok(first, 'reference before the output');
    const fields = await question.getByTestId('verdict-group').evaluateAll(
      (groups) => groups.map((g) => g.getAttribute('data-field')),
    );
    const hasOrigin = (await output.getByTestId('output-origin').count()) > 0;
    assert.deepEqual(fields, hasOrigin ? ['meaning', 'origin', 'example'] : ['meaning']);
    // Each group asks about the paper's statement on its field (CHIME §4.3).
    assert.match(await question.getByTestId('statement').first().textContent(),
      /completely accurate and aligns perfectly|完全准确/);
    if (!checked) {
      await a11yBothLanguages(p, 'accuracy rating page');
      checked = true;
    }
    const submit = question.getByTestId('rating-submit');
    for (const field of fields) {
      assert.ok(await submit.isDisabled(), 'submit waits for every group');
      const value = field === 'meaning' ? (hasOrigin ? 'agree' : 'disagree') : 'neutral';
      await question.locator(`[data-testid="verdict"][data-field="${field}"][data-value="${value}"]`).check();
    }
    await submit.click();
  });
  assert.equal(answered, 2);
  await seeResults(page, answered);
  // With several batches per rater, the rater who finished is offered the next batch in
  // those words (not "Start over").
  const auth = { authorization: `Bearer ${ADMIN}` };
  const task = `${server.base}/api/owner/tasks/judge-accuracy`;
  const { settings } = await (await fetch(`${task}/console`, { headers: auth })).json();
  settings.study.batches_per_rater = 2;
  const put = await fetch(`${task}/settings`, {
    method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(settings),
  });
  assert.equal(put.status, 200, await put.text());
  await page.goto(`${server.base}/quiz/judge-accuracy?invite=${INVITE}`);
  await page.getByTestId('finished').waitFor();
  assert.match(await page.getByTestId('start-over').textContent(), /next batch|下一批/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('dimension rating of comics: five 1–3 groups, context handling only with context', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await startQuiz(page, '/quiz/judge-dimensions');
  let checked = false;
  let withContext = 0;
  const answered = await answerAll(page, async (p, question) => {
    assert.equal(await question.getAttribute('data-protocol'), 'dimensions');
    // A comic's explanation is one text: labelled so, not as a meme's meaning.
    assert.match(await question.locator('.judged-output dt').first().textContent(), /^(Explanation|解释)$/);
    // The comic's panels, with the panel kinds' image markup.
    const panels = question.locator('[data-testid="judged-comic"] img.panel-img');
    assert.ok((await panels.count()) >= 2, 'panels shown');
    const dims = await question.getByTestId('dimension-group').evaluateAll(
      (groups) => groups.map((g) => g.getAttribute('data-dimension')),
    );
    const context = dims.includes('context_handling');
    withContext += context ? 1 : 0;
    assert.equal(dims.length, context ? 5 : 4);
    if (!checked) {
      await a11yBothLanguages(p, 'dimension rating page');
      checked = true;
    }
    for (const [k, d] of dims.entries()) {
      await question.locator(`[data-testid="dimension-score"][data-dimension="${d}"][data-value="${(k % 3) + 1}"]`).check();
    }
    await question.getByTestId('rating-submit').click();
  });
  assert.equal(answered, 2);
  assert.equal(withContext, 1, 'one comic has context');
  await seeResults(page, answered);
  assert.deepEqual(errors, []);
  await page.close();
});

/** The ranks shown on the cards, in display order. */
const cardRanks = (question) => question.getByTestId('rank-card').evaluateAll(
  (cards) => cards.map((c) => c.getAttribute('data-rank')),
);

test('ranking by mouse: rank buttons and dragging a card onto a rank, with a tie', async () => {
  // Tall enough that the cards and the rank slots are on screen together (no scrolling
  // while the mouse drags).
  const context = await browser.newContext({ viewport: { width: 1280, height: 2400 } });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await startQuiz(page, '/quiz/judge-ranking');
  let checked = false;
  const answered = await answerAll(page, async (p, question) => {
    const cards = question.getByTestId('rank-card');
    const n = await cards.count();
    assert.ok(n === 5 || n === 3, `${n} candidates`);
    const submit = question.getByTestId('ranking-submit');
    // A and B tie for best (buttons); the rest follow on.
    await cards.nth(0).locator('[data-testid="rank-button"][data-rank="1"]').click();
    await cards.nth(1).locator('[data-testid="rank-button"][data-rank="1"]').click();
    assert.match(await question.getByTestId('rank-announce').textContent(), /tied with A|与 A 并列/);
    for (let c = 2; c < n - 1; c++) {
      await cards.nth(c).locator(`[data-testid="rank-button"][data-rank="${c}"]`).click();
    }
    assert.ok(await submit.isDisabled(), 'not every card has a rank yet');
    // The last card is dragged onto its rank slot.
    await cards.nth(n - 1).dragTo(question.locator(`[data-testid="rank-slot"][data-rank="${n - 1}"]`));
    const expected = ['1', '1', ...Array.from({ length: n - 2 }, (_, i) => String(i + 2))];
    assert.deepEqual(await cardRanks(question), expected);
    assert.match(await question.locator('[data-testid="rank-slot"][data-rank="1"]').textContent(), /A B/);
    if (!checked) {
      await a11yBothLanguages(p, 'ranking page');
      checked = true;
    }
    await submit.click();
  });
  assert.equal(answered, 2);
  await seeResults(page, answered);
  assert.deepEqual(errors, []);
  await context.close();
});

test('ranking by keyboard: digits rank the focused card, arrows move, Enter submits', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = watchErrors(page);
  await startQuiz(page, '/quiz/judge-ranking');
  const answered = await answerAll(page, async (p, question) => {
    const cards = question.getByTestId('rank-card');
    const n = await cards.count();
    await cards.nth(0).focus();
    // Ranks in display order: the last two tie for worst.
    const ranks = Array.from({ length: n }, (_, i) => Math.min(i + 1, n - 1));
    for (const [i, r] of ranks.entries()) {
      await p.keyboard.press(String(r));
      if (i < n - 1) await p.keyboard.press('ArrowDown');
    }
    assert.deepEqual(await cardRanks(question), ranks.map(String));
    assert.match(await question.getByTestId('rank-announce').textContent(), /tied with|并列/);
    // Arrows wrap to the first card; 0 clears and a digit sets again.
    await p.keyboard.press('ArrowDown');
    await p.keyboard.press('0');
    assert.equal((await cardRanks(question))[0], '');
    await p.keyboard.press('1');
    await p.keyboard.press('Enter');
  });
  assert.equal(answered, 2);
  await seeResults(page, answered);
  assert.deepEqual(errors, []);
  await context.close();
});
