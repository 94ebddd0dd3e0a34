import { describe, expect, it } from 'vitest';
import { exclusionKey, formatRatio, pauseReasonKey, pauseState } from './figures';

describe('channel figures', () => {
  it('shows the success ratio as a percentage with one decimal, and nothing when none resolved', () => {
    expect(formatRatio(0.7083333)).toBe('70.8%');
    expect(formatRatio(1)).toBe('100.0%');
    expect(formatRatio(0)).toBe('0.0%');
    expect(formatRatio(null)).toBe('-');
  });

  it('tells paused (cooling down) from probing (cool-down over) from running', () => {
    const now = Date.parse('2026-11-24T05:00:00Z');
    expect(pauseState({ paused_until: null }, now)).toBe('running');
    expect(pauseState({ paused_until: '2026-11-24T05:01:00Z' }, now)).toBe('paused');
    expect(pauseState({ paused_until: '2026-11-24T04:59:00Z' }, now)).toBe('probing');
  });

  it('translates only the reasons it knows', () => {
    expect(pauseReasonKey('unknown_streak')).toBe('channels.pause.unknown_streak');
    expect(pauseReasonKey('something_new')).toBeNull();
    expect(exclusionKey('channel_disabled')).toBe('channels.exclusion.channel_disabled');
    expect(exclusionKey('new_reason')).toBeNull();
    expect(exclusionKey(null)).toBeNull();
  });
});
