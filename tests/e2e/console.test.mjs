// The owner's console end to end: an owner opens the console with their token and sets a
// completion redirect and an attention check; a participant (another browser context) takes
// the quiz, passes the check, finishes and lands on the redirect URL; the owner's progress
// view updates without a reload; an owner scores every upload again and the board says so.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startServer, launchBrowser, watchErrors, expectNoSeriousA11yViolations, consentAndSurvey } from './harness.mjs';

const BATCH = 4;
const ADMIN = 'admin-token-for-console-e2e';
let server;
let browser;

before(async () => {
  server = await startServer({
    MEMEBOARD__QUIZ__BATCH_SIZE: String(BATCH),
    MEMEBOARD__ADMIN__TOKEN: ADMIN,
  });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

async function ownerToken() {
  const res = await fetch(`${server.base}/api/admin/owners`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ benchmark: 'demo', name: 'E2E lab' }),
  });
  assert.equal(res.status, 201);
  return (await res.json()).token;
}

/** Answers every item of the participant's batch (and its attention check); whether a check came. */
async function finishQuiz(page, session) {
  let checked = false;
  for (let answered = 0; answered < BATCH;) {
    const shown = page.locator('[data-testid="question"], [data-testid="attention-check"]').first();
    await shown.waitFor();
    if ((await shown.getAttribute('data-testid')) === 'attention-check') {
      await expectNoSeriousA11yViolations(page, 'attention check');
      await page.getByTestId(`check-option-${session.checks[0].target}`).check();
      await page.getByTestId('check-continue').click();
      await page.getByTestId('attention-check').waitFor({ state: 'detached' });
      checked = true;
      continue;
    }
    const position = await shown.getAttribute('data-position');
    await page.getByTestId('option-0').click();
    await page.getByTestId('submit-answer').click();
    answered += 1;
    if (answered < BATCH) {
      await page.waitForFunction(
        (p) => document.querySelector('[data-testid="question"]')?.getAttribute('data-position') !== p
          || document.querySelector('[data-testid="attention-check"]'),
        position,
      );
    }
  }
  return checked;
}

