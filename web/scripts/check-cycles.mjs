// Fails when the console's modules import each other in a circle, printing each circle.
// Run by `npm run lint` (eslint has no cycle rule of its own and eslint-plugin-import is not
// a dependency). Only imports that load code count: `import type` / `export type` vanish at
// build time, and `import()` loads later on demand, which is how a module may reach back to
// one that imports it without a circle at load time.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const srcDir = join(webDir, 'src');
const extensions = ['.ts', '.tsx', '.js', '.mjs'];

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return extensions.some((ext) => name.endsWith(ext)) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

// `import x from 'm'`, `import 'm'`, `export { x } from 'm'`, `export * from 'm'`, over any
// number of lines; the `type` keyword right after import/export marks a type-only one.
const importPattern = /(?:^|[\n;])\s*(import|export)\s+(type\s+)?(?:[^'"`;]*?\s+from\s+)?['"]([^'"]+)['"]/g;

function stripComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/[^\n]*/g, '$1');
}

function resolveImport(from, specifier) {
  let base;
  if (specifier.startsWith('@/')) base = join(srcDir, specifier.slice(2));
  else if (specifier.startsWith('.')) base = resolve(dirname(from), specifier);
  else return null;
  const candidates = [
    base,
    ...extensions.map((ext) => base + ext),
    ...extensions.map((ext) => join(base, 'index' + ext)),
  ];
  return candidates.find((path) => {
    try {
      return statSync(path).isFile();
    } catch {
      return false;
    }
  });
}

export function importGraph(files) {
  const graph = new Map();
  for (const file of files) {
    const targets = new Set();
    for (const match of stripComments(readFileSync(file, 'utf8')).matchAll(importPattern)) {
      if (match[2]) continue;
      const target = resolveImport(file, match[3]);
      if (target) targets.add(target);
    }
    graph.set(
      file,
      [...targets].filter((target) => graph.has(target) || files.includes(target)),
    );
  }
  return graph;
}

/** The strongly connected groups of more than one module (or a module importing itself). */
function circularGroups(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), index.get(next)));
    }
    if (low.get(node) === index.get(node)) {
      const group = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1 || (graph.get(node) ?? []).includes(node)) groups.push(group);
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return groups;
}

/** The shortest way round from `start` back to itself inside its group. */
function circleThrough(graph, group, start) {
  const members = new Set(group);
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const node = queue.shift();
    for (const next of graph.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [node];
        while (previous.get(path[0])) path.unshift(previous.get(path[0]));
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

const files = sourceFiles(srcDir);
const graph = importGraph(files);
const groups = circularGroups(graph);
if (groups.length) {
  for (const group of groups) {
    const start = [...group].sort()[0];
    const circle = circleThrough(graph, group, start).map((file) => relative(webDir, file));
    console.error(`import circle: ${circle.join(' -> ')}`);
    if (group.length > circle.length - 1) console.error(`  (${group.length} modules are in this circle's group)`);
  }
  console.error(`${groups.length} import circle(s) in web/src`);
  process.exit(1);
}
console.log(`no import circles among ${files.length} modules`);
