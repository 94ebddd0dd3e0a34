#!/usr/bin/env node
/**
 * Writes .br and .gz twins of the larger text files of a build, which the server embeds and
 * serves to clients that accept them (so it never compresses the same bytes per request).
 * Usage: node scripts/compress.mjs [dist]
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = resolve(process.argv[2] ?? new URL('../dist', import.meta.url).pathname);
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map)$/;
const MIN_BYTES = 1024;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

let written = 0;
for (const path of files(root)) {
  if (!COMPRESSIBLE.test(path)) continue;
  const data = readFileSync(path);
  if (data.length < MIN_BYTES) continue;
  const brotli = brotliCompressSync(data, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
  });
  const gzip = gzipSync(data, { level: 9 });
  if (brotli.length < data.length) {
    writeFileSync(`${path}.br`, brotli);
    written++;
  }
  if (gzip.length < data.length) {
    writeFileSync(`${path}.gz`, gzip);
    written++;
  }
}
console.log(`compress: wrote ${written} compressed twins under ${root}`);
