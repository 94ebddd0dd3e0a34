#!/usr/bin/env node
/**
 * Sums the gzip size of the JavaScript the login page loads:
 *   - the form: every entry (the console's entry, which holds the login page without the
 *     router, and the login page's early script) and their static imports, i.e. what the
 *     page loads before anyone touches it; the limit applies to this sum;
 *   - for the sign-in: the HTTP client (lib/request.ts and axios), fetched on the form's
 *     first focus or click (app/login-app.tsx) or at the latest by the first submit.
 * The router, the layout, antd and the workplace also start loading on that first focus
 * (to make login → workplace fast); they are the console's, not the login page's, and are
 * not counted here.
 * Run after `npm run build`: node scripts/measure-login-bundle.mjs [--limit 120000]
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const dist = process.env.DIST_DIR ?? new URL('../dist/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const limitIndex = process.argv.indexOf('--limit');
const limit = limitIndex > 0 ? Number(process.argv[limitIndex + 1]) : 120_000;

const entries = Object.keys(manifest).filter((key) => manifest[key].isEntry);
if (entries.length < 2) throw new Error('expected the console entry and the login page early script');
const httpClient = Object.keys(manifest).filter((key) => manifest[key].name === 'request');
if (httpClient.length !== 1) throw new Error('the HTTP client chunk (lib/request.ts) not found in the manifest');

const counted = new Set();
const visit = (key, files) => {
  const chunk = manifest[key];
  if (!chunk || counted.has(chunk.file)) return;
  counted.add(chunk.file);
  files.push(chunk.file);
  (chunk.imports ?? []).forEach((next) => visit(next, files));
};
const sizeOf = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const report = (label, keys) => {
  const files = [];
  keys.forEach((key) => visit(key, files));
  let total = 0;
  for (const file of files.sort()) {
    const size = sizeOf(file);
    total += size;
    console.log(`${String(size).padStart(8)}  ${file}`);
  }
  console.log(`${String(total).padStart(8)}  ${label}`);
  return total;
};

const form = report(`gzip bytes of JS for the login form (limit ${limit})`, entries);
const client = report('gzip bytes more for the sign-in (HTTP client, loaded on first focus)', httpClient);
console.log(`${String(form + client).padStart(8)}  gzip bytes of JS to sign in`);
if (form > limit) {
  console.error('login page JS is over the limit');
  process.exit(1);
}
