import { describe, expect, it } from 'vitest';
import { portOrderLink, toPortQuery } from './ported-numbers';

describe('ported numbers', () => {
  it('sends the typed number trimmed and only a known carrier', () => {
    expect(toPortQuery({})).toEqual({});
    expect(toPortQuery({ number: '  +86 137 0013 ', carrier: 'mobile' })).toEqual({
      number: '+86 137 0013',
      from_carrier: 'mobile',
    });
    // A hand-edited address: an unknown carrier and a blank number are left out, not sent.
    expect(toPortQuery({ number: '   ', carrier: 'satellite' })).toEqual({});
  });

  it('links a record to the order list filtered by its order number, of every kind', () => {
    expect(portOrderLink({ order_no: 'N2026' })).toBe('/order/list?kind=all&orderNo=N2026');
    expect(portOrderLink({ order_no: null })).toBeUndefined();
  });
});
