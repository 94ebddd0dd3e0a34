/**
 * A port for a server the tests start, known before it starts (Playwright needs the URL up
 * front). Not one the kernel hands out (binding port 0): that comes from the ephemeral range,
 * the same range every outgoing connection (Chromium's, Playwright's own) takes its local port
 * from, so between the check and the server's bind a connection could take it ("Address
 * already in use", seen once on 2026-11-28). Below that range (Linux's default starts at
 * 32768) only listeners compete: a random port there that binds now is free for the server.
 */
import { execFileSync } from 'node:child_process';

const SCRIPT = `
const net = require('net');
const taken = new Set();
(function attempt() {
  let port;
  do port = 20000 + Math.floor(Math.random() * 12000); while (taken.has(port));
  taken.add(port);
  const server = net.createServer();
  server.once('error', () => (taken.size < 200 ? attempt() : process.exit(1)));
  server.listen(port, '127.0.0.1', () => server.close(() => process.stdout.write(String(port))));
})();
`;

export function freePort(): number {
  return Number(execFileSync(process.execPath, ['-e', SCRIPT]).toString().trim());
}
