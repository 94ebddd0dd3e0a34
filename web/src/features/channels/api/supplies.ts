/**
 * A channel's products as the console shows and edits them: every catalogue product, with
 * the channel's cost, priority, weight, switch and coverage (provinces) where it supplies it. Bulk edit sets the
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

/**
 * A percentage typed as text ("96", "98.55") → basis points (9600, 9855), by string
 * arithmetic. Null for anything else, or outside 0.01 % to 200 %.
 */
export function percentToBasisPoints(input: string): number | null {
  const match = /^(\d{1,3})(?:\.(\d{0,2}))?$/.exec(input.trim().replace(/%$/, '').trim());
  if (!match) return null;
  const [, whole, fraction = ''] = match;
  const bp = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return bp >= 1 && bp <= 20_000 ? bp : null;
}

/** face × bp / 10000, rounded half up to the fen, in integers (exact far beyond any face value). */
export function costOfFace(faceFen: number, bp: number): number {
  return Math.floor((faceFen * bp + 5_000) / 10_000);
}

/** The bulk form: a blank field keeps each row's value. */
export interface BulkEditValues {
  /** `yuan`: the same cost for every row; `percent`: a share of each row's face value. */
  costMode?: 'yuan' | 'percent';
  /** Yuan, or a percentage of the face value, as typed. */
  cost?: string;
  priority?: number | null;
  weight?: number | null;
  /** 'keep' leaves each row's switch. */
  enabled?: 'keep' | 'on' | 'off';
  /** 'keep' leaves each row's coverage; 'national' or the chosen `provinces` for every row. */
  coverage?: 'keep' | 'national' | 'provinces';
  provinces?: number[];
}

export type BulkResult =
  | { ok: true; items: Supply[] }
  | { ok: false; field: 'cost'; reason: 'invalid' | 'required' | 'percentInvalid' | 'noFaceValue' }
  | { ok: false; field: 'provinces'; reason: 'provincesRequired' };

/** The coverage the form sets: undefined keeps each row's (the server keeps an absent one). */
function coverageOf(values: BulkEditValues): number[] | undefined | null {
  if (values.coverage === 'national') return [];
  if (values.coverage !== 'provinces') return undefined;
  return values.provinces?.length ? [...values.provinces].sort((a, b) => a - b) : null;
}

const blank = (value: string | undefined) => value === undefined || value.trim() === '';

/**
 * The items to save for the chosen rows. A row the channel does not supply yet needs a
 * cost (there is none to keep); a new supply defaults to priority 0, weight 1, on.
 */
export function bulkItems(rows: readonly SupplyRow[], values: BulkEditValues): BulkResult {
  const percent = values.costMode === 'percent';
  let cost: number | null = null;
  let bp: number | null = null;
  if (!blank(values.cost)) {
    if (percent) {
      bp = percentToBasisPoints(values.cost ?? '');
      if (bp === null) return { ok: false, field: 'cost', reason: 'percentInvalid' };
    } else {
      cost = parseYuanToFen(values.cost ?? '');
      if (cost === null) return { ok: false, field: 'cost', reason: 'invalid' };
    }
  }
  const provinces = coverageOf(values);
  if (provinces === null) return { ok: false, field: 'provinces', reason: 'provincesRequired' };
  const items: Supply[] = [];
  for (const row of rows) {
    let costFen = cost ?? row.supply?.cost_fen;
    if (bp !== null) {
      if (row.face_value_fen === null) return { ok: false, field: 'cost', reason: 'noFaceValue' };
      costFen = costOfFace(row.face_value_fen, bp);
    }
    if (costFen === undefined) return { ok: false, field: 'cost', reason: 'required' };
    const enabled = values.enabled === 'on' ? true : values.enabled === 'off' ? false : (row.supply?.enabled ?? true);
    items.push({
      product_key: row.product_key,
      cost_fen: costFen,
      priority: values.priority ?? row.supply?.priority ?? 0,
      weight: values.weight ?? row.supply?.weight ?? 1,
      enabled,
      ...(provinces === undefined ? {} : { provinces }),
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
    map[`items[${index}].provinces`] = 'provinces';
    map[`items[${index}].product_key`] = null;
  }
  return map;
}