test('an owner sets a redirect, a participant finishes and lands on it, progress updates live', async () => {
  const token = await ownerToken();
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  const ownerErrors = watchErrors(owner);
  await owner.goto(`${server.base}/console`);
  await owner.getByTestId('owner-token').fill(token);
  await owner.getByTestId('owner-token-save').click();
  await owner.locator('[data-testid="owner-tasks"] a[href="/console/demo-mcq"]').click();
  await owner.waitForURL(/\/console\/demo-mcq/);
  await owner.getByTestId('console-settings').waitFor();
  await owner.getByTestId('progress-started').waitFor();
  assert.equal((await owner.getByTestId('progress-completed').textContent()).trim(), '0');

  // A redirect on this server, so the browser can land there; one attention check.
  await owner.getByTestId('set-completion-template').fill('/?handoff={code}');
  // The preview follows the input before anything is saved.
  await owner.getByTestId('completion-preview').filter({ hasText: 'handoff=SESSIONCODE' }).waitFor();
  await owner.getByTestId('set-checks').fill('1');
  await owner.getByTestId('save-settings').click();
  await owner.getByTestId('settings-saved').waitFor();
  // The action log says what changed in words; a text quiz shows no headphone setting.
  await owner.locator('[data-testid="actions"] tr[data-action="update_settings"]')
    .filter({ hasText: 'Attention checks per session (0 to 5): 0 → 1' }).waitFor();
  assert.equal(await owner.locator('[data-testid="actions"] code').count(), 0, 'no JSON in the log');
  assert.equal(await owner.getByTestId('set-screen-headphones').count(), 0);
  // The study link for Prolific carries Prolific's placeholders.
  assert.equal(
    (await owner.getByTestId('prolific-link').textContent()).trim(),
    `${server.base}/quiz/demo-mcq?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}`,
  );
  await expectNoSeriousA11yViolations(owner, 'console');
  // Both languages render.
  await owner.getByTestId('lang-switch').click();
  await owner.getByTestId('console-settings').waitFor();
  await expectNoSeriousA11yViolations(owner, 'console (other language)');

  // The participant, in another browser context.
  const participantContext = await browser.newContext();
  const page = await participantContext.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.base}/quiz/demo-mcq?PROLIFIC_PID=console-e2e`);
  await consentAndSurvey(page);
  await page.waitForURL(/\/session\//);
  const sessionId = page.url().split('/session/')[1];
  const session = await (await fetch(`${server.base}/api/sessions/${sessionId}`)).json();
  assert.equal(session.checks.length, 1);
  const checked = await finishQuiz(page, session);
  assert.ok(checked, 'the attention check was shown');
  // The code and a link first, then the redirect by itself.
  await page.getByTestId('handoff-link').waitFor();
  await page.waitForURL(/\/\?handoff=[A-Z2-9]{8}$/, { timeout: 15_000 });
  assert.deepEqual(errors, []);

  // The owner's progress view shows the completion without a reload.
  await owner.waitForFunction(
    () => document.querySelector('[data-testid="progress-completed"]')?.textContent.trim() === '1',
    null,
    { timeout: 15_000 },
  );
  assert.equal((await owner.getByTestId('progress-started').textContent()).trim(), '1');
  // The owner downloads the answer-level export: one row per answer of this participant.
  const exportButtons = owner.getByTestId('export');
  assert.equal(await exportButtons.count(), 2);
  for (let i = 0; i < 2; i++) {
    const [download] = await Promise.all([
      owner.waitForEvent('download'),
      exportButtons.nth(i).click(),
    ]);
    const file = fs.readFileSync(await download.path(), 'utf8');
    const lines = file.split('\n').filter((l) => l.trim() !== '');
    if (download.suggestedFilename().endsWith('.csv')) {
      assert.ok(file.startsWith('\uFEFFtask,'), 'CSV starts with a BOM and the header');
      assert.equal(lines.length, 1 + BATCH, 'header + one row per answer');
      // Times as ISO 8601 UTC with milliseconds; lists as plain text (no JSON in a cell).
      assert.match(lines[1], /,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z,/);
      assert.doesNotMatch(lines[1], /"\[/);
    } else {
      assert.equal(lines.length, BATCH, 'one JSON object per answer');
      assert.equal(JSON.parse(lines[0]).task, 'demo-mcq');
      assert.match(JSON.parse(lines[0]).answered_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
  }
  // The owner deletes the participant's data on request, by Prolific id, after confirming.
  owner.once('dialog', (dialog) => dialog.accept());
  await owner.getByTestId('delete-who').fill('console-e2e');
  await owner.getByTestId('delete-participant').getByRole('button').click();
  await owner.getByTestId('deleted').waitFor();
  // (in the language the owner switched to above)
  assert.match(await owner.getByTestId('deleted').textContent(), new RegExp(`\\D1\\D+1\\D+${BATCH}\\D`));
  assert.deepEqual(ownerErrors, []);
  await ownerContext.close();
  await participantContext.close();
});

test('a screened-out participant sees the code and is sent to the screen-out URL', async () => {
  const token = await ownerToken();
  const console_ = await (await fetch(`${server.base}/api/owner/tasks/demo-mcq/console`, {
    headers: { authorization: `Bearer ${token}` },
  })).json();
  const settings = console_.settings;
  settings.study.attention_checks = 1;
  settings.study.quality.fail_checks_at_least = 1;
  settings.study.handoff.screenout_url_template = '/?screenout={participant}';
  const put = await fetch(`${server.base}/api/owner/tasks/demo-mcq/settings`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(settings),
  });
  assert.equal(put.status, 200);
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.base}/quiz/demo-mcq?PROLIFIC_PID=screened-e2e`);
  await consentAndSurvey(page);
  await page.waitForURL(/\/session\//);
  const sessionId = page.url().split('/session/')[1];
  const session = await (await fetch(`${server.base}/api/sessions/${sessionId}`)).json();
  const wrong = (session.checks[0].target + 1) % 5;
  for (;;) {
    const shown = page.locator('[data-testid="question"], [data-testid="attention-check"]').first();
    await shown.waitFor();
    if ((await shown.getAttribute('data-testid')) === 'attention-check') break;
    const position = await shown.getAttribute('data-position');
    await page.getByTestId('option-0').click();
    await page.getByTestId('submit-answer').click();
    await page.waitForFunction(
      (p) => document.querySelector('[data-testid="question"]')?.getAttribute('data-position') !== p
        || document.querySelector('[data-testid="attention-check"]'),
      position,
    );
  }
  await page.getByTestId(`check-option-${wrong}`).check();
  await page.getByTestId('check-continue').click();
  await page.getByTestId('screened-out').waitFor();
  await expectNoSeriousA11yViolations(page, 'screened out');
  await page.waitForURL(/\/\?screenout=screened-e2e$/, { timeout: 15_000 });
  assert.deepEqual(errors, []);
  await context.close();
});

