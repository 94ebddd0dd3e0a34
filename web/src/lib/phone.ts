/**
 * Client-side sanity check of a mainland mobile number and its carrier by number segment
 * (domain notes, allocation of 2024). Numbers can be ported, so a carrier mismatch is a
 * warning the person may override; the server checks again.
 */
export type Carrier = 'mobile' | 'unicom' | 'telecom' | 'broadnet';

export const CARRIERS: readonly Carrier[] = ['mobile', 'unicom', 'telecom', 'broadnet'];

// Four-digit prefixes decide where a three-digit segment is split.
const FOUR: Record<string, Carrier> = {
  '1340': 'mobile',
  '1341': 'mobile',
  '1342': 'mobile',
  '1343': 'mobile',
  '1344': 'mobile',
  '1345': 'mobile',
  '1346': 'mobile',
  '1347': 'mobile',
  '1348': 'mobile',
  '1349': 'telecom',
  '1703': 'mobile',
  '1705': 'mobile',
  '1706': 'mobile',
  '1704': 'unicom',
  '1707': 'unicom',
  '1708': 'unicom',
  '1709': 'unicom',
  '1700': 'telecom',
  '1701': 'telecom',
  '1702': 'telecom',
  '1740': 'telecom',
};

const THREE: Record<string, Carrier> = {};
const add = (carrier: Carrier, segments: string) => {
  for (const segment of segments.split(' ')) THREE[segment] = carrier;
};
add('mobile', '135 136 137 138 139 147 148 150 151 152 157 158 159 165 172 178 182 183 184 187 188 195 197 198');
add('unicom', '130 131 132 145 146 155 156 166 167 171 175 176 185 186 196');
add('telecom', '133 149 153 162 173 177 180 181 189 190 191 193 199');
add('broadnet', '192');

export type PhoneCheck = { ok: true; carrier: Carrier } | { ok: false; reason: 'empty' | 'format' | 'segment' };

// Full-width digits, plus sign and parentheses, as a Chinese input method types them.
const FULL_WIDTH = /[\uff08\uff09\uff0b\uff10-\uff19]/g;
// Spaces of every kind and the dashes people put between groups of digits.
const SEPARATORS = /[\s\u2010-\u2015\u2212\ufe63\uff0d-]/g;

/**
 * The number as the server stores it, read the way the server reads it
 * (`domain::PhoneNumber::parse`): "+86 138 0013 8000", "0086…", "(86)…", "１３８…" →
 * "13800138000". Text that is no mainland number comes back compacted, for the check to
 * refuse.
 */
export function normalizePhone(input: string): string {
  const compact = input
    .replace(FULL_WIDTH, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replace(SEPARATORS, '');
  const bracketed = /^\((\+86|0086|86)\)(.*)$/.exec(compact);
  if (bracketed) return bracketed[2];
  if (compact.startsWith('+86')) return compact.slice(3);
  if (compact.startsWith('0086')) return compact.slice(4);
  if (compact.startsWith('86') && compact.length === 13) return compact.slice(2);
  return compact;
}

/** Which carrier the number's segment belongs to, or why it is not a usable number. */
export function checkPhone(input: string): PhoneCheck {
  const number = normalizePhone(input);
  if (number === '') return { ok: false, reason: 'empty' };
  if (!/^1\d{10}$/.test(number)) return { ok: false, reason: 'format' };
  // 134, 170 and 174 are split: only their listed four-digit prefixes are allocated.
  const carrier = FOUR[number.slice(0, 4)] ?? THREE[number.slice(0, 3)];
  return carrier ? { ok: true, carrier } : { ok: false, reason: 'segment' };
}

/** Whether the number's segment matches the product's carrier (undefined: not a number). */
export function carrierMatches(input: string, productCarrier: string): boolean | undefined {
  const check = checkPhone(input);
  if (!check.ok) return undefined;
  return check.carrier === productCarrier;
}
