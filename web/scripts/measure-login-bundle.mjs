#!/usr/bin/env node
/**
 * Sums the gzip size of every JavaScript file the login page loads: the entry chunk (which
 * holds the login route) and its static imports. (The login page renders no antd, so
 * no antd locale data either.)
 * Run after `npm run build`: node scripts/measure-login-bundle.mjs [--limit 200000]
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const dist = process.env.DIST_DIR ?? new URL('../dist/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const limitIndex = process.argv.indexOf('--limit');
const limit = limitIndex > 0 ? Number(process.argv[limitIndex + 1]) : 200_000;

const byFile = (predicate) => Object.entries(manifest).find(([key, chunk]) => predicate(key, chunk));
const entry = byFile((_, chunk) => chunk.isEntry);

const files = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  (chunk.imports ?? []).forEach(visit);
};
for (const found of [entry]) {
  if (!found) throw new Error('chunk not found in manifest');
  visit(found[0]);
}

let total = 0;
for (const file of [...files].sort()) {
  const size = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  total += size;
  console.log(`${String(size).padStart(8)}  ${file}`);
}
console.log(`${String(total).padStart(8)}  total gzip bytes of JS for the login page (limit ${limit})`);
if (total > limit) {
  console.error('login page JS is over the limit');
  process.exit(1);
}
