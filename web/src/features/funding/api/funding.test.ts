import { describe, expect, it } from 'vitest';
import { fundingForm } from './funding';

describe('fundingForm', () => {
  it('sends the fields the server reads, trimmed, and leaves out an empty note', () => {
    const proof = new Blob(['x'], { type: 'image/png' });
    const form = fundingForm({ amountFen: 12_345, bankReference: ' abc123 ', payerName: ' 张三 ', note: '  ', proof });
    expect(form.get('amount_fen')).toBe('12345');
    expect(form.get('bank_reference')).toBe('abc123');
    expect(form.get('payer_name')).toBe('张三');
    expect(form.has('note')).toBe(false);
    expect(form.get('file')).toBeInstanceOf(Blob);
  });

  it('keeps a note', () => {
    const form = fundingForm({ amountFen: 1, bankReference: 'R', payerName: 'P', note: ' 货款 ', proof: new Blob() });
    expect(form.get('note')).toBe('货款');
  });
});
