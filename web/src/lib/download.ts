/**
 * Downloads through the API with the session token: fetch the file as a Blob with the one
 * HTTP client's binary instance, then hand it to the browser under a chosen name.
 */
import type { AxiosRequestConfig } from 'axios';
import { type FileGetPath, getBlob } from './request';

/** Save a Blob as a file (an object URL clicked through a temporary anchor). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.style.display = 'none';
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Drop empty values so an export carries exactly the list's filters. */
export function compactParams(params: Record<string, unknown>): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out[key] = value;
  }
  return out;
}

/** GET `url` with query `params` as a file and save it as `fileName`. */
export async function downloadFile(
  url: FileGetPath,
  params: Record<string, unknown>,
  fileName: string,
  config?: AxiosRequestConfig,
): Promise<void> {
  const blob = await getBlob(url, { ...config, params: compactParams(params) });
  saveBlob(blob, fileName);
}

/** A file name stamped with the local date and time: orders-20260101-093000.csv */
export function stampedFileName(prefix: string, extension: string, now = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  return `${prefix}-${stamp}.${extension}`;
}
