/**
 * Client-side checks of the settings forms, mirroring the server's rules so the
 * user hears about a mistake before saving. The server checks everything again; its field
 * messages are shown on the same fields (lib/form-errors).
 *
 * Checks return a reason (or null); the forms turn reasons into localized messages.
 */

export const PROFILE_TEXT_MAX = 200;
export const NICKNAME_MAX = 50;
export const MAX_WHITELIST_ENTRIES = 50;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export function isIpv4(text: string): boolean {
  return IPV4.test(text);
}

/** IPv6 in any standard text form (the URL parser checks it the way browsers do). */
export function isIpv6(text: string): boolean {
  if (!text.includes(':') || /[^0-9a-fA-F:.]/.test(text)) return false;
  try {
    return new URL(`http://[${text}]/`).hostname.startsWith('[');
  } catch {
    return false;
  }
}

/** One whitelist entry: an IPv4 or IPv6 address, or a CIDR range with a prefix that fits. */
export function isIpEntry(entry: string): boolean {
  const slash = entry.indexOf('/');
  if (slash < 0) return isIpv4(entry) || isIpv6(entry);
  const address = entry.slice(0, slash).trim();
  const prefix = entry.slice(slash + 1).trim();
  if (!/^\d{1,3}$/.test(prefix)) return false;
  const bits = Number(prefix);
  if (isIpv4(address)) return bits <= 32;
  if (isIpv6(address)) return bits <= 128;
  return false;
}

export type IpWhitelistProblem =
  { reason: 'chinese_comma' } | { reason: 'invalid'; entry: string } | { reason: 'too_many'; max: number };

/** The entries of a whitelist: split on English commas, trimmed, blanks dropped. */
export function whitelistEntries(text: string): string[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** Several IPs separated by English commas. Null when the text is acceptable (blank is). */
export function checkIpWhitelist(text: string | undefined | null): IpWhitelistProblem | null {
  const value = (text ?? '').trim();
  if (!value) return null;
  if (value.includes('，')) return { reason: 'chinese_comma' };
  const entries = whitelistEntries(value);
  const bad = entries.find((entry) => !isIpEntry(entry));
  if (bad !== undefined) return { reason: 'invalid', entry: bad.slice(0, 64) };
  if (new Set(entries).size > MAX_WHITELIST_ENTRIES) return { reason: 'too_many', max: MAX_WHITELIST_ENTRIES };
  return null;
}

/** The same pragmatic address check as the server: one @, a dotted domain. */
export function isEmail(text: string): boolean {
  if (/\s/.test(text)) return false;
  const at = text.indexOf('@');
  if (at <= 0 || at !== text.lastIndexOf('@') || at > 64) return false;
  const labels = text.slice(at + 1).split('.');
  return (
    labels.length >= 2 &&
    labels.every(
      (label) => label !== '' && !label.startsWith('-') && !label.endsWith('-') && /^[\p{L}\p{N}-]+$/u.test(label),
    )
  );
}

/** 5 to 20 digits, with spaces, +, - and parentheses allowed. */
export function isPhone(text: string): boolean {
  const digits = text.replace(/\D/g, '').length;
  return digits >= 5 && digits <= 20 && /^[\d +\-()]+$/.test(text);
}

/** An http:// or https:// address with a host. */
export function isHttpUrl(text: string): boolean {
  if (/\s/.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export type PasswordProblem = 'too_short' | 'too_long' | 'invalid_character' | 'weak';

/**
 * The password rule: at least 6 characters; digits, letters and non-space special characters;
 * digits and both upper and lower case letters. Blank means no change (null).
 */
export function checkNewPassword(password: string | undefined | null): PasswordProblem | null {
  const value = password ?? '';
  if (value === '') return null;
  const length = [...value].length;
  if (length < PASSWORD_MIN) return 'too_short';
  if (length > PASSWORD_MAX) return 'too_long';
  if (!/^[\x21-\x7e]+$/.test(value)) return 'invalid_character';
  if (!(/\d/.test(value) && /[A-Z]/.test(value) && /[a-z]/.test(value))) return 'weak';
  return null;
}

/** Character count as the server counts it (code points, not UTF-16 units). */
export function characterCount(text: string): number {
  return [...text].length;
}

/** Mainland resident identity card: 17 digits and a check character (GB 11643-1999). */
export function isResidentId(text: string): boolean {
  const value = text.toUpperCase();
  if (!/^\d{17}[\dX]$/.test(value)) return false;
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = weights.reduce((total, weight, index) => total + Number(value[index]) * weight, 0);
  return value[17] === '10X98765432'[sum % 11];
}

/** Other certificate numbers: 4 to 40 letters, digits or hyphens. */
export function isPlainCertificateNumber(text: string): boolean {
  return /^[A-Za-z0-9-]{4,40}$/.test(text);
}

/** The 31 characters of a unified social credit code, in value order (no I, O, S, V, Z). */
const CREDIT_CODE_CHARACTERS = '0123456789ABCDEFGHJKLMNPQRTUWXY';

/**
 * Unified social credit code (GB 32100-2015): 18 characters, the last a check character
 * `31 - Σ value·3^(i-1) mod 31` over the first 17. Typed lowercase is accepted (uppercased).
 */
export function isUnifiedSocialCreditCode(text: string): boolean {
  const value = text.toUpperCase();
  if (value.length !== 18) return false;
  let sum = 0;
  let weight = 1;
  for (const character of value.slice(0, 17)) {
    const digit = CREDIT_CODE_CHARACTERS.indexOf(character);
    if (digit < 0) return false;
    sum += digit * weight;
    weight = (weight * 3) % 31;
  }
  return value[17] === CREDIT_CODE_CHARACTERS[(31 - (sum % 31)) % 31];
}

/** Organisation code (GB 11714-1997): 8 characters and a check character, `12345678-X`. */
export function isOrganizationCode(text: string): boolean {
  const value = text.toUpperCase().replace(/^([0-9A-Z]{8})-(.)$/, '$1$2');
  if (!/^[0-9A-Z]{8}[0-9X]$/.test(value)) return false;
  const weights = [3, 7, 9, 10, 5, 8, 4, 2];
  const sum = weights.reduce((total, weight, index) => total + parseInt(value[index], 36) * weight, 0);
  const check = 11 - (sum % 11);
  return value[8] === (check === 10 ? 'X' : check === 11 ? '0' : String(check));
}
