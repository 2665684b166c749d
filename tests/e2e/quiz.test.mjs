// The text-meme quiz end to end in a real browser: start from the home page, consent and
// survey, answer by clicking, reload mid-quiz and resume, finish, see results and crowd rows.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startServer, launchBrowser, watchErrors, ROOT, consentAndSurvey } from './harness.mjs';

const BATCH = 6;
// The demo's questions (the quiz card shows how many).
const QUESTIONS = JSON.parse(fs.readFileSync(path.join(ROOT, 'server/demo/demo_mcq.json'), 'utf8')).length;
let server;
let browser;

before(async () => {
  server = await startServer({ MEMEBOARD__QUIZ__BATCH_SIZE: String(BATCH) });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

async function answerCurrent(page, option) {
  const question = page.getByTestId('question');
  await question.waitFor();
  const position = await question.getAttribute('data-position');
  await page.getByTestId(`option-${option}`).click();
  await page.getByTestId('submit-answer').click();
  return Number(position);
}

test('a participant takes the whole quiz, resumes after a reload, and sees results', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.base}/`);
  const card = page.getByTestId('quiz-card').first();
  await card.waitFor();
  assert.match(await card.textContent(), new RegExp(`\\b${QUESTIONS}\\b`));
  // Titles and descriptions in one language at a time (the server's are "English · 中文").
  assert.ok(!(await card.locator('h2').textContent()).includes(' · '), 'one language in the title');
  assert.ok(!(await card.locator('p').first().textContent()).includes(' · '), 'and in the description');
  await card.getByTestId('start-quiz').click();
  await page.waitForURL(/\/quiz\/demo-mcq/);
  assert.ok(!(await page.locator('h1').textContent()).includes(' · '), 'one language in the heading');
  // The consent page describes this kind of task.
  assert.match(await page.getByTestId('task-instructions').textContent(), /five options|五个选项/);
  await consentAndSurvey(page);
  await page.waitForURL(/\/session\//);
  const sessionUrl = page.url();

  // Answer three, by mouse and by keyboard.
  assert.equal(await answerCurrent(page, 0), 0);
  await page.waitForSelector('[data-testid="question"][data-position="1"]');
  assert.equal(await answerCurrent(page, 1), 1);
  await page.waitForSelector('[data-testid="question"][data-position="2"]');
  await page.keyboard.press('3');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid="question"][data-position="3"]');

  // Reload mid-quiz: the server says where to resume.
  await page.reload();
  await page.waitForSelector('[data-testid="question"][data-position="3"]');
  assert.match(await page.getByTestId('progress').textContent(), /4/);
  assert.equal(page.url(), sessionUrl);

  for (let position = 3; position < BATCH; position++) {
    await page.waitForSelector(`[data-testid="question"][data-position="${position}"]`);
    await answerCurrent(page, position % 5);
  }
  const code = page.getByTestId('completion-code');
  await code.waitFor();
  assert.match((await code.textContent()).trim(), /[A-Z2-9]{8}/);
  // The code can be copied (or the page says to copy it by hand), and there is a way back.
  await page.getByTestId('copy-code').click();
  await page.waitForFunction(() => {
    const b = document.querySelector('[data-testid="copy-code"]');
    return /Copied|已复制/.test(b.textContent) || document.querySelector('.done [role="status"]');
  });
  assert.equal(await page.getByTestId('back-home').getAttribute('href'), '/');
  await page.getByTestId('see-results').click();

  await page.getByTestId('results').waitFor();
  // The batch is drawn at random: when every item happens to be a hidden test item (about one
  // batch in eleven) there is no own score, and the page says why.
  const heldOutNote = page.getByTestId('held-out');
  const heldOut = (await heldOutNote.count()) ? Number((await heldOutNote.textContent()).match(/\d+/)[0]) : 0;
  const score = await page.getByTestId('your-score').textContent();
  if (heldOut < BATCH) assert.match(score, /\d/);
  else assert.match(score, /All your items are hidden test items/);
  assert.ok((await page.getByTestId('crowd-row').count()) >= 1, 'crowd rows are shown');
  assert.equal(await page.getByTestId('review-item').count(), BATCH);
  // Hidden test items count for the crowd, not in the own score, and keep their answers.
  assert.match(await page.getByTestId('held-out').textContent(), /\d/);

  // Switch language and back: the page re-renders without errors.
  const before = await page.locator('h1, h2').first().textContent();
  await page.getByTestId('lang-switch').click();
  await page.waitForFunction((t) => document.querySelector('h1, h2')?.textContent !== t, before);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a failed answer is resent by itself with the same key and recorded once', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.base}/quiz/demo-mcq`);
  await consentAndSurvey(page);
  await page.waitForURL(/\/session\//);
  const keys = [];
  await page.route('**/api/sessions/*/answers', async (route) => {
    keys.push(JSON.parse(route.request().postData()).idempotency_key);
    if (keys.length === 1) {
      // As the server answers when it could not store the answer (e.g. a full disk).
      return route.fulfill({
        status: 503,
        contentType: 'application/json',
        headers: { 'retry-after': '5' },
        body: JSON.stringify({ errors: [{ detail: 'the answer was not recorded' }] }),
      });
    }
    return route.continue();
  });
  assert.equal(await answerCurrent(page, 0), 0);
  await page.getByTestId('answer-retrying').waitFor();
  await page.waitForSelector('[data-testid="question"][data-position="1"]', { timeout: 15_000 });
  assert.equal(keys.length, 2, 'one failed attempt, one automatic resend');
  assert.equal(keys[0], keys[1], 'the resend reuses the idempotency key');
  assert.equal(await page.getByTestId('answer-error').count(), 0);
  assert.deepEqual(errors.filter((e) => !/503/.test(e)), []);
  await page.close();
});

