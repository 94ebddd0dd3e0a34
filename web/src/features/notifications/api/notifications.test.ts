import { describe, expect, it } from 'vitest';
import { toNotificationQuery } from './notifications';

describe('toNotificationQuery', () => {
  it('sends only the filters that are set, with the API names', () => {
    expect(toNotificationQuery({})).toEqual({});
    expect(
      toNotificationQuery({
        state: 'exhausted',
        orderNo: '  M20261123  ',
        merchantId: 10001,
        startTime: '2026-11-23T00:00:00+08:00',
        endTime: '2026-11-24T00:00:00+08:00',
      }),
    ).toEqual({
      state: 'exhausted',
      order_no: 'M20261123',
      merchant_id: 10001,
      from: '2026-11-23T00:00:00+08:00',
      to: '2026-11-24T00:00:00+08:00',
    });
    expect(toNotificationQuery({ orderNo: '   ' })).toEqual({});
  });
});
