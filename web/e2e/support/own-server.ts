/**
 * A server of a spec's own: the backoffice binary on a free port with a throwaway SQLite
 * database (and, with E2E_SERVE_DIST=1, the dist proxy in front), so a spec that changes an
 * account's security (two-factor) cannot disturb the others, even when it fails half-way.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePorts } from './free-port';

/** Every server the tests start listens here (cookies the tests set name this host). */
export const SERVER_HOST = '127.0.0.1';

const webDir = fileURLToPath(new URL('../..', import.meta.url));

/** Until `url` answers 200; fails at once when `child` (the process meant to answer) exits. */
async function waitForOk(url: string, timeoutMs: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A server that could not bind its port exits; whatever answers there is not ours.
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the process for ${url} exited (${child.exitCode ?? child.signalCode}) before answering`);
    }
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not come up`);
    await new Promise((done) => setTimeout(done, 200));
  }
}

/**
 * The demo merchant keeps one order in flight per number, as every new merchant; the specs
 * place many orders for 13800138000 on one server, most of which stay unfinished, so here
 * it is switched off. risk-controls.spec.ts switches it on for its own test and back.
 */
async function demoMerchantMaySendRepeats(origin: string): Promise<void> {
  const post = async (path: string, data: unknown, token?: string) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    const response = await fetch(`${origin}${path}`, { method: 'POST', headers, body: JSON.stringify(data) });
    const body = (await response.json()) as { code: number; msg: string; data: { token?: string } };
    if (body.code !== 20000) throw new Error(`${path}: ${body.msg}`);
    return body.data;
  };
  const { token } = await post('/adminapi/login/login', { username: 'admin', password: 'Admin123' });
  await post(
    '/adminapi/admin/merchant/risk/save',
    { merchant_id: 10001, single_flight: false, number_daily_orders: 0, number_daily_fen: 0, daily_cap_fen: 0 },
    token,
  );
}

export interface OwnServer {
  /** The console's base URL (…/web/), for test.use({ baseURL }). */
  baseURL: string;
  start: () => Promise<void>;
  stop: () => Promise<void>;
}

/**
 * Ports are chosen now (so baseURL is known when the spec is loaded); processes start in start().
 * `env` sets the server's own settings (BACKOFFICE_ORDER_DEADLINE_SECONDS …).
 */
export function ownServer(env: NodeJS.ProcessEnv = {}): OwnServer {
  const serveDist = process.env.E2E_SERVE_DIST === '1';
  const [serverPort, proxyPort = serverPort] = freePorts(serveDist ? 2 : 1);
  const children: ChildProcess[] = [];
  let dataDir: string | undefined;
  const origin = `http://${SERVER_HOST}:${serverPort}`;
  const publicOrigin = `http://${SERVER_HOST}:${proxyPort}`;

  const launch = (command: string, args: string[], env: NodeJS.ProcessEnv = {}) => {
    const child = spawn(command, args, {
      cwd: webDir,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    children.push(child);
    return child;
  };

  return {
    baseURL: `${publicOrigin}/web/`,
    async start() {
      const binary = resolve(webDir, process.env.BACKOFFICE_BIN ?? '../target/release/backoffice');
      dataDir = mkdtempSync(join(tmpdir(), 'backoffice-e2e-own-'));
      const database = `sqlite://${join(dataDir, 'own.db')}`;
      const server = launch(
        binary,
        ['serve', '--demo', '--listen', `${SERVER_HOST}:${serverPort}`, '--database', database],
        {
          RUST_LOG: 'warn',
          ...env,
        },
      );
      await waitForOk(`${origin}/web/`, 150_000, server);
      await demoMerchantMaySendRepeats(origin);
      if (serveDist) {
        const dist = process.env.E2E_DIST_DIR ?? 'dist';
        const proxy = launch(process.execPath, ['e2e/support/dist-proxy.mjs', String(proxyPort), origin, dist]);
        await waitForOk(`${publicOrigin}/web/`, 60_000, proxy);
      }
    },
    async stop() {
      await Promise.all(
        children.splice(0).map(
          (child) =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        ),
      );
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      dataDir = undefined;
    },
  };
}
