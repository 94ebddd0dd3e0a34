/**
 * Just enough of an xlsx reader for tests to check what Excel will see: the cells of the
 * first sheet, each with its type (shared/inline string or number) and number format.
 * An xlsx is a zip of XML parts; the zip's central directory lists them (stored or deflated).
 */
import { inflateRawSync } from 'node:zlib';

function zipEntries(zip: Buffer): Map<string, Buffer> {
  // The end-of-central-directory record: the last 22 bytes, or earlier when a comment follows.
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end -= 1;
  if (end < 0) throw new Error('not a zip file');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = new Map<string, Buffer>();
  for (let i = 0; i < count; i += 1) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('broken central directory');
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(dataStart, dataStart + compressed);
    entries.set(name, method === 0 ? data : inflateRawSync(data));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&amp;/g, '&');
}

/** The text runs of a string item (<si> or <is>). */
function itemText(xml: string): string {
  return [...xml.matchAll(/<t(?:\s[^>]*)?>([^<]*)<\/t>/g)].map((m) => unescapeXml(m[1])).join('');
}

export interface XlsxCell {
  kind: 'string' | 'number';
  /** The text, or the number as written. */
  value: string;
  /** The number format code of the cell's style ('General' when none). */
  format: string;
}

const BUILT_IN_FORMATS: Record<number, string> = {
  0: 'General',
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  49: '@',
};

/** The first sheet as rows of cells (by column letter position; empty cells are undefined). */
export function readFirstSheet(file: Buffer): (XlsxCell | undefined)[][] {
  const entries = zipEntries(file);
  const part = (name: string) => entries.get(name)?.toString('utf8') ?? '';
  const shared = [...part('xl/sharedStrings.xml').matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) => itemText(m[1]));
  const styles = part('xl/styles.xml');
  const custom = new Map(
    [...styles.matchAll(/<numFmt numFmtId="(\d+)" formatCode="([^"]*)"/g)].map((m) => [
      Number(m[1]),
      unescapeXml(m[2]),
    ]),
  );
  const cellXfs = /<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/.exec(styles)?.[1] ?? '';
  const styleFormats = [...cellXfs.matchAll(/<xf\b([^>]*)/g)].map((m) => {
    const id = Number(/numFmtId="(\d+)"/.exec(m[1])?.[1] ?? 0);
    return custom.get(id) ?? BUILT_IN_FORMATS[id] ?? `#${id}`;
  });
  const sheet = part('xl/worksheets/sheet1.xml');
  return [...sheet.matchAll(/<row\b[^>]*>([\s\S]*?)<\/row>/g)].map((row) => {
    const cells: (XlsxCell | undefined)[] = [];
    for (const cell of row[1].matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const attributes = cell[1];
      const body = cell[2] ?? '';
      const letters = /r="([A-Z]+)\d+"/.exec(attributes)![1];
      const column = [...letters].reduce((n, letter) => n * 26 + letter.charCodeAt(0) - 64, 0) - 1;
      const type = /t="(\w+)"/.exec(attributes)?.[1];
      const format = styleFormats[Number(/s="(\d+)"/.exec(attributes)?.[1] ?? 0)] ?? 'General';
      const raw = /<v>([^<]*)<\/v>/.exec(body)?.[1];
      if (type === 's') cells[column] = { kind: 'string', value: shared[Number(raw)], format };
      else if (type === 'inlineStr') cells[column] = { kind: 'string', value: itemText(body), format };
      else if (type === 'str') cells[column] = { kind: 'string', value: unescapeXml(raw ?? ''), format };
      else if (raw !== undefined) cells[column] = { kind: 'number', value: raw, format };
    }
    return cells;
  });
}
