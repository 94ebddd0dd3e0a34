import { describe, expect, it } from 'vitest';
import { toSecurityQuery } from './security';

describe('toSecurityQuery', () => {
  it('maps the filters and drops empty ones', () => {
    expect(toSecurityQuery({})).toEqual({});
    expect(toSecurityQuery({ user: '  ', address: ' ', merchantId: 0 })).toEqual({});
    expect(
      toSecurityQuery({
        kind: 'sign_in',
        user: ' ann ',
        address: ' 10.0.0.1 ',
        merchantId: 10001,
        startTime: '2026-01-01T00:00:00+08:00',
        endTime: '2026-02-01T00:00:00+08:00',
      }),
    ).toEqual({
      kind: 'sign_in',
      user: 'ann',
      address: '10.0.0.1',
      merchant_id: 10001,
      start_time: '2026-01-01T00:00:00+08:00',
      end_time: '2026-02-01T00:00:00+08:00',
    });
  });
});
