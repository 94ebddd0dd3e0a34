import { describe, expect, it } from 'vitest';
import { toQuoteQuery } from './quotes';

describe('toQuoteQuery', () => {
  it('maps filters to API fields and drops empty ones', () => {
    expect(toQuoteQuery({})).toEqual({});
    expect(
      toQuoteQuery({ carrier: 'mobile', faceValueFen: 1000, productKind: 'card', status: 0, productKey: ' K ', merchantId: 7 }),
    ).toEqual({ carrier: 'mobile', face_value_fen: 1000, product_kind: 'card', status: 0, product_key: 'K', merchant_id: 7 });
    expect(toQuoteQuery({ productKey: '  ' })).toEqual({});
  });
});
