import { describe, expect, it } from 'vitest';
import {
  amountGap,
  differenceCount,
  filterDifferences,
  kindColor,
  type ReconcileLine,
  type Reconciliation,
} from './reconciliation';

const line = (kind: ReconcileLine['kind'], id: string): ReconcileLine => ({
  kind,
  upstream_order_id: id,
  system_order_id: null,
  account: '13800138000',
  our_face_value_fen: null,
  our_cost_fen: null,
  their_face_value_fen: 1000,
  their_price_fen: 960,
  their_status: 'success',
  our_outcome: null,
  our_serial_no: null,
  their_serial_no: null,
});

const result = (counts: Partial<Reconciliation['counts']>): Reconciliation => ({
  channel_id: 2,
  channel_code: 'sim-cheap',
  channel_name: 'Cheap',
  date: '2026-11-24',
  run_at: '2026-11-24T04:00:00Z',
  ours: { count: 3, face_value_fen: 3000, amount_fen: 2880 },
  theirs: { count: 3, face_value_fen: 3000, amount_fen: 2919 },
  matched: { count: 1, face_value_fen: 1000, amount_fen: 960 },
  counts: {
    matched: 1,
    missing_ours: 0,
    missing_theirs: 0,
    amount_mismatch: 0,
    status_mismatch: 0,
    reversed: 0,
    ...counts,
  },
  differences: [],
  differences_total: 0,
});

describe('reconciliation', () => {
  const lines = [line('missing_ours', 'A'), line('missing_theirs', 'B'), line('amount_mismatch', 'C')];

  it('filters differences by kind, or shows them all', () => {
    expect(filterDifferences(lines, 'all').map((l) => l.upstream_order_id)).toEqual(['A', 'B', 'C']);
    expect(filterDifferences(lines, 'missing_theirs').map((l) => l.upstream_order_id)).toEqual(['B']);
    expect(filterDifferences(lines, 'status_mismatch')).toEqual([]);
  });

  it('counts differences without the matched lines', () => {
    expect(differenceCount(result({}))).toBe(0);
    expect(differenceCount(result({ matched: 5, missing_ours: 1, amount_mismatch: 2, status_mismatch: 1 }))).toBe(4);
    expect(differenceCount(result({ matched: 5, status_mismatch: 1, reversed: 2 }))).toBe(3);
  });

  it('gives the gap as the supplier minus us, in fen', () => {
    expect(amountGap(result({}))).toBe(39);
  });

  it('marks missing lines as the costly ones', () => {
    expect(kindColor('matched')).toBe('success');
    expect(kindColor('missing_ours')).toBe('error');
    expect(kindColor('missing_theirs')).toBe('warning');
    expect(kindColor('amount_mismatch')).toBe('processing');
  });
});
