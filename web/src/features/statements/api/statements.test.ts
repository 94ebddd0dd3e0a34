import { describe, expect, it } from 'vitest';
import { movementOf, type Statement } from './statements';

describe('movementOf', () => {
  it('adds the movements of one account and kind only', () => {
    const statement = {
      movements: [
        { account_type: 'balance', change_type: 'order_debit', count: 2, amount_fen: -300 },
        { account_type: 'credit', change_type: 'order_debit', count: 1, amount_fen: -50 },
        { account_type: 'balance', change_type: 'topup', count: 1, amount_fen: 1_000 },
      ],
    } as unknown as Statement;
    expect(movementOf(statement, 'balance', 'order_debit')).toBe(-300);
    expect(movementOf(statement, 'credit', 'order_debit')).toBe(-50);
    expect(movementOf(statement, 'credit', 'refund')).toBe(0);
  });
});
