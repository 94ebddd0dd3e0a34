import { describe, expect, it } from 'vitest';
import { parseCount, parseLimitYuan, riskBody, riskFormValues } from './risk-form';

describe('risk form', () => {
  it('turns yuan into fen and blanks into no limit', () => {
    const body = riskBody(10001, {
      single_flight: false,
      number_daily_orders: ' 3 ',
      number_daily_yuan: '300.5',
      daily_cap_yuan: '',
    });
    expect(body).toEqual({
      merchant_id: 10001,
      single_flight: false,
      number_daily_orders: 3,
      number_daily_fen: 30_050,
      daily_cap_fen: 0,
    });
  });

  it('refuses what is not a whole count or a non-negative amount', () => {
    expect(parseCount('1.5')).toBeNull();
    expect(parseCount('-1')).toBeNull();
    expect(parseLimitYuan('-2')).toBeNull();
    expect(parseLimitYuan('1.234')).toBeNull();
    const values = { single_flight: true, number_daily_orders: 'x', number_daily_yuan: '0', daily_cap_yuan: '0' };
    expect(riskBody(1, values)).toBeNull();
  });

  it('shows saved fen as yuan without grouping', () => {
    const values = riskFormValues({
      merchant_id: 1,
      single_flight: true,
      number_daily_orders: 0,
      number_daily_fen: 123_456,
      daily_cap_fen: 0,
    });
    expect(values).toEqual({
      single_flight: true,
      number_daily_orders: '0',
      number_daily_yuan: '1234.56',
      daily_cap_yuan: '0.00',
    });
  });
});
