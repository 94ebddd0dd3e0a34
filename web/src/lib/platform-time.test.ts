import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { formatTime, formatTimeAs, pickedTimeToIso } from './platform-time';

describe('platform time (Beijing, UTC+8)', () => {
  it('shows a UTC instant as Beijing wall-clock time, across the date line', () => {
    expect(formatTime('2026-01-01T16:30:05Z')).toBe('2026-01-02 00:30:05');
    expect(formatTime('2026-01-01T00:00:00+08:00')).toBe('2026-01-01 00:00:00');
    expect(formatTime('2026-07-01T12:00:00-04:00')).toBe('2026-07-02 00:00:00');
  });

  it('takes epoch milliseconds and other patterns', () => {
    expect(formatTimeAs(Date.UTC(2026, 0, 1, 4, 5, 6), 'HH:mm:ss')).toBe('12:05:06');
    expect(formatTimeAs('2026-03-09T23:59:00Z', 'MM-DD HH:mm')).toBe('03-10 07:59');
  });

  it('answers - for a missing or unreadable time', () => {
    expect(formatTime(null)).toBe('-');
    expect(formatTime(undefined)).toBe('-');
    expect(formatTime('')).toBe('-');
    expect(formatTime('not a time')).toBe('-');
  });

  it('reads a picked date and time as Beijing time', () => {
    expect(pickedTimeToIso(dayjs('2026-05-06 07:08:09'))).toBe('2026-05-06T07:08:09+08:00');
  });
});
