/**
 * What a saved view holds of a list page (issue 52): the filters as the address carries
 * them, the column settings and density, and the sort when the page has one. The server
 * keeps it as an opaque JSON object, so it is read back defensively: a view saved before a
 * column or a filter changed still applies what it can.
 */
import { type ColumnSettings, DENSITIES, type Density, parseSettings } from './column-settings';

export interface ViewState {
  /** The address's filter parameters (`status=3`, `range=…~…`). */
  filters: Record<string, string>;
  columns?: { order: string[]; hidden: string[] };
  density?: Density;
  sort?: string;
}

/** The current page as a view: what the address, the column settings and the sort say. */
export function captureState(search: string, settings: ColumnSettings, sort?: string): ViewState {
  const state: ViewState = {
    filters: Object.fromEntries(new URLSearchParams(search)),
    columns: { order: [...settings.order], hidden: [...settings.hidden] },
    density: settings.density,
  };
  if (sort !== undefined) state.sort = sort;
  return state;
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined;
}

/** A stored state as far as it can be read; anything else is left out. */
export function readState(raw: unknown): ViewState {
  const record = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const filters: Record<string, string> = {};
  const rawFilters = record.filters;
  if (rawFilters && typeof rawFilters === 'object' && !Array.isArray(rawFilters)) {
    for (const [key, value] of Object.entries(rawFilters)) {
      if (typeof value === 'string') filters[key] = value;
    }
  }
  const state: ViewState = { filters };
  const columns = record.columns as Record<string, unknown> | null | undefined;
  const order = strings(columns?.order);
  if (order) state.columns = { order, hidden: strings(columns?.hidden) ?? [] };
  if (DENSITIES.includes(record.density as Density)) state.density = record.density as Density;
  if (typeof record.sort === 'string') state.sort = record.sort;
  return state;
}

/** The address's query for a view's filters (keys sorted: the same view gives the same address). */
export function viewSearch(state: ViewState): string {
  const keys = Object.keys(state.filters).sort();
  return new URLSearchParams(keys.map((key) => [key, state.filters[key]])).toString();
}

/**
 * The column settings a view gives, reconciled with today's columns (a column added since
 * takes its default place; one removed is dropped); what the view does not say is kept.
 */
export function viewColumns(
  current: ColumnSettings,
  state: ViewState,
  keys: readonly string[],
  hiddenKeys: readonly string[],
): ColumnSettings {
  const density = state.density ?? current.density;
  if (!state.columns) return { ...current, density };
  return parseSettings(JSON.stringify({ ...state.columns, density }), keys, density, hiddenKeys);
}
