// Test harness: starts the real `memeboard` server binary on a free port with a fresh SQLite
// data dir and the built front end (dist/), and launches Debian's headless Chromium.
import { chromium } from 'playwright-core';
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = process.env.MEMEBOARD_BIN ?? path.join(ROOT, 'target/debug/memeboard');
const CHROMIUM = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Starts the server; `env` adds settings (e.g. MEMEBOARD__QUIZ__BATCH_SIZE). */
export async function startServer(env = {}) {
  if (!fs.existsSync(path.join(ROOT, 'dist/index.html'))) {
    throw new Error('dist/index.html missing: run scripts/build-web.sh first');
  }
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'memeboard-e2e-'));
  const childEnv = { ...process.env, MEMEBOARD__SERVER__PORT: String(port),
    MEMEBOARD__DATA__DIR: dataDir, MEMEBOARD__SERVER__STATIC_DIR: path.join(ROOT, 'dist'),
    MEMEBOARD__QUIZ__BOOTSTRAP_RESAMPLES: '200', RUST_LOG: 'warn', ...env };
  delete childEnv.DATABASE_URL;
  const child = spawn(BIN, ['serve'], { env: childEnv, stdio: ['ignore', 'inherit', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  // Up to a minute: the first start makes the demo clips, and slow on a busy machine.
  for (let i = 0; i < 600; i++) {
    try {
      const res = await fetch(`${base}/healthz`);
      if (res.ok) break;
    } catch { /* not up yet */ }
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    /** Runs `memeboard ARGS…` on this server's database (e.g. `study create-task`). */
    async cli(args) {
      const run = spawn(BIN, args, { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      run.stdout.on('data', (d) => { out += d; });
      run.stderr.on('data', (d) => { out += d; });
      const code = await new Promise((r) => run.once('exit', r));
      if (code !== 0) throw new Error(`memeboard ${args.join(' ')} exited with ${code}: ${out}`);
      return out;
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Server settings for the tiny test model in `models` (`MEMEBOARD_TEST_MODELS`): explanation
 * scoring on the server with it. */
export function tinyBertSettings(models) {
  return {
    MEMEBOARD__MODEL__NAME: 'tiny-bert',
    MEMEBOARD__MODEL__DIR: path.join(models, 'tiny-bert'),
    MEMEBOARD__MODEL__ONNXRUNTIME: path.join(models, 'onnxruntime/libonnxruntime.so'),
    MEMEBOARD__MODEL__THREADS: '1',
  };
}

/** Launches headless Chromium with the machine's baseline flags. */
export async function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

/** Starts the server (`env` as for `startServer`) and a browser before the calling file's
 * tests and stops both after them; the returned object holds them as `server` and `browser`
 * once started. */
export function serverAndBrowser(env = {}) {
  const run = { server: undefined, browser: undefined };
  before(async () => {
    run.server = await startServer(env);
    run.browser = await launchBrowser();
  });
  after(async () => {
    await run.browser?.close();
    await run.server?.stop();
  });
  return run;
}

/** Waits for the next page of a rater's batch: its question, once checked to name none of
 * `modelNames`; null once the completion code shows instead. */
export async function nextRaterQuestion(page, modelNames) {
  await page.waitForSelector('[data-testid="question"], [data-testid="completion-code"]');
  if (await page.getByTestId('completion-code').count()) return null;
  const html = await page.content();
  for (const name of modelNames) assert.ok(!html.includes(name), `a rater page names ${name}`);
  return page.getByTestId('question');
}

/** Opens the results page from the completion code and checks it: a score over the open
 * items, or (a batch of hidden test items only) the note saying so, and between one and
 * `answered` review cards. */
export async function seeResults(page, answered) {
  await page.getByTestId('see-results').click();
  await page.getByTestId('results').waitFor();
  // A score over the open items, or (a batch of hidden test items only) the note saying so.
  const score = page.getByTestId('your-score');
  if ((await score.getAttribute('data-state')) === 'scored') {
    assert.match(await score.textContent(), /\d+ \/ \d+/);
  } else {
    assert.equal(await score.getAttribute('data-state'), 'held-out');
    await page.getByTestId('held-out').waitFor();
  }
  const reviewed = await page.getByTestId('review-item').count();
  assert.ok(reviewed >= 1 && reviewed <= answered, `${reviewed} review cards for ${answered} answers`);
}

/** Collects page errors so a test can assert the app never crashed. */
export function watchErrors(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  return errors;
}

const AXE = path.join(import.meta.dirname, 'node_modules/axe-core/axe.min.js');

/**
 * Runs axe-core on the whole page and fails, listing rule id, impact, help and target
 * selectors, for every violation of serious or critical impact. `label` names the page in
 * the message. `label-content-name-mismatch` (experimental in axe) is switched on: a
 * control's accessible name must contain its visible text. The page must also have one
 * `<h1>` and no skipped heading levels.
 */
export async function expectNoSeriousA11yViolations(page, label) {
  // Colours are checked at rest: with reduced motion the style sheet has no transitions, so a
  // button that was just enabled is not caught half-way through its colour change (axe read
  // 4.22:1 on the upload button mid-transition once).
  await page.emulateMedia({ reducedMotion: 'reduce' });
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) {
    // Evaluated through the DevTools protocol: the pages' Content-Security-Policy allows no
    // inline script but Trunk's own loader, so `addScriptTag` would be refused.
    await page.evaluate(fs.readFileSync(AXE, 'utf8'));
  }
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, {
      resultTypes: ['violations'],
      rules: { 'label-content-name-mismatch': { enabled: true } },
    });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id, impact: v.impact, help: v.help,
        targets: v.nodes.map((n) => n.target.join(' ')),
        summary: v.nodes[0]?.failureSummary ?? '',
      }));
  });
  // One <h1> per page and no skipped heading levels (axe rates these moderate; we hold them).
  const headings = await page.evaluate(() => {
    const levels = [...document.querySelectorAll('h1,h2,h3,h4,h5,h6')].map((h) => Number(h.tagName[1]));
    const skipped = levels.some((l, i) => i > 0 && l > levels[i - 1] + 1);
    return { h1: levels.filter((l) => l === 1).length, skipped, levels: levels.join('') };
  });
  if (headings.h1 !== 1 || headings.skipped) {
    violations.push({
      id: 'heading-structure', impact: 'serious',
      help: `one <h1> and no skipped levels (levels in order: ${headings.levels})`,
      targets: [], summary: '',
    });
  }
  if (violations.length) {
    const lines = violations.map((v) =>
      `  ${v.id} (${v.impact}): ${v.help}\n    at ${v.targets.join(' | ')}\n    ${v.summary.replace(/\n/g, ' ')}`);
    throw new Error(`${label}: ${violations.length} serious/critical a11y violation(s)\n${lines.join('\n')}`);
  }
}

