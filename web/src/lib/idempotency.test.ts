import { describe, expect, it } from 'vitest';
import { idempotencyHeaders, newIdempotencyKey } from './idempotency';

describe('newIdempotencyKey', () => {
  it('makes a new visible-ASCII key each time', () => {
    const keys = new Set(Array.from({ length: 50 }, () => newIdempotencyKey()));
    expect(keys.size).toBe(50);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{32}$/);
  });

  it('is sent as the Idempotency-Key header', () => {
    expect(idempotencyHeaders('abc')).toEqual({ 'Idempotency-Key': 'abc' });
  });
});
