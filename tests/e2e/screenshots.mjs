// Screenshots of the paper-tables page for docs/replication.md: starts the server with its
// demo (the demo models' files are scored at start), imports the CHIME example figures into
// the text demo so that published rows show beside the site's (for illustration only: the
// demo's content is our own, so the site itself ships them on no demo), and writes one PNG
// per table into docs/img/tables/. The clip tables get made-up runs under every condition and a
// made-up crowd of six (their answers and familiarity drawn by rule), and AVMeme Exam's
// Figure 4 is shot on the whole split after the reveal, where its model rows appear. Run
// after scripts/build-web.sh and a (debug) server build:
//   node tests/e2e/screenshots.mjs
import path from 'node:path';
import { startServer, launchBrowser, ROOT } from './harness.mjs';

const SHOTS = {
  demo: ['chime-table-4', 'chime-table-5', 'chime-table-2', 'chime-table-10', 'chime-cross-task'],
  'demo-panel': ['cmpm-table-4', 'cmpm-table-6', 'cmpm-table-5', 'cmpm-length'],
  'demo-av': ['avmeme-table-1-full', 'avmeme-table-3', 'avmeme-table-5', 'avmeme-inputs'],
};
/** Tables shot on the whole test split, after the reveal (their model rows need it). */
const WHOLE_SHOTS = { 'demo-av': ['avmeme-figure-4'] };
const ADMIN = 'screenshots-admin-token';
const FAMILIARITY = ['familiar', 'seen_not_familiar', 'unseen'];

// Illustration on a small demo: one author uploads every run (quotas raised), and category
// figures show over few items (the default minimum is 10 per category).
const server = await startServer({
  MEMEBOARD__LEADERBOARD__DAILY_QUOTA: '50',
  MEMEBOARD__LEADERBOARD__DAILY_QUOTA_PER_AUTHOR: '50',
  MEMEBOARD__LEADERBOARD__DAILY_QUOTA_PER_MODEL: '50',
  MEMEBOARD__LEADERBOARD__MIN_CATEGORY_ITEMS: '1',
  // A handful of made-up participants, their figures exact and at once.
  MEMEBOARD__ADMIN__TOKEN: ADMIN,
  MEMEBOARD__QUIZ__MIN_CROWD_PARTICIPANTS: '1',
  MEMEBOARD__QUIZ__MIN_CROWD_ITEMS: '1',
  MEMEBOARD__QUIZ__CROWD_SNAPSHOT_STEP: '1',
  MEMEBOARD__QUIZ__CROWD_NOISE: '0',
  MEMEBOARD__QUIZ__CROWD_GRID: '0',
  MEMEBOARD__QUIZ__CROWD_REFRESH_SECS: '0',
});
const browser = await launchBrowser();

/** A new author token. */
async function authorToken() {
  const res = await fetch(`${server.base}/api/authors`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Screenshot Lab', organisation: 'memeboard docs' }),
  });
  return (await res.json()).token;
}

/**
 * Uploads a run of `model` under `conditions` to the clip task: each clip answered with the
 * letter of one of its options, drawn from `seed` (so that runs differ). Made-up answers, for
 * the tables' shape only.
 */
async function clipRun(token, model, conditions, seed) {
  const task = 'demo-clips';
  const inputs = (await (await fetch(`${server.base}/api/tasks/${task}/inputs.jsonl`, {
    headers: { authorization: `Bearer ${token}` },
  })).text()).trim().split('\n').map((l) => JSON.parse(l));
  const body = inputs.map((item, i) => JSON.stringify({
    item_id: item.item_id,
    answer: item.choices[(i * 7 + seed * 3 + (i % seed)) % item.choices.length].letter,
  })).join('\n') + '\n';
  const query = new URLSearchParams({ model, conditions });
  const res = await fetch(`${server.base}/api/tasks/${task}/submissions?${query}`, {
    method: 'POST', headers: { authorization: `Bearer ${token}` }, body,
  });
  if (res.status !== 201) console.log(`${model} ${conditions}: ${res.status} ${await res.text()}`);
}

