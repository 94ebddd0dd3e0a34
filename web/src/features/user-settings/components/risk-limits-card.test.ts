import { describe, expect, it } from 'vitest';
import { riskLimitRows } from './risk-limits-card';

describe('risk limits card', () => {
  it('shows 0 as no limit and amounts in yuan', () => {
    const t = (key: string) => key;
    const rows = riskLimitRows(
      { merchant_id: 1, single_flight: true, number_daily_orders: 0, number_daily_fen: 30_000, daily_cap_fen: 0 },
      t,
    );
    expect(rows).toEqual([
      ['risk.singleFlight', 'risk.on'],
      ['risk.numberDailyOrders', 'risk.unlimited'],
      ['risk.numberDailyYuan', '¥300.00'],
      ['risk.dailyCapYuan', 'risk.unlimited'],
    ]);
  });
});
