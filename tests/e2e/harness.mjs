// Test harness: starts the real `memeboard` server binary on a free port with a fresh SQLite
// data dir and the built front end (dist/), and launches Debian's headless Chromium.
import { chromium } from 'playwright-core';
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
    throw new Error('dist/index.html missing: run `trunk build --release` first');
  }
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'memeboard-e2e-'));
  const childEnv = { ...process.env, MEMEBOARD__SERVER__PORT: String(port),
    MEMEBOARD__DATA__DIR: dataDir, MEMEBOARD__SERVER__STATIC_DIR: path.join(ROOT, 'dist'),
    MEMEBOARD__QUIZ__BOOTSTRAP_RESAMPLES: '200', RUST_LOG: 'warn', ...env };
  delete childEnv.DATABASE_URL;
  const child = spawn(BIN, ['serve'], { env: childEnv, stdio: ['ignore', 'inherit', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) { // up to 60 s: start-up is slow on a busy machine
    try {
      const res = await fetch(`${base}/healthz`);
      if (res.ok) break;
    } catch { /* not up yet */ }
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Launches headless Chromium with the machine's baseline flags. */
export async function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

/** Collects page errors so a test can assert the app never crashed. */
export function watchErrors(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  return errors;
}
