/**
 * Money-moving calls carry an `Idempotency-Key` (docs/api.md): the server answers a
 * repeated key with the first answer and moves nothing. A dialog makes one key when it
 * opens and sends it with every submission, so a retry after a lost answer (network
 * error, double click) cannot credit twice.
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** 32 random hex digits. getRandomValues works on plain-HTTP origins too (randomUUID does not). */
export function newIdempotencyKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export function idempotencyHeaders(key: string): Record<string, string> {
  return { [IDEMPOTENCY_HEADER]: key };
}
