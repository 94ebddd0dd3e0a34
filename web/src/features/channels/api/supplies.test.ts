import { describe, expect, it } from 'vitest';
import { serverFieldErrors } from '@/lib/form-errors';
import { ApiError } from '@/lib/request';
import type { CatalogueProduct, Supply } from './channels';
import { bulkFieldMap, bulkItems, costOfFace, percentToBasisPoints, supplyRows } from './supplies';

const catalogue: CatalogueProduct[] = [
  { id: 1, product_key: 'MOBILE-DIRECT-10', name: 'Mobile 10', face_value_fen: 1000, status: 1 },
  { id: 2, product_key: 'MOBILE-DIRECT-20', name: 'Mobile 20', face_value_fen: 2000, status: 1 },
];
const supplies: Supply[] = [
  { product_key: 'MOBILE-DIRECT-10', cost_fen: 960, priority: 10, weight: 3, enabled: true },
  { product_key: 'GONE-1', cost_fen: 1, priority: 0, weight: 1, enabled: false },
];

describe('supply rows', () => {
  it('lists every catalogue product with its supply, then supplies the catalogue lacks', () => {
    const rows = supplyRows(catalogue, supplies);
    expect(rows.map((row) => [row.product_key, row.supply?.cost_fen ?? null])).toEqual([
      ['MOBILE-DIRECT-10', 960],
      ['MOBILE-DIRECT-20', null],
      ['GONE-1', 1],
    ]);
    expect(rows[2].face_value_fen).toBeNull();
  });
});

describe('bulk edit', () => {
  const rows = supplyRows(catalogue, supplies);

  it('sets the typed cost in fen on every chosen row, parsed as text (9.57 is 957, never 956.99…)', () => {
    const result = bulkItems(rows.slice(0, 2), { cost: '9.57', enabled: 'keep' });
    expect(result).toEqual({
      ok: true,
      items: [
        { product_key: 'MOBILE-DIRECT-10', cost_fen: 957, priority: 10, weight: 3, enabled: true },
        { product_key: 'MOBILE-DIRECT-20', cost_fen: 957, priority: 0, weight: 1, enabled: true },
      ],
    });
  });

  it('keeps each row its own values where the form is blank', () => {
    const result = bulkItems([rows[0], rows[2]], { cost: ' ', priority: null, weight: 7, enabled: 'off' });
    expect(result).toEqual({
      ok: true,
      items: [
        { product_key: 'MOBILE-DIRECT-10', cost_fen: 960, priority: 10, weight: 7, enabled: false },
        { product_key: 'GONE-1', cost_fen: 1, priority: 0, weight: 7, enabled: false },
      ],
    });
  });

  it('needs a cost for a product not supplied yet, and a plain amount', () => {
    expect(bulkItems(rows.slice(0, 2), { enabled: 'on' })).toEqual({ ok: false, field: 'cost', reason: 'required' });
    expect(bulkItems(rows.slice(0, 1), { cost: '9.999' })).toEqual({ ok: false, field: 'cost', reason: 'invalid' });
    expect(bulkItems(rows.slice(0, 1), { cost: '1e3' })).toEqual({ ok: false, field: 'cost', reason: 'invalid' });
  });

  it('sets national or the chosen provinces on every row, or keeps each row its own', () => {
    const chosen = bulkItems(rows.slice(0, 2), { cost: '9', coverage: 'provinces', provinces: [440000, 330000] });
    expect(chosen.ok && chosen.items.map((item) => item.provinces)).toEqual([
      [330000, 440000],
      [330000, 440000],
    ]);
    const national = bulkItems(rows.slice(0, 1), { coverage: 'national' });
    expect(national.ok && national.items[0].provinces).toEqual([]);
    const kept = bulkItems(rows.slice(0, 1), { coverage: 'keep' });
    expect(kept.ok && 'provinces' in kept.items[0]).toBe(false);
    expect(bulkItems(rows.slice(0, 1), { coverage: 'provinces', provinces: [] })).toEqual({
      ok: false,
      field: 'provinces',
      reason: 'provincesRequired',
    });
    expect(bulkFieldMap(1)['items[0].provinces']).toBe('provinces');
  });

  it("puts the server's item messages on the bulk form's fields", () => {
    const error = new ApiError('bad', {
      kind: 'envelope',
      code: 40000,
      data: { fields: { 'items[1].weight': 'Weight 0 to 10000', 'items[0].product_key': 'No such product' } },
    });
    expect(serverFieldErrors(error, bulkFieldMap(2))).toEqual([{ name: 'weight', message: 'Weight 0 to 10000' }]);
  });
});

describe('bulk cost as a share of the face value', () => {
  const rows = supplyRows(catalogue, supplies);

  it('reads the percentage as text and rounds each cost half up to the fen in integers', () => {
    expect(percentToBasisPoints('96.5')).toBe(9650);
    expect(percentToBasisPoints('98.55%')).toBe(9855);
    expect(percentToBasisPoints('0')).toBeNull();
    expect(percentToBasisPoints('96.555')).toBeNull();
    expect(percentToBasisPoints('201')).toBeNull();
    // 10.00 × 96.55 % = 9.655 → 9.66; 20.00 × 96.55 % = 19.31 exactly.
    expect(costOfFace(1000, 9655)).toBe(966);
    expect(costOfFace(2000, 9655)).toBe(1931);
    const result = bulkItems(rows.slice(0, 2), { costMode: 'percent', cost: '96.55' });
    expect(result.ok && result.items.map((item) => item.cost_fen)).toEqual([966, 1931]);
  });

  it('refuses a share for a product whose face value the catalogue no longer tells', () => {
    expect(bulkItems([rows[2]], { costMode: 'percent', cost: '96' })).toEqual({
      ok: false,
      field: 'cost',
      reason: 'noFaceValue',
    });
    expect(bulkItems([rows[0]], { costMode: 'percent', cost: 'abc' })).toEqual({
      ok: false,
      field: 'cost',
      reason: 'percentInvalid',
    });
  });
});