test('a participant who opens the results before the redirect stays on them', async () => {
  // A completion redirect (set through the owner API, so this test stands alone, no check);
  // this participant goes to the results within the 3 s.
  const token = await ownerToken();
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const consoleView = await (await fetch(`${server.base}/api/owner/tasks/demo-mcq/console`, { headers: auth })).json();
  const settings = consoleView.settings;
  settings.study.handoff = { ...settings.study.handoff, completion_url_template: '/?handoff={code}' };
  const saved = await fetch(`${server.base}/api/owner/tasks/demo-mcq/settings`, {
    method: 'PUT', headers: auth, body: JSON.stringify(settings),
  });
  assert.equal(saved.status, 200, await saved.text());
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.base}/quiz/demo-mcq?PROLIFIC_PID=console-e2e-results`);
  await consentAndSurvey(page);
  await page.waitForURL(/\/session\//);
  const sessionId = page.url().split('/session/')[1];
  const session = await (await fetch(`${server.base}/api/sessions/${sessionId}`)).json();
  await finishQuiz(page, session);
  await page.getByTestId('handoff-link').waitFor();
  await page.getByTestId('see-results').click();
  await page.waitForURL(/\/results$/);
  await page.getByTestId('results').waitFor();
  await page.waitForTimeout(4_500);
  assert.match(page.url(), /\/session\/[^/]+\/results$/, 'no redirect over the results');
  // One code per situation, labelled: the study's when the owner set one, else the site's.
  assert.equal(await page.locator('[data-testid="results"] .code').count(), 1);
  // Back on the quiz page: the results link, no "Resume" or "Start over" (no retakes).
  await page.goto(`${server.base}/quiz/demo-mcq`);
  await page.getByTestId('finished').waitFor();
  assert.match(await page.getByTestId('resume-link').getAttribute('href'), /\/session\/[^/]+\/results$/);
  assert.equal(await page.getByTestId('start-over').count(), 0);
  await expectNoSeriousA11yViolations(page, 'finished quiz page');
  // The same Prolific id in another browser is told before consent that it took part already.
  const other = await browser.newContext();
  const again = await other.newPage();
  await again.goto(`${server.base}/quiz/demo-mcq?PROLIFIC_PID=console-e2e-results`);
  await again.getByTestId('refusal').waitFor();
  assert.match(await again.getByTestId('refusal').textContent(), /console-e2e-results/);
  assert.equal(await again.getByTestId('consent').count(), 0);
  assert.ok(await again.locator('h1').count(), 'the quiz header stays');
  await other.close();
  assert.deepEqual(errors, []);
  await context.close();
});

test('an owner scores every upload again and the board says when and why', async () => {
  const token = await ownerToken();
  const context = await browser.newContext();
  const owner = await context.newPage();
  const errors = watchErrors(owner);
  await owner.goto(`${server.base}/console`);
  await owner.getByTestId('owner-token').fill(token);
  await owner.getByTestId('owner-token-save').click();
  await owner.locator('[data-testid="owner-tasks"] a[href="/console/demo-mcq"]').click();
  await owner.waitForURL(/\/console\/demo-mcq/);
  // Without a reason the server's message says what is missing.
  await owner.getByTestId('rescore').getByRole('button').click();
  await owner.getByTestId('rescore').getByRole('alert').filter({ hasText: 'reason' }).waitFor();
  await owner.getByTestId('rescore-reason').fill('gold of 2 items corrected');
  await owner.getByTestId('rescore').getByRole('button').click();
  await owner.getByTestId('rescore-started').waitFor();
  await expectNoSeriousA11yViolations(owner, 'console with the rescoring form');
  // It runs in the background; the board lists it once done.
  let board = {};
  for (let i = 0; i < 100 && !(board.rescorings ?? []).length; i += 1) {
    await owner.waitForTimeout(100);
    board = await (await fetch(`${server.base}/api/boards/demo-mcq`)).json();
  }
  assert.equal(board.rescorings?.[0]?.reason, 'gold of 2 items corrected');
  await owner.goto(`${server.base}/boards/demo-mcq`);
  const history = owner.getByTestId('board-rescorings');
  await history.waitFor();
  assert.match(await history.textContent(), /gold of 2 items corrected/);
  assert.match(await history.textContent(), /scored again/);
  assert.deepEqual(errors.filter((e) => !/status of 400/.test(e)), []);
  await context.close();
});
