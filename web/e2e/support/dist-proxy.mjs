#!/usr/bin/env node
/**
 * Development aid for the browser tests: serves web/dist under /web/ with the server's
 * security headers and forwards everything else to a running backoffice server. It lets the
 * tests exercise a fresh `npm run build` before the server binary is rebuilt around it.
 * Usage: node e2e/support/dist-proxy.mjs <listen-port> <backend-origin> [dist-dir]
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';

const [port, backend, distArg] = process.argv.slice(2);
const dist = resolve(distArg ?? new URL('../../dist', import.meta.url).pathname);
const target = new URL(backend);
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'";
const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

/** The server's choice of first page by the console's hint cookies (src/web_assets.rs). */
function firstPage(cookieHeader) {
  const cookies = Object.fromEntries(
    (cookieHeader ?? '').split(';').map((pair) => pair.trim().split('=')).filter((pair) => pair.length === 2),
  );
  if (cookies.bo_signed_in === '1') return 'index.html';
  const locale = cookies.bo_locale === 'en-US' ? 'en-US' : 'zh-CN';
  const page = `login.${locale}${cookies.bo_theme === 'dark' ? '.dark' : ''}.html`;
  return existsSync(join(dist, page)) ? page : 'index.html';
}

createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (req.method === 'GET' && (url.pathname === '/web/' || url.pathname.startsWith('/web/'))) {
    const relative = url.pathname === '/web/' ? firstPage(req.headers.cookie) : url.pathname.slice('/web/'.length);
    const file = normalize(join(dist, relative));
    if (!file.startsWith(dist) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-security-policy': CSP,
      'cache-control': 'no-cache',
    });
    createReadStream(file).pipe(res);
    return;
  }
  const upstream = request(
    { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => res.writeHead(502).end('bad gateway'));
  req.pipe(upstream);
}).listen(Number(port), '127.0.0.1', () => console.log(`dist proxy on 127.0.0.1:${port} → ${backend}`));
