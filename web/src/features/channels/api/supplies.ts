/**
 * A channel's products as the console shows and edits them: every catalogue product, with
 * the channel's cost, priority, weight and switch where it supplies it. Bulk edit sets the
 * same values on the chosen rows; blank fields keep each row's own. Costs are typed in
 * yuan and sent in fen (parsed as text, lib/money.ts).
 */
import { parseYuanToFen } from '@/lib/money';
import type { CatalogueProduct, Supply } from './channels';

export const WEIGHT_RANGE = [0, 10_000] as const;
export const PRIORITY_RANGE = [-1_000_000, 1_000_000] as const;

export interface SupplyRow {
  product_key: string;
  /** Catalogue name; the key when the catalogue no longer has it. */
  name: string;
  face_value_fen: number | null;
  /** Null: the channel does not supply this product (yet). */
  supply: Supply | null;
}

/** Every catalogue product in catalogue order, then supplies of products the catalogue lacks. */
export function supplyRows(catalogue: readonly CatalogueProduct[], supplies: readonly Supply[]): SupplyRow[] {
  const byKey = new Map(supplies.map((supply) => [supply.product_key, supply]));
  const rows: SupplyRow[] = catalogue.map((product) => ({
    product_key: product.product_key,
    name: product.name,
    face_value_fen: product.face_value_fen,
    supply: byKey.get(product.product_key) ?? null,
  }));
  const listed = new Set(catalogue.map((product) => product.product_key));
  for (const supply of supplies) {
    if (!listed.has(supply.product_key))
      rows.push({ product_key: supply.product_key, name: supply.product_key, face_value_fen: null, supply });
  }
  return rows;
}

/** The bulk form: a blank field keeps each row's value. */
export interface BulkEditValues {
  /** Yuan, as typed. */
  cost?: string;
  priority?: number | null;
  weight?: number | null;
  /** 'keep' leaves each row's switch. */
  enabled?: 'keep' | 'on' | 'off';
}

export type BulkResult = { ok: true; items: Supply[] } | { ok: false; field: 'cost'; reason: 'invalid' | 'required' };

const blank = (value: string | undefined) => value === undefined || value.trim() === '';

/**
 * The items to save for the chosen rows. A row the channel does not supply yet needs a
 * cost (there is none to keep); a new supply defaults to priority 0, weight 1, on.
 */
export function bulkItems(rows: readonly SupplyRow[], values: BulkEditValues): BulkResult {
  let cost: number | null = null;
  if (!blank(values.cost)) {
    cost = parseYuanToFen(values.cost ?? '');
    if (cost === null) return { ok: false, field: 'cost', reason: 'invalid' };
  }
  const items: Supply[] = [];
  for (const row of rows) {
    const costFen = cost ?? row.supply?.cost_fen;
    if (costFen === undefined) return { ok: false, field: 'cost', reason: 'required' };
    const enabled = values.enabled === 'on' ? true : values.enabled === 'off' ? false : (row.supply?.enabled ?? true);
    items.push({
      product_key: row.product_key,
      cost_fen: costFen,
      priority: values.priority ?? row.supply?.priority ?? 0,
      weight: values.weight ?? row.supply?.weight ?? 1,
      enabled,
    });
  }
  return { ok: true, items };
}

/**
 * The server names a bad item `items[n].field`; every item got the bulk form's one value,
 * so each such message belongs on that form field.
 */
export function bulkFieldMap(count: number): Record<string, string | null> {
  const map: Record<string, string | null> = {};
  for (let index = 0; index < count; index += 1) {
    map[`items[${index}].cost_fen`] = 'cost';
    map[`items[${index}].priority`] = 'priority';
    map[`items[${index}].weight`] = 'weight';
    map[`items[${index}].product_key`] = null;
  }
  return map;
}