test('a returning participant is offered to resume, and Prolific ids are accepted', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.base}/quiz/demo-mcq?PROLIFIC_PID=e2e-pid&STUDY_ID=e2e-study&SESSION_ID=e2e-session`);
  await consentAndSurvey(page);
  await page.waitForURL(/\/session\//);
  await answerCurrent(page, 2);
  await page.waitForSelector('[data-testid="question"][data-position="1"]');

  await page.goto(`${server.base}/quiz/demo-mcq`);
  await page.getByTestId('resume-link').click();
  await page.waitForSelector('[data-testid="question"][data-position="1"]');
  assert.deepEqual(errors, []);
  await page.close();
});

test('Prolific ids of a study link to the home page reach the session start', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  const starts = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/api\/quizzes\/[^/]+\/sessions$/.test(r.url())) {
      starts.push(JSON.parse(r.postData()));
    }
  });
  await page.goto(`${server.base}/?PROLIFIC_PID=home-pid&STUDY_ID=home-study&SESSION_ID=home-session`);
  const card = page.getByTestId('quiz-card').first();
  await card.waitFor();
  await card.getByTestId('start-quiz').click();
  await page.waitForURL(/\/quiz\/demo-mcq/);
  await consentAndSurvey(page);
  await page.waitForURL(/\/session\//);
  assert.equal(starts.length, 1);
  assert.deepEqual(starts[0].recruitment, {
    prolific_pid: 'home-pid', study_id: 'home-study', session_id: 'home-session',
  });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the server\'s first paint stays until the app has the page: no Loading in between', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  // Whenever the page changes, note whether the app's "Loading…" placeholder is visible.
  await page.addInitScript(() => {
    window.__loadingSeen = 0;
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('[data-testid="loading"]')) {
        if (el.checkVisibility()) window.__loadingSeen += 1;
      }
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  for (const [route, content] of [['/', 'quiz-card'], ['/quiz/demo-mcq', 'consent']]) {
    await page.goto(`${server.base}${route}`);
    // The app has taken over (the first paint is gone) and shows the page's content.
    await page.waitForFunction(() => !document.getElementById('boot'));
    await page.getByTestId(content).first().waitFor();
    assert.equal(await page.evaluate(() => window.__loadingSeen), 0, `${route}: Loading showed`);
    assert.equal(await page.evaluate(() => document.body.classList.contains('booting')), false);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('the layout fits a phone screen', async () => {
  const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
  await page.goto(`${server.base}/`);
  await page.getByTestId('quiz-card').first().waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the phone screen`);
  await page.close();
});
