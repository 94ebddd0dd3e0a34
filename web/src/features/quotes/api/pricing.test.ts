import { describe, expect, it } from 'vitest';
import { percentToBasisPoints, ruleBody } from './pricing';

describe('bulk price rules', () => {
  it('read percentages into basis points without floating point', () => {
    expect(percentToBasisPoints('98.5')).toBe(9850);
    expect(percentToBasisPoints('98.55')).toBe(9855);
    expect(percentToBasisPoints(' 100 % ')).toBe(10000);
    expect(percentToBasisPoints('0.01')).toBe(1);
    expect(percentToBasisPoints('200')).toBe(20000);
    // 0.1 + 0.2 style inputs stay exact: 57.3 % is 5730, not 5729.999….
    expect(percentToBasisPoints('57.3')).toBe(5730);
    for (const bad of ['', '0', '200.01', '98.555', '-1', 'abc', '1e2']) {
      expect(percentToBasisPoints(bad), bad).toBeNull();
    }
  });

  it('leave empty filters out of the rule sent', () => {
    expect(ruleBody({ merchant_id: 7, rate_bp: 9850, rounding: 'down', carrier: '', product_kind: undefined })).toEqual(
      {
        merchant_id: 7,
        rate_bp: 9850,
        rounding: 'down',
      },
    );
    expect(ruleBody({ merchant_id: 7, rate_bp: 9850, rounding: 'up', carrier: 'mobile' }).carrier).toBe('mobile');
  });
});
