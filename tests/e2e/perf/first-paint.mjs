// first-paint.mjs - first contentful paint and time to a usable home page on a throttled
// "slow 4G" phone profile (Lighthouse's devtools values: 562.5 ms latency, 1,474.56 kbit/s
// down, 607.5 kbit/s up, CPU 4x slower), against the release build in dist/ served by the real
// server, with a cold cache. A benchmark, not a test: it prints figures (scripts/bench.sh).
//
//   node tests/e2e/perf/first-paint.mjs [runs]
import { startServer, launchBrowser } from '../harness.mjs';

const runs = Number(process.argv[2] ?? 3);
const server = await startServer();
const browser = await launchBrowser();
const results = [];
try {
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
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
    const start = Date.now();
    await page.goto(server.base + '/', { waitUntil: 'commit' });
    await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0,
      null, { timeout: 60000 });
    await page.waitForSelector('[data-testid="quiz-list"], .quiz-list, main h1', { timeout: 120000 });
    const usable = Date.now() - start;
    const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0].startTime);
    results.push({ fcp, usable, bytes });
    console.log(`[first-paint] run ${i + 1}: FCP ${fcp.toFixed(0)} ms, home page usable after ${usable} ms, ${(bytes / 1024).toFixed(0)} KiB on the wire`);
    await context.close();
  }
  const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`[first-paint] slow 4G, median of ${runs}: FCP ${median(results.map((r) => r.fcp)).toFixed(0)} ms (target <= 2500 ms), usable ${median(results.map((r) => r.usable))} ms`);
} finally {
  await browser.close();
  await server.stop?.();
}