/**
 * The answer key of the headphone check on `page` (the quiet tone's 1-based position per
 * trial), read through `GET /api/headphone-checks/{id}/key`: a route of debug builds only (the
 * harness runs target/debug/memeboard). The page itself never holds the answers, and a release
 * build has no such route.
 */
export async function headphoneKey(page, base) {
  const section = page.locator('[data-testid="headphone-check"][data-check]');
  await section.waitFor();
  const id = await section.getAttribute('data-check');
  const res = await fetch(`${base}/api/headphone-checks/${encodeURIComponent(id)}/key`);
  if (!res.ok) {
    throw new Error(`headphone key: HTTP ${res.status} (the browser tests need a debug build of the server)`);
  }
  return (await res.json()).map((q) => q + 1);
}

/** Fills in the survey (fixed answers) and sends it. */
export async function fillSurvey(page) {
  await page.getByTestId('survey-age').selectOption({ index: 2 });
  await page.getByTestId('survey-language').selectOption({ index: 1 });
  await page.getByTestId('survey-online').selectOption({ index: 3 });
  await page.getByTestId('survey-familiarity').selectOption({ index: 4 });
  await page.getByTestId('survey-submit').click();
}

/** Gives consent and fills in the survey on a quiz page that asks for both. */
export async function consentAndSurvey(page) {
  await page.getByTestId('consent-checkbox').check();
  await page.getByTestId('consent-continue').click();
  await fillSurvey(page);
}

/**
 * Consent and survey where the quiz page asks for them (a returning rater is not asked
 * again), up to the session page; `first` is the selector of what the session page shows
 * first (a question, or a judging task's rubric).
 */
export async function consentAndSurveyIfAsked(page, first = '[data-testid="question"]') {
  await page.waitForSelector(`[data-testid="consent-checkbox"], [data-testid="survey-age"], ${first}`);
  if (await page.getByTestId('consent-checkbox').count()) {
    await page.getByTestId('consent-checkbox').check();
    await page.getByTestId('consent-continue').click();
    await page.waitForSelector(`[data-testid="survey-age"], ${first}`);
  }
  if (await page.getByTestId('survey-age').count()) await fillSurvey(page);
  await page.waitForURL(/\/session\//);
}

/** The first `n` model rows of a board, once the demo's submissions (loaded in the
 * background after start-up) have reached it. */
export async function boardModels(base, board, n = 2) {
  for (let i = 0; i < 600; i++) {
    const body = await (await fetch(`${base}/api/boards/${board}`)).json();
    const models = (body.rows ?? []).filter((r) => r.kind === 'model' && r.submission_id);
    if (models.length >= n) return models.slice(0, n);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the demo submissions never reached the board ${board}`);
}
