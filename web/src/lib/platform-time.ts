/**
 * The platform keeps Beijing time (UTC+8): "today", the workplace chart's days, exported
 * files and the server's notices all use it. The console shows every time in it as well,
 * whatever the browser's zone, so a row on screen reads the same as in its export and a
 * merchant travelling abroad still sees China's business day.
 */
import dayjs, { type Dayjs } from 'dayjs';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);

/** Beijing time is UTC+8 all year (no daylight saving). */
export const PLATFORM_UTC_OFFSET_MINUTES = 8 * 60;

export const DATE_TIME_PATTERN = 'YYYY-MM-DD HH:mm:ss';

/**
 * A time from the server (RFC 3339 or epoch ms) as Beijing `YYYY-MM-DD HH:mm:ss`, or '-' when
 * absent or invalid. One argument only, so it can be a table column's `render`.
 */
export function formatTime(value: string | number | null | undefined): string {
  return formatTimeAs(value, DATE_TIME_PATTERN);
}

/** The same in another dayjs pattern ('MM-DD HH:mm', 'HH:mm:ss'). */
export function formatTimeAs(value: string | number | null | undefined, pattern: string): string {
  if (value === null || value === undefined || value === '') return '-';
  const time = dayjs(value);
  if (!time.isValid()) return '-';
  return time.utcOffset(PLATFORM_UTC_OFFSET_MINUTES).format(pattern);
}

/**
 * A date picker's value is a wall-clock date and time; the filters mean it in Beijing time,
 * as the lists show it. Returns RFC 3339 with the +08:00 offset for the server.
 */
export function pickedTimeToIso(picked: Dayjs): string {
  return `${picked.format('YYYY-MM-DDTHH:mm:ss')}+08:00`;
}
