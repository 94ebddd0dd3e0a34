/**
 * Every test of a spec on a server of the spec's own (`ownServer`): started before the first
 * test (the start may take a while on a loaded machine), stopped after the last.
 */
import { test } from './console';
import { ownServer, type OwnServer } from './own-server';

export function useOwnServer(env: NodeJS.ProcessEnv = {}): OwnServer {
  const server = ownServer(env);
  test.use({ baseURL: server.baseURL });
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    await server.start();
  });
  test.afterAll(async () => {
    await server.stop();
  });
  return server;
}
