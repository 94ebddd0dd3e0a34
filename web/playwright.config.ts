/**
 * Browser tests against the real server binary (Debian's Chromium; no browser downloads).
 *
 * The server starts from BACKOFFICE_BIN (default ../target/release/backoffice) with demo
 * users on a free port and a throwaway SQLite database, and the tests open its /web/.
 * E2E_SERVE_DIST=1 puts a small proxy in front that serves this folder's dist/ instead of
 * the console embedded in the binary (to test a fresh `npm run build` before the binary is
 * rebuilt around it). E2E_DIST_DIR picks another build folder than dist/ (e.g. a private
 * `vite build --outDir` while someone else rebuilds dist/).
 */
import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePorts } from './e2e/support/free-port';

const webDir = fileURLToPath(new URL('.', import.meta.url));

// Decided once in the main process; the workers inherit these.
if (!process.env.E2E_SERVER_PORT || !process.env.E2E_PROXY_PORT) {
  const [server, proxy] = freePorts(2);
  process.env.E2E_SERVER_PORT ??= String(server);
  process.env.E2E_PROXY_PORT ??= String(proxy);
}
if (!process.env.E2E_DATA_DIR) {
  process.env.E2E_DATA_DIR = mkdtempSync(join(tmpdir(), 'backoffice-e2e-'));
  process.env.E2E_DATA_DIR_OWNED = process.env.E2E_DATA_DIR;
}

const serveDist = process.env.E2E_SERVE_DIST === '1';
const distDir = process.env.E2E_DIST_DIR ?? 'dist';
const serverPort = Number(process.env.E2E_SERVER_PORT);
const publicPort = serveDist ? Number(process.env.E2E_PROXY_PORT) : serverPort;
const binary = resolve(webDir, process.env.BACKOFFICE_BIN ?? '../target/release/backoffice');
const database = `sqlite://${join(process.env.E2E_DATA_DIR, 'e2e.db')}`;
const serverCommand = `"${binary}" serve --demo --listen 127.0.0.1:${serverPort} --database ${database}`;

export default defineConfig({
  testDir: './e2e',
  globalTeardown: './e2e/support/teardown.ts',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${publicPort}/web/`,
    viewport: { width: 1440, height: 900 },
    // A failed test keeps its trace: DOM snapshots around every action, network, console.
    // Not the screencast: its frames cost a third of the suite's CPU (daily.spec.ts, 20
    // tests: 164 s with them, 125 s without, 116 s with no trace at all).
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: serveDist
    ? [
        {
          command: serverCommand,
          port: serverPort,
          reuseExistingServer: false,
          timeout: 60_000,
          env: { RUST_LOG: 'warn' },
        },
        {
          command: `node e2e/support/dist-proxy.mjs ${publicPort} http://127.0.0.1:${serverPort} ${distDir}`,
          url: `http://127.0.0.1:${publicPort}/web/`,
          reuseExistingServer: false,
          timeout: 30_000,
        },
      ]
    : {
        command: serverCommand,
        url: `http://127.0.0.1:${serverPort}/web/`,
        reuseExistingServer: false,
        timeout: 60_000,
        env: { RUST_LOG: 'warn' },
      },
});
