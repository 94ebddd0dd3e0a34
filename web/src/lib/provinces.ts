/**
 * Provinces by their GB/T 2260 codes (the server's `domain::product_scope`), for a product's
 * sales area. Names come from the locale files (`common.province.<code>`).
 */
export const PROVINCE_CODES = [
  110000, 120000, 130000, 140000, 150000, 210000, 220000, 230000, 310000, 320000, 330000, 340000, 350000, 360000,
  370000, 410000, 420000, 430000, 440000, 450000, 460000, 500000, 510000, 520000, 530000, 540000, 610000, 620000,
  630000, 640000, 650000, 710000, 810000, 820000,
] as const;

export type ProvinceCode = (typeof PROVINCE_CODES)[number];

export const provinceKey = (code: number) => `common.province.${code}`;

/** Whether a product sold in `provinces` (empty: national) fits a number of `province`. */
export function inScope(provinces: readonly number[], province: number | null | undefined): boolean {
  return provinces.length === 0 || (province != null && provinces.includes(province));
}
