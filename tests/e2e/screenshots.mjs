// Screenshots of the paper-tables page for docs/replication.md: starts the server with its
// demo (the demo models' files are scored at start), imports the CHIME example figures into
// the text demo so that published rows show beside the site's (for illustration only: the
// demo's content is our own, so the site itself ships them on no demo), and writes one PNG
// per table into docs/img/tables/. Run after scripts/build-web.sh and a server build:
//   node tests/e2e/screenshots.mjs
import path from 'node:path';
import { startServer, launchBrowser, ROOT } from './harness.mjs';

const SHOTS = {
  demo: ['chime-table-4', 'chime-table-5', 'chime-table-2'],
  'demo-panel': ['cmpm-table-4', 'cmpm-table-6', 'cmpm-table-5'],
  'demo-av': ['avmeme-table-1-full', 'avmeme-table-2'],
};

const server = await startServer();
const browser = await launchBrowser();
try {
  await server.cli(['import', 'published', path.join(ROOT, 'examples/published/chime.jsonl'), '--benchmark', 'demo']);
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, deviceScaleFactor: 1 });
  for (const [benchmark, ids] of Object.entries(SHOTS)) {
    const tables = await (await fetch(`${server.base}/api/benchmarks/${benchmark}/tables`)).json();
    if (!Array.isArray(tables.tables)) {
      console.log(`${benchmark}: ${JSON.stringify(tables)}`);
      continue;
    }
    console.log(`${benchmark}: ${tables.tables.map((t) => `${t.id} (${t.rows.length} rows)`).join(', ')}`);
    await page.goto(`${server.base}/benchmarks/${benchmark}/tables`);
    await page.locator('[data-testid="paper-table"]').first().waitFor();
    for (const id of ids) {
      const table = page.locator(`[data-testid="paper-table"][data-table="${id}"]`);
      if (await table.count() === 0) continue;
      await table.screenshot({ path: path.join(ROOT, 'docs/img/tables', `${id}.png`) });
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
