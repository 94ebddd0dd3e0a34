import { describe, expect, it } from 'vitest';
import { formatFen, formatSignedFen, MAX_AMOUNT_FEN, parseYuanToFen } from './money';

describe('formatFen', () => {
  it('formats integer fen as yuan with two decimals', () => {
    expect(formatFen(0)).toBe('0.00');
    expect(formatFen(1)).toBe('0.01');
    expect(formatFen(10)).toBe('0.10');
    expect(formatFen(100)).toBe('1.00');
    expect(formatFen(985)).toBe('9.85');
    expect(formatFen(123456)).toBe('1,234.56');
    expect(formatFen(61665515)).toBe('616,655.15');
    expect(formatFen(123456, { grouping: false })).toBe('1234.56');
  });

  it('keeps the sign of negative amounts', () => {
    expect(formatFen(-5)).toBe('-0.05');
    expect(formatFen(-4950)).toBe('-49.50');
    expect(formatSignedFen(500)).toBe('+5.00');
    expect(formatSignedFen(-500)).toBe('-5.00');
    expect(formatSignedFen(0)).toBe('0.00');
  });

  it('is exact for large amounts (no float rounding)', () => {
    expect(formatFen(MAX_AMOUNT_FEN)).toBe('100,000,000.00');
    expect(formatFen(9007199254740991)).toBe('90,071,992,547,409.91');
  });

  it('renders a dash for missing or non-integer values', () => {
    expect(formatFen(null)).toBe('-');
    expect(formatFen(undefined)).toBe('-');
    expect(formatFen(1.5)).toBe('-');
    expect(formatFen(Number.NaN)).toBe('-');
  });
});

describe('parseYuanToFen', () => {
  it('parses whole and decimal yuan by string, not float', () => {
    expect(parseYuanToFen('12')).toBe(1200);
    expect(parseYuanToFen('12.5')).toBe(1250);
    expect(parseYuanToFen('12.50')).toBe(1250);
    expect(parseYuanToFen('0.01')).toBe(1);
    expect(parseYuanToFen('.5')).toBe(50);
    expect(parseYuanToFen('3.')).toBe(300);
    expect(parseYuanToFen('0.29')).toBe(29); // 0.29 * 100 = 28.999999999999996 in floats
    expect(parseYuanToFen('1.13')).toBe(113);
    expect(parseYuanToFen('1,234.56')).toBe(123456);
    expect(parseYuanToFen('  007.10 ')).toBe(710);
    expect(parseYuanToFen('+5')).toBe(500);
  });

  it('rejects what is not an amount', () => {
    for (const bad of ['', ' ', '.', 'abc', '1.234', '1e3', '1.2.3', '¥5', '12 yuan', '0x10', 'Infinity']) {
      expect(parseYuanToFen(bad), bad).toBeNull();
    }
  });

  it('rejects negatives unless allowed, and amounts over the limit', () => {
    expect(parseYuanToFen('-1')).toBeNull();
    expect(parseYuanToFen('-1.05', { allowNegative: true })).toBe(-105);
    expect(parseYuanToFen('100000000')).toBe(MAX_AMOUNT_FEN);
    expect(parseYuanToFen('100000000.01')).toBeNull();
    expect(parseYuanToFen('99999999999999999')).toBeNull();
  });

  it('round-trips with formatFen', () => {
    for (const fen of [0, 1, 99, 100, 12345, 500000000]) {
      expect(parseYuanToFen(formatFen(fen))).toBe(fen);
    }
  });
});
