/**
 * Column settings of a list (which columns show, in what order, and the row density), kept
 * per user and per list in localStorage, as antd Pro tables do. Stored settings are read
 * defensively: a column the code no longer has is dropped, a new one appears at its default
 * place, and anything unreadable falls back to the defaults.
 */

export type Density = 'large' | 'middle' | 'small';
export const DENSITIES: readonly Density[] = ['large', 'middle', 'small'];

export interface ColumnSettings {
  /** Every settable column key, in display order. */
  order: string[];
  /** Keys the user hid. */
  hidden: string[];
  density: Density;
}

/**
 * A change to the settings, applied to the settings current when it runs (not to the ones a
 * control saw when it last rendered): two quick changes, say hiding a column and then moving
 * another before the popover has re-rendered, both take effect.
 */
export type SettingsChange = (current: ColumnSettings) => ColumnSettings;

const PREFIX = 'list-settings';

/** One entry per user and list: two people sharing a browser keep their own layouts. */
export function settingsStorageKey(user: string, listKey: string): string {
  return `${PREFIX}:${user || 'anonymous'}:${listKey}`;
}

/** Every column in its place, shown unless it is one of `hidden` (left out by default). */
export function defaultSettings(
  keys: readonly string[],
  density: Density = 'middle',
  hidden: readonly string[] = [],
): ColumnSettings {
  return { order: [...keys], hidden: keys.filter((key) => hidden.includes(key)), density };
}

/**
 * The stored order reconciled with today's columns: unknown keys dropped, missing keys
 * inserted right after the column that precedes them by default (or first).
 */
export function reconcileOrder(stored: readonly string[], keys: readonly string[]): string[] {
  const known = new Set(keys);
  const result = stored.filter((key, index) => known.has(key) && stored.indexOf(key) === index);
  keys.forEach((key, index) => {
    if (result.includes(key)) return;
    const before = keys
      .slice(0, index)
      .reverse()
      .find((candidate) => result.includes(candidate));
    result.splice(before === undefined ? 0 : result.indexOf(before) + 1, 0, key);
  });
  return result;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * Parse what localStorage held; anything unreadable yields the defaults. A column the stored
 * settings do not know yet takes its default: shown, or left out when it is one of `hidden`.
 */
export function parseSettings(
  raw: string | null,
  keys: readonly string[],
  density: Density = 'middle',
  hidden: readonly string[] = [],
): ColumnSettings {
  const fallback = defaultSettings(keys, density, hidden);
  if (!raw) return fallback;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return fallback;
  }
  if (!value || typeof value !== 'object') return fallback;
  return fitSettings(value as Record<string, unknown>, keys, density, hidden);
}

/**
 * Settings made for other columns (read from storage, or held while the columns changed)
 * fitted to `keys`: unknown columns dropped, new ones at their default place and visibility.
 */
export function fitSettings(
  record: Record<string, unknown> | ColumnSettings,
  keys: readonly string[],
  density: Density = 'middle',
  hidden: readonly string[] = [],
): ColumnSettings {
  const fields = record as Record<string, unknown>;
  const known = new Set(keys);
  const stored = new Set(stringList(fields.order));
  const unseen = hidden.filter((key) => known.has(key) && !stored.has(key));
  return {
    order: reconcileOrder(stringList(fields.order), keys),
    hidden: [...stringList(fields.hidden).filter((key) => known.has(key)), ...unseen],
    density: DENSITIES.includes(fields.density as Density) ? (fields.density as Density) : density,
  };
}

export function loadSettings(
  storage: Pick<Storage, 'getItem'>,
  storageKey: string,
  keys: readonly string[],
  density: Density = 'middle',
  hidden: readonly string[] = [],
): ColumnSettings {
  let raw: string | null = null;
  try {
    raw = storage.getItem(storageKey);
  } catch {
    // Storage can be refused (private mode, quota); the defaults still work.
  }
  return parseSettings(raw, keys, density, hidden);
}

export function saveSettings(storage: Pick<Storage, 'setItem'>, storageKey: string, settings: ColumnSettings): void {
  try {
    storage.setItem(storageKey, JSON.stringify(settings));
  } catch {
    // Not kept across reloads, but the page still applies it.
  }
}

/** Move `key` one place up (-1) or down (+1); unchanged at either end. */
export function moveColumn(settings: ColumnSettings, key: string, step: -1 | 1): ColumnSettings {
  const order = [...settings.order];
  const from = order.indexOf(key);
  const to = from + step;
  if (from < 0 || to < 0 || to >= order.length) return settings;
  [order[from], order[to]] = [order[to], order[from]];
  return { ...settings, order };
}

/** Show or hide one column; the last visible column cannot be hidden (an empty table helps no one). */
export function toggleColumn(settings: ColumnSettings, key: string, visible: boolean): ColumnSettings {
  const hidden = settings.hidden.filter((item) => item !== key);
  if (!visible) {
    if (settings.order.filter((item) => !hidden.includes(item)).length <= 1) return settings;
    hidden.push(key);
  }
  return { ...settings, hidden };
}

/**
 * The columns to render: settable ones in the user's order without the hidden ones, then
 * the pinned ones (e.g. actions fixed at the right) in their own order.
 */
export function applySettings<C extends { key: string }>(
  columns: readonly C[],
  settings: ColumnSettings,
  pinned: (column: C) => boolean,
): C[] {
  const byKey = new Map(columns.map((column) => [column.key, column]));
  const ordered = settings.order
    .filter((key) => !settings.hidden.includes(key))
    .map((key) => byKey.get(key))
    .filter((column): column is C => column !== undefined && !pinned(column));
  return [...ordered, ...columns.filter(pinned)];
}
