import { describe, expect, it } from 'vitest';
import { toAccountQuery } from './account-records';

describe('toAccountQuery', () => {
  it('maps the account log filters and drops empty ones', () => {
    expect(toAccountQuery({})).toEqual({});
    expect(toAccountQuery({ orderNo: '  ' })).toEqual({});
    expect(
      toAccountQuery({
        accountType: 'credit',
        changeType: 'repayment',
        orderNo: ' 2026 ',
        orderId: 12,
        startTime: '2026-01-01T00:00:00+08:00',
        endTime: '2026-02-01T00:00:00+08:00',
        merchantId: 10001,
      }),
    ).toEqual({
      account_type: 'credit',
      change_type: 'repayment',
      order_no: '2026',
      order_id: 12,
      start_time: '2026-01-01T00:00:00+08:00',
      end_time: '2026-02-01T00:00:00+08:00',
      merchant_id: 10001,
    });
  });
});
