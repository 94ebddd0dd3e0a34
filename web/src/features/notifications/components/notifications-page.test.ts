import { describe, expect, it } from 'vitest';
import { toFilters } from './notifications-page';

describe('notification filters from the address', () => {
  it('keeps known states and positive merchant ids, drops the rest', () => {
    expect(toFilters({ state: 'failed', merchantId: 7, orderNo: 'M1' })).toMatchObject({
      state: 'failed',
      merchantId: 7,
      orderNo: 'M1',
    });
    expect(toFilters({ state: 'lost', merchantId: -3 })).toMatchObject({ state: undefined, merchantId: undefined });
  });
});
