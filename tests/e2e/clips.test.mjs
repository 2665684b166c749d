// The audio-visual meme clip quiz in a real browser: the headphone check before the start
// (passed with the answer key read through the debug-build-only route, since the page never
// holds it), every clip played for
// real (its media element advances and ends), the familiarity question before each question,
// reloads mid-quiz that resume at the right stage, and the results page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, watchErrors, headphoneKey, seeResults } from './harness.mjs';

const SLUG = 'demo-clips';
/** Upper bound on questions per batch (the loop ends at the completion code). */
const MAX_QUESTIONS = 60;
/** How long one clip may take to load and play to its end. */
const CLIP_MS = 90_000;
const FAMILIARITIES = ['familiar', 'seen_not_familiar', 'unseen'];

// Small demo: show the board's per-group figures over few answers (default minimum 10).
const run = serverAndBrowser({ MEMEBOARD__LEADERBOARD__MIN_CATEGORY_ITEMS: '1' });

/** Consent on the intro page of the clip quiz (opened with `query`). */
async function consent(page, query) {
  await page.goto(`${run.server.base}/quiz/${SLUG}${query}`);
  // The consent page describes the clip task: headphones, no search, familiarity first.
  assert.match(await page.getByTestId('task-instructions').textContent(), /[Hh]eadphones|耳机/);
  await page.getByTestId('consent-checkbox').check();
  await page.getByTestId('consent-continue').click();
  await page.getByTestId('headphone-check').waitFor();
}

/** Sets the volume with the calibration tone, then starts the trials. */
async function calibrate(page) {
  await page.getByTestId('hp-calibrate').click();
  // Enabled once the calibration tone has played.
  await page.getByTestId('hp-start').click({ timeout: 20_000 });
}

/** Passes all six trials by answering the quietest tone of the server's answer key. */
async function passHeadphoneCheck(page) {
  const key = await headphoneKey(page, run.server.base);
  assert.equal(key.length, 6);
  await calibrate(page);
  for (let k = 1; k <= 6; k++) {
    const trial = page.locator(`[data-testid="hp-trial"][data-trial="${k}"]`);
    await trial.waitFor();
    const quietest = String(key[k - 1]);
    assert.match(quietest, /^[123]$/, `trial ${k} has a quiet tone`);
    const answer = trial.locator(`[data-testid="hp-answer"][data-choice="${quietest}"]`);
    assert.ok(await answer.isDisabled(), 'answers wait for the tones');
    await trial.getByTestId('hp-play').click();
    // The answers open once the three tones (4 s) have played.
    await answer.click({ timeout: 20_000 });
  }
  await page.getByTestId('hp-done').waitFor();
}