/** POSTs JSON (with the admin token when `admin`), answering the parsed reply. */
async function post(route, body, admin = false) {
  const headers = { 'content-type': 'application/json' };
  if (admin) headers.authorization = `Bearer ${ADMIN}`;
  const res = await fetch(`${server.base}${route}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return res.json();
}

/**
 * Participant `n` takes the clip quiz: the headphone check passed (its key read through the
 * debug build's route), then for every clip the familiarity question and an option.
 */
async function crowdSession(n) {
  const check = await post('/api/quizzes/demo-clips/headphone-checks', {});
  const key = await (await fetch(`${server.base}/api/headphone-checks/${check.id}/key`)).json();
  const session = await post('/api/quizzes/demo-clips/sessions', {
    consent: true,
    survey: { age_range: '25-34', native_language: n % 2 ? 'chinese' : 'english', online_time: 'three_to_six_hours', meme_familiarity: 3, skip_flagged: false },
    headphone_check: { id: check.id, answers: key },
  });
  for (const item of session.items) {
    const k = n + item.position;
    await post(`/api/sessions/${session.session_id}/prefaces`, { item_id: item.item_id, familiarity: FAMILIARITY[k % 3] });
    await post(`/api/sessions/${session.session_id}/answers`, {
      item_id: item.item_id, idempotency_key: `shot-${n}-${item.position}`,
      answer: { kind: 'clip_choice', position: k % 2, plays: 1 }, response_ms: 1500,
    });
  }
}

/** Screenshots of the tables `ids` of `benchmark` on `split`. */
async function shoot(page, benchmark, ids, split) {
  const query = split ? `?split=${split}` : '';
  const tables = await (await fetch(`${server.base}/api/benchmarks/${benchmark}/tables${query}`)).json();
  if (!Array.isArray(tables.tables)) {
    console.log(`${benchmark}: ${JSON.stringify(tables)}`);
    return;
  }
  console.log(`${benchmark}${query}: ${tables.tables.map((t) => `${t.id} (${t.rows.length} rows)`).join(', ')}`);
  await page.goto(`${server.base}/benchmarks/${benchmark}/tables${query}`);
  await page.locator('[data-testid="paper-table"]').first().waitFor();
  for (const id of ids) {
    const table = page.locator(`[data-testid="paper-table"][data-table="${id}"]`);
    if (await table.count() === 0) continue;
    await table.screenshot({ path: path.join(ROOT, 'docs/img/tables', `${id}.png`) });
  }
}

/**
 * Uploads a run of `model` to the comic order task `task`: each comic's displayed panels in an
 * order drawn from `seed` (a rotation, reversed every other comic). Made-up, for the shape.
 */
async function orderRun(token, task, model, seed) {
  const inputs = (await (await fetch(`${server.base}/api/tasks/${task}/inputs.jsonl`, {
    headers: { authorization: `Bearer ${token}` },
  })).text()).trim().split('\n').map((l) => JSON.parse(l));
  const body = inputs.map((item, i) => {
    const n = item.panels.length;
    const order = Array.from({ length: n }, (_, k) => ((k + seed + i) % n) + 1);
    return JSON.stringify({ item_id: item.item_id, order: i % 2 ? order.reverse() : order });
  }).join('\n') + '\n';
  const res = await fetch(`${server.base}/api/tasks/${task}/submissions?model=${model}`, {
    method: 'POST', headers: { authorization: `Bearer ${token}` }, body,
  });
  if (res.status !== 201) console.log(`${task} ${model}: ${res.status} ${await res.text()}`);
}

try {
  await server.cli(['import', 'published', path.join(ROOT, 'examples/published/chime.jsonl'), '--benchmark', 'demo']);
  const token = await authorToken();
  // The clip tables' rows: two models by default, and one of them under every input, thinking
  // level and hint (AVMeme Exam Tables 1, 3 and 5).
  const runs = [
    ['Omni-A', ''], ['Omni-B', ''], ['Omni-A', 'input=audio_visual'], ['Omni-A', 'input=text_only'],
    ['Omni-A', 'thinking=minimal'], ['Omni-A', 'thinking=low'], ['Omni-A', 'thinking=high'],
    ['Omni-A', 'hint=meme_name'], ['Omni-A', 'hint=is_meme'], ['Omni-A', 'hint=visual_cheat_allowed'],
  ];
  for (const [i, [model, conditions]] of runs.entries()) await clipRun(token, model, conditions, i + 2);
  // CMPM Table 6's grid and the length aggregates: two models on the four order tasks.
  for (const task of ['', '-context', '-canonical', '-canonical-context']) {
    for (const [i, model] of ['Panel-A', 'Panel-B'].entries()) {
      await orderRun(token, `demo-panel-order${task}`, model, i + task.length);
    }
  }
  for (let n = 0; n < 6; n++) await crowdSession(n);
  const page = await browser.newPage({ viewport: { width: 1800, height: 900 }, deviceScaleFactor: 1 });
  for (const [benchmark, ids] of Object.entries(SHOTS)) await shoot(page, benchmark, ids, '');
  await post('/api/admin/tasks/demo-clips/board', { private_revealed: true }, true);
  for (const [benchmark, ids] of Object.entries(WHOLE_SHOTS)) await shoot(page, benchmark, ids, 'whole');
} finally {
  await browser.close();
  await server.stop();
}
