/**
 * Browser tests against the real server binary (Debian's Chromium; no browser downloads).
 *
 * Each worker starts a server of its own from BACKOFFICE_BIN (default
 * ../target/release/backoffice) with demo users on a free port and a throwaway SQLite
 * database (e2e/support/console.ts, `workerServer`), and its tests open that server's /web/.
 * E2E_SERVE_DIST=1 puts a small proxy in front that serves this folder's dist/ instead of
 * the console embedded in the binary (to test a fresh `npm run build` before the binary is
 * rebuilt around it). E2E_DIST_DIR picks another build folder than dist/ (e.g. a private
 * `vite build --outDir` while someone else rebuilds dist/).
 */
import { defineConfig } from '@playwright/test';
import { availableParallelism } from 'node:os';

// One worker a core: one worker (its browser and server) left a 2-core machine 21 % idle,
// two leave it 4 % idle, and the suite took 813 s instead of 982 s (2026-11-28).
// E2E_WORKERS overrides.
const workers = Number(process.env.E2E_WORKERS ?? availableParallelism());

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  fullyParallel: false,
  workers,
  retries: 0,
  // Limits for a busy machine (CI's may be): with two other builds beside the suite (load 13
  // to 22 on two cores) a list's table came seconds after its page, past the former 10 s of
  // an assertion, and a test with two sign-ins and two reloads took more than 60 s. The tests
  // wait for answers and states, so a passing test is as fast as before; only a failing one
  // takes longer to say so.
  timeout: 120_000,
  expect: { timeout: 30_000 },
  reporter: [['list']],
  use: {
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
});