/** The survey (native language Chinese), then the start; the start request's body. */
async function surveyAndStart(page) {
  await page.getByTestId('survey').waitFor();
  await page.getByTestId('survey-age').selectOption({ index: 2 });
  await page.getByTestId('survey-language').selectOption('chinese');
  await page.getByTestId('survey-online').selectOption({ index: 3 });
  await page.getByTestId('survey-familiarity').selectOption({ index: 4 });
  const start = page.waitForRequest(
    (r) => r.method() === 'POST' && r.url().endsWith(`/api/quizzes/${SLUG}/sessions`),
  );
  await page.getByTestId('survey-submit').click();
  const body = JSON.parse((await start).postData());
  await page.waitForURL(/\/session\//);
  return body;
}

/** Plays the question's clip with the page's Play button and checks it really plays. */
async function playClip(page, question) {
  const media = question.getByTestId('clip-media');
  const handle = await media.elementHandle();
  const clicked = Date.now();
  await question.getByTestId('clip-play').click();
  // The element advances (or, for a very short clip, has already ended).
  await page.waitForFunction(
    (el) => el.ended || (!el.paused && el.currentTime > 0),
    handle,
    { timeout: CLIP_MS, polling: 10 },
  );
  // A figure, not a check: time from the click to the clip playing (localhost).
  console.log(`[clips] first sound ${Date.now() - clicked} ms after Play`);
  const state = await media.evaluate((el) => ({
    paused: el.paused, ended: el.ended, time: el.currentTime, error: el.error?.code ?? null,
  }));
  assert.equal(state.error, null, 'the clip loads');
  assert.ok(state.ended || (!state.paused && state.time > 0), `the clip plays: ${JSON.stringify(state)}`);
  return handle;
}

/** Plays the clip to its end; the familiarity question opens only then. */
async function playToEnd(page, question) {
  const submit = question.getByTestId('familiarity-submit');
  assert.ok(await submit.isDisabled(), 'familiarity waits for the clip');
  assert.ok(
    await question.locator('[data-testid="familiarity-option"]').first().isDisabled(),
    'familiarity options wait for the clip',
  );
  const handle = await playClip(page, question);
  await page.waitForFunction((el) => el.ended, handle, { timeout: CLIP_MS });
  assert.ok((await question.getByTestId('clip-progress').getAttribute('value')) > 0);
}

/** Answers the familiarity question; the question and its options appear. */
async function answerFamiliarity(page, question, familiarity) {
  assert.equal(await question.locator('[data-testid="familiarity-option"]').count(), 3);
  await question
    .locator(`[data-testid="familiarity-option"][data-familiarity="${familiarity}"]`)
    .check();
  const sent = page.waitForRequest(
    (r) => r.method() === 'POST' && /\/api\/sessions\/[^/]+\/prefaces$/.test(r.url()),
  );
  await question.getByTestId('familiarity-submit').click();
  const body = JSON.parse((await sent).postData());
  assert.equal(body.familiarity, familiarity);
  assert.equal(body.item_id, await question.getAttribute('data-item-id'));
  await question.getByTestId('clip-question').waitFor();
  assert.equal(await question.getAttribute('data-stage'), 'question');
}

/** Chooses option `choice` (modulo the option count) and sends it; the answer's body and
 * the option count. */
async function answerQuestion(page, question, choice) {
  const options = question.getByTestId('clip-option');
  const n = await options.count();
  assert.ok(n >= 2, 'the question has options');
  const letters = await question.locator('.clip-option .letter').allTextContents();
  assert.deepEqual(letters, Array.from({ length: n }, (_, i) => String.fromCharCode(65 + i)));
  const submit = question.getByTestId('clip-submit');
  assert.ok(await submit.isDisabled(), 'nothing chosen yet');
  await question.locator(`[data-testid="clip-option"][data-position="${choice % n}"]`).check();
  const sent = page.waitForRequest(
    (r) => r.method() === 'POST' && /\/api\/sessions\/[^/]+\/answers$/.test(r.url()),
  );
  await submit.click();
  return { body: JSON.parse((await sent).postData()), n };
}

/** Waits until the question at `position` has been replaced (next one, or the code). */
async function waitForNext(page, position) {
  await page.waitForFunction(
    (p) => !document.querySelector(`[data-testid="question"][data-position="${p}"]`),
    position,
  );
}

test('a participant passes the headphone check, plays every clip, resumes after reloads, and sees results', async () => {
  const page = await run.browser.newPage();
  const errors = watchErrors(page);
  await consent(page, '');
  await passHeadphoneCheck(page);
  await page.getByTestId('hp-continue').click();
  const start = await surveyAndStart(page);
  // The page sends the positions chosen; the server scores them against its key.
  assert.match(start.headphone_check.id, /^[0-9a-f]{32}$/);
  assert.equal(start.headphone_check.answers.length, 6);
  assert.equal(start.survey.native_language, 'chinese');

  let answered = 0;
  let resumedAtQuestion = false;
  let resumedAtClip = false;
  for (let i = 0; i < MAX_QUESTIONS; i++) {
    await page.waitForSelector('[data-testid="question"], [data-testid="completion-code"]');
    if (await page.getByTestId('completion-code').count()) break;
    const question = page.getByTestId('question');
    const position = await question.getAttribute('data-position');
    if (i === 0) {
      // The clip has no native seek bar before the familiarity answer.
      assert.equal(await question.getByTestId('clip-media').getAttribute('controls'), null);
      assert.equal(await question.getByTestId('clip-media').getAttribute('preload'), 'auto');
      assert.equal(await question.getByTestId('clip-question').count(), 0);
    }
    let replays = 0;
    if ((await question.getAttribute('data-stage')) === 'familiarity') {
      await playToEnd(page, question);
      await answerFamiliarity(page, question, FAMILIARITIES[answered % 3]);
      if (!resumedAtQuestion) {
        // Familiarity stored, question not answered: a reload resumes at the question.
        resumedAtQuestion = true;
        await page.reload();
        const resumed = page.locator(`[data-testid="question"][data-position="${position}"]`);
        await resumed.waitFor();
        assert.equal(await resumed.getAttribute('data-stage'), 'question');
        await resumed.getByTestId('clip-question').waitFor();
        assert.equal(await resumed.getByTestId('familiarity-submit').count(), 0);
        // After the familiarity answer the clip may be replayed, with native controls.
        assert.notEqual(await resumed.getByTestId('clip-media').getAttribute('controls'), null);
        await playClip(page, resumed);
        replays = 1;
      }
    } else {
      // Only a reloaded item may start at the question.
      assert.ok(resumedAtQuestion, `question ${position} started without its familiarity answer`);
    }
    const { body, n } = await answerQuestion(page, page.getByTestId('question'), answered);
    assert.equal(body.answer.kind, 'clip_choice');
    assert.equal(body.answer.position, answered % n);
    assert.ok(body.answer.plays >= 1 + replays, `plays counted: ${body.answer.plays}`);
    answered++;
    await waitForNext(page, position);

    if (answered === 2 && !resumedAtClip) {
      // Between items: a reload shows the next clip from the start, familiarity first.
      await page.waitForSelector('[data-testid="question"], [data-testid="completion-code"]');
      if (await page.getByTestId('question').count()) {
        resumedAtClip = true;
        const next = await page.getByTestId('question').getAttribute('data-position');
        await page.reload();
        const resumed = page.locator(`[data-testid="question"][data-position="${next}"]`);
        await resumed.waitFor();
        assert.equal(await resumed.getAttribute('data-stage'), 'familiarity');
        assert.equal(await resumed.getByTestId('clip-question').count(), 0);
      }
    }
  }
  await page.getByTestId('completion-code').waitFor();
  assert.ok(answered >= 2, `the batch had clips (${answered})`);
  assert.ok(resumedAtQuestion, 'the reload at the question was tried');

  await seeResults(page, answered);
  assert.ok((await page.getByTestId('review-question').count()) >= 1, 'review cards show the question');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a browser that cannot play the clips is told so before consent', async () => {
  const page = await run.browser.newPage();
  // This browser plays no WebM and no Ogg (the page asks the media element, as a real
  // browser without those codecs answers).
  await page.addInitScript(() => {
    const can = HTMLMediaElement.prototype.canPlayType;
    HTMLMediaElement.prototype.canPlayType = function (type) {
      return /webm|ogg/.test(type) ? '' : can.call(this, type);
    };
  });
  await page.goto(`${run.server.base}/quiz/${SLUG}?PROLIFIC_PID=device-e2e&STUDY_ID=S1`);
  const refusal = page.getByTestId('refusal');
  await refusal.waitFor();
  assert.match(await refusal.textContent(), /(audio|video)\/(webm|ogg)/);
  assert.match(await refusal.textContent(), /open the link in a current Chrome|请用最新版 Chrome/);
  assert.equal(await page.getByTestId('consent').count(), 0, 'no consent card');
  await page.close();
});

test('the next clip is fetched ahead, and the trial names no tone', async () => {
  const page = await run.browser.newPage();
  const errors = watchErrors(page);
  await consent(page, '');
  await calibrate(page);
  const trial = page.locator('[data-testid="hp-trial"][data-trial="1"]');
  await trial.waitFor();
  assert.equal(await trial.getAttribute('data-quietest'), null);
  assert.equal(await trial.getByTestId('hp-answer').count(), 3);
  // Finish the check (any answers: the result is sent whatever it is).
  for (let k = 1; k <= 6; k++) {
    const t = page.locator(`[data-testid="hp-trial"][data-trial="${k}"]`);
    await t.getByTestId('hp-play').click();
    await t.locator('[data-testid="hp-answer"][data-choice="1"]').click({ timeout: 20_000 });
  }
  await page.getByTestId('hp-continue').click();
  const start = await surveyAndStart(page);
  // The check's id and the six answers: the server scores them (the page holds no key).
  assert.match(start.headphone_check.id, /^[0-9a-f]{32}$/);
  assert.equal(start.headphone_check.answers.length, 6);
  const question = page.getByTestId('question');
  await question.waitFor();
  const preload = question.getByTestId('clip-preload');
  if (await preload.count()) {
    assert.equal(await preload.getAttribute('preload'), 'auto');
    const src = await preload.getAttribute('src');
    assert.notEqual(src, await question.getByTestId('clip-media').getAttribute('src'));
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('the clip board shows a model, the humans by familiarity and chance, on full and main', async () => {
  // A model file through the API: the letter of the first option everywhere.
  const author = await (await fetch(`${run.server.base}/api/authors`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Clip Team', organisation: 'Lab' }),
  })).json();
  // While the quiz is open, a clip task's inputs are given only with an author token.
  const inputs = (await (await fetch(`${run.server.base}/api/tasks/${SLUG}/inputs.jsonl`, {
    headers: { authorization: `Bearer ${author.token}` },
  })).text())
    .trim().split('\n').map((l) => JSON.parse(l));
  assert.ok(inputs.every((i) => i.choices[0].letter === 'A'));
  const body = inputs.map((i) => JSON.stringify({ item_id: i.item_id, answer: 'A' })).join('\n') + '\n';
  const res = await fetch(`${run.server.base}/api/tasks/${SLUG}/submissions?model=Letter-A`, {
    method: 'POST', headers: { authorization: `Bearer ${author.token}` }, body,
  });
  assert.equal(res.status, 201, await res.text());

  const page = await run.browser.newPage();
  const errors = watchErrors(page);
  await page.goto(`${run.server.base}/boards/${SLUG}`);
  const model = page.locator('[data-testid="board-row"][data-label="Letter-A"]');
  await model.waitFor();
  assert.ok((await page.locator('[data-testid="board-row"][data-kind="baseline"]').count()) >= 1);
  const board = await (await fetch(`${run.server.base}/api/boards/${SLUG}`)).json();
  assert.deepEqual(board.subsets, ['full', 'main']);
  if (board.rows.some((r) => r.kind === 'human_average')) {
    assert.ok((await page.locator('[data-testid="board-row"][data-kind="human"]').count()) >= 1);
  }
  await page.getByTestId('familiarity-chart').waitFor();
  // On a phone the board does not scroll sideways (its hidden familiarity table once did).
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the clip board is ${overflow}px wider than a phone screen`);
  await page.setViewportSize({ width: 1280, height: 800 });
  // The switch: the main subset (clips not answerable from text alone).
  await page.getByTestId('subset-switch').getByTestId('subset-main').click();
  await page.waitForURL(/subset=main/);
  await model.waitFor();
  const main = await (await fetch(`${run.server.base}/api/boards/${SLUG}?subset=main`)).json();
  assert.equal(main.subset, 'main');
  assert.ok(main.items <= board.items);
  assert.deepEqual(errors, []);
  await page.close();
});
