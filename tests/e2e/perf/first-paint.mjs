// first-paint.mjs - how soon a reader on a throttled "slow 4G" phone sees each page's real
// content (Lighthouse's devtools values: 562.5 ms latency, 1,474.56 kbit/s down, 607.5 kbit/s
// up, CPU 4x slower), against the release build in dist/ served by the real server, with a
// cold cache. A benchmark, not a test: it prints figures (scripts/bench.sh, docs/performance.md).
//
// Three pages, the first meaningful content of each (issue 32's target: on screen in <= 2.5 s):
//   home   the quiz list        first paint `[data-first-paint] .quiz-card`, app `[data-testid=quiz-card]`
//   quiz   the consent text     first paint `[data-first-paint] .rules`,     app `[data-testid=consent]`
//   board  the board's table    first paint `[data-first-paint] table`,      app `[data-testid=board-table]`
// For each: first contentful paint, largest contentful paint as first reported (before the app
// replaces the page), the time the content is in the page (the server's first paint) and on
// screen (in the page and painted: the later of that and the first LCP), and — the
// reference, measured in the same run — the time the app has rendered it itself (what every
// version before the first paint showed first). Median of N runs (default 3).
//
//   node tests/e2e/perf/first-paint.mjs [runs]
import { startServer, launchBrowser } from '../harness.mjs';

const runs = Number(process.argv[2] ?? 3);
const PAGES = [
  { name: 'home', path: '/', first: '[data-first-paint] .quiz-card', app: '[data-testid="quiz-card"]' },
  { name: 'quiz', path: '/quiz/demo-mcq', first: '[data-first-paint] .rules', app: '[data-testid="consent"]' },
  { name: 'board', path: '/boards/demo-mcq', first: '[data-first-paint] table', app: '[data-testid="board-table"]' },
];

/** Milliseconds since navigation when `selector` is first in the page (polled each frame). */
async function timeOf(page, selector) {
  const handle = await page.waitForFunction(
    (sel) => (document.querySelector(sel) ? performance.now() : false),
    selector, { timeout: 120000, polling: 'raf' });
  return Math.round(await handle.jsonValue());
}

async function measure(browser, base, spec) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  // Entries are recorded from the start of the document (buffered), before the app replaces it.
  await context.addInitScript(() => {
    window.__lcp = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__lcp.push(Math.round(e.startTime));
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false, latency: 562.5,
    downloadThroughput: (1474.56 * 1024) / 8, uploadThroughput: (607.5 * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  let bytes = 0;
  cdp.on('Network.loadingFinished', (e) => { bytes += e.encodedDataLength; });
  await page.goto(base + spec.path, { waitUntil: 'commit' });
  const first = await Promise.race([
    timeOf(page, spec.first).then((t) => ({ t, by: 'first paint' })),
    timeOf(page, spec.app).then((t) => ({ t, by: 'app' })),
  ]);
  const app = await timeOf(page, spec.app);
  const fcp = await page.evaluate(() => Math.round(performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1));
  const lcp = await page.evaluate(() => window.__lcp[0] ?? -1);
  await context.close();
  // On screen: in the page and painted (the first largest-contentful-paint entry is the
  // first paint's content; the stylesheet holds painting until it has arrived).
  return { fcp, lcp, content: first.t, screen: Math.max(first.t, lcp), by: first.by, app, bytes };
}

const server = await startServer();
const browser = await launchBrowser();
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  for (const spec of PAGES) {
    const results = [];
    for (let i = 0; i < runs; i++) {
      const r = await measure(browser, server.base, spec);
      results.push(r);
      console.log(`[first-paint] ${spec.name} run ${i + 1}: FCP ${r.fcp} ms, LCP ${r.lcp} ms, content in the page ${r.content} ms (${r.by}), on screen ${r.screen} ms, app content ${r.app} ms, ${(r.bytes / 1024).toFixed(0)} KiB`);
    }
    const m = (k) => median(results.map((r) => r[k]));
    console.log(`[first-paint] ${spec.name}: median of ${runs}: content on screen ${m('screen')} ms (target <= 2500; in the page ${m('content')} ms), LCP ${m('lcp')} ms, FCP ${m('fcp')} ms; the app's own content ${m('app')} ms (reference, same run): ratio ${(m('screen') / m('app')).toFixed(2)}`);
  }
} finally {
  await browser.close();
  await server.stop?.();
}
