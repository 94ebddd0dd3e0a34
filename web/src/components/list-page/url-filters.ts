/**
 * A list's filters live in the page address (`#/order/list?status=3&range=…`): a link can
 * open a filtered list (the workplace figures do), the tab keeps it, a reload keeps it.
 * Form values ↔ query parameters, with a small schema saying which keys are numbers and
 * which are date ranges; anything unreadable in an address is ignored, never an error.
 */
import dayjs, { type Dayjs } from 'dayjs';

export type FilterValue = string | number | [Dayjs | null, Dayjs | null] | null | undefined;
export type FilterValues = Record<string, FilterValue>;

export interface FilterSchema {
  /** Keys whose values are numbers (selects of codes, ids). */
  numbers?: readonly string[];
  /** Keys whose values are picked date-time ranges. */
  ranges?: readonly string[];
  /** Every other key read from the address is text; keys not listed anywhere are ignored. */
  texts?: readonly string[];
}

const RANGE_PATTERN = 'YYYY-MM-DDTHH:mm:ss';
const RANGE_SEPARATOR = '~';

function readTime(text: string): Dayjs | null {
  if (!text) return null;
  // A local wall-clock reading (no zone), as the pickers hold it.
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(text)) return null;
  const time = dayjs(text);
  return time.isValid() && time.format(RANGE_PATTERN) === text ? time : null;
}

/** The address's parameters as form values (only the schema's keys). */
export function paramsToValues(params: URLSearchParams, schema: FilterSchema): FilterValues {
  const values: FilterValues = {};
  for (const key of schema.texts ?? []) {
    const text = params.get(key)?.trim();
    if (text) values[key] = text;
  }
  for (const key of schema.numbers ?? []) {
    const text = params.get(key)?.trim();
    if (!text) continue;
    const number = Number(text);
    if (Number.isSafeInteger(number)) values[key] = number;
  }
  for (const key of schema.ranges ?? []) {
    const text = params.get(key);
    if (!text) continue;
    const [from = '', to = ''] = text.split(RANGE_SEPARATOR);
    const range: [Dayjs | null, Dayjs | null] = [readTime(from), readTime(to)];
    if (range[0] || range[1]) values[key] = range;
  }
  return values;
}

/** Form values as query parameters: empty ones left out, in a stable key order. */
export function valuesToParams(values: FilterValues, schema: FilterSchema): Record<string, string> {
  const params: Record<string, string> = {};
  const keys = [...(schema.texts ?? []), ...(schema.numbers ?? []), ...(schema.ranges ?? [])];
  for (const key of keys) {
    const value = values[key];
    if (value === null || value === undefined || value === '') continue;
    if (Array.isArray(value)) {
      const [from, to] = value;
      if (!from && !to) continue;
      params[key] = `${from ? from.format(RANGE_PATTERN) : ''}${RANGE_SEPARATOR}${to ? to.format(RANGE_PATTERN) : ''}`;
    } else if (typeof value === 'number') {
      params[key] = String(value);
    } else {
      const text = value.trim();
      if (text) params[key] = text;
    }
  }
  return params;
}

/** The address of a list opened with these filters (for links such as the workplace's). */
export function listLink(path: string, values: FilterValues, schema: FilterSchema): string {
  const query = new URLSearchParams(valuesToParams(values, schema)).toString();
  return query ? `${path}?${query}` : path;
}
