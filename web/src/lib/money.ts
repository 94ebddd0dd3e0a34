/**
 * Money is integer fen (1 yuan = 100 fen) everywhere in the API. These helpers turn fen into
 * yuan text and yuan text into fen using integer and string operations only (no float
 * arithmetic on money).
 */

/** Largest amount the server accepts in one operation: 100 million yuan. */
export const MAX_AMOUNT_FEN = 100_000_000 * 100;

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * Format integer fen as yuan with exactly two decimals: 123456 → "1,234.56", -5 → "-0.05".
 * `grouping: false` leaves out the thousands separators. Non-integers render as "-".
 */
export function formatFen(fen: number | null | undefined, options: { grouping?: boolean } = {}): string {
  if (fen === null || fen === undefined || !Number.isSafeInteger(fen)) return '-';
  const negative = fen < 0;
  const digits = String(Math.abs(fen)).padStart(3, '0');
  const whole = digits.slice(0, -2);
  const cents = digits.slice(-2);
  const shownWhole = options.grouping === false ? whole : groupThousands(whole);
  return `${negative ? '-' : ''}${shownWhole}.${cents}`;
}

/** Like formatFen but with an explicit sign for positive changes: 500 → "+5.00". */
export function formatSignedFen(fen: number | null | undefined): string {
  const text = formatFen(fen);
  return typeof fen === 'number' && fen > 0 ? `+${text}` : text;
}

/**
 * Parse a yuan amount typed by a person ("12", "12.5", "1,234.56", " 0.01 ") into integer
 * fen. Returns null for anything that is not a plain decimal with at most two fraction
 * digits, for negative values (unless allowNegative) and beyond MAX_AMOUNT_FEN.
 */
export function parseYuanToFen(input: string, options: { allowNegative?: boolean } = {}): number | null {
  const text = input.trim().replace(/[,，\s]/g, '');
  const match = /^([+-]?)(\d*)(?:\.(\d{0,2}))?$/.exec(text);
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  if (whole === '' && fraction === '') return null;
  if (sign === '-' && !options.allowNegative) return null;
  const wholeDigits = whole.replace(/^0+(?=\d)/, '') || '0';
  if (wholeDigits.length > 12) return null;
  const fen = Number(wholeDigits) * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(fen) || fen > MAX_AMOUNT_FEN) return null;
  return sign === '-' ? -fen : fen;
}
