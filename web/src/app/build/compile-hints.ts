/**
 * Explicit compile hints (https://v8.dev/blog/explicit-compile-hints, Chromium 136 and
 * later): a chunk that starts with the magic comment has every function compiled when the
 * chunk loads, on V8's streaming thread, instead of each function on the main thread at its
 * first call. After the sign-in click, lazy compilation of the console's code (router,
 * layout, antd, the workplace) was 55–66 ms of the main thread before the workplace's first
 * paint (Chromium trace, V8.CompileCode); those chunks load on the login form's first focus,
 * while the user types, so with the hint they are compiled by then.
 *
 * Hinted: the chunks loaded after the page (not statically imported by an entry). Not
 * hinted: the login page's own chunks (most of their code does not run before the form is
 * painted, and compiling it all would compete with that paint) and the ECharts library (a
 * large chunk of which one chart uses a part, loaded after its page has painted).
 */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/** What the hint's choice needs of a built chunk (Rollup's and Rolldown's OutputChunk). */
export interface HintedChunk {
  fileName: string;
  name: string;
  isEntry: boolean;
  imports: string[];
}

/** The chunks to hint: every chunk the entries do not load statically, but those named in `unhinted`. */
export function chunksToHint<T extends HintedChunk>(chunks: T[], unhinted: readonly string[]): T[] {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const initial = new Set<string>();
  const visit = (fileName: string) => {
    if (initial.has(fileName)) return;
    initial.add(fileName);
    byFile.get(fileName)?.imports.forEach(visit);
  };
  chunks.filter((chunk) => chunk.isEntry).forEach((chunk) => visit(chunk.fileName));
  return chunks.filter((chunk) => !initial.has(chunk.fileName) && !unhinted.includes(chunk.name));
}

/** The chunk's code with the hint first; its source map, if any, moved down a line to match. */
export function withCompileHint(chunk: { code: string; map?: { mappings: string } | null }) {
  chunk.code = `${COMPILE_HINT}\n${chunk.code}`;
  if (chunk.map) chunk.map.mappings = `;${chunk.map.mappings}`;
}
