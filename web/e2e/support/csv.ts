/** CSV lines into fields: quotes removed, `""` unescaped, and the tab that keeps a long
 * identifier text in Excel trimmed (docs/api.md, "Files are safe to open in Excel"). */
export function csvRows(text: string): string[][] {
  return csvRawRows(text).map((line) =>
    line.map((field) => (field.startsWith('"') ? field.slice(1, -1).replace(/""/g, '"') : field).replace(/\t$/, '')),
  );
}

/** CSV lines into fields exactly as written (quotes and tabs kept): what Excel reads. */
export function csvRawRows(text: string): string[][] {
  return text
    .trim()
    .split(/\r?\n/)
    .map((line) =>
      (line.match(/("([^"]|"")*"|[^,]*)(,|$)/g) ?? [])
        .filter((field, index, all) => !(index === all.length - 1 && field === ''))
        .map((field) => field.replace(/,$/, '')),
    );
}
