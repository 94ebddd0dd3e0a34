import { describe, expect, it } from 'vitest';
import { actionBody } from './merchants';

describe('actionBody', () => {
  it('sends the new limit for credit and an amount otherwise', () => {
    expect(actionBody({ action: 'credit', merchantId: 7, amountFen: 500000 })).toEqual({
      merchant_id: 7,
      credit_limit_fen: 500000,
    });
    expect(actionBody({ action: 'topup', merchantId: 7, amountFen: 1, remark: ' bank ' })).toEqual({
      merchant_id: 7,
      amount_fen: 1,
      remark: 'bank',
    });
    expect(actionBody({ action: 'adjust', merchantId: 7, amountFen: -105, remark: ' ' })).toEqual({
      merchant_id: 7,
      amount_fen: -105,
    });
  });
});
