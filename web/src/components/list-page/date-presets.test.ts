import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { beijingWallClock, presetRange, rangeToIso } from './date-presets';

const show = (range: [dayjs.Dayjs, dayjs.Dayjs]) => range.map((time) => time.format('YYYY-MM-DD HH:mm:ss'));

describe('date presets (Beijing days)', () => {
  // 17:30 UTC on 23 November is already 01:30 on the 24th in Beijing.
  const now = dayjs('2026-11-23T17:30:00Z');

  it('read Beijing wall-clock time whatever the browser zone', () => {
    expect(beijingWallClock(now).format('YYYY-MM-DD HH:mm:ss')).toBe('2026-11-24 01:30:00');
  });

  it('today, last 7 days and this month end today (or at the month end), both ends included', () => {
    expect(show(presetRange('today', now))).toEqual(['2026-11-24 00:00:00', '2026-11-24 23:59:59']);
    expect(show(presetRange('last7Days', now))).toEqual(['2026-11-18 00:00:00', '2026-11-24 23:59:59']);
    expect(show(presetRange('thisMonth', now))).toEqual(['2026-11-01 00:00:00', '2026-11-30 23:59:59']);
  });

  it('cross month and year ends on Beijing time', () => {
    const newYear = dayjs('2026-12-31T16:00:00Z'); // 2027-01-01 00:00 in Beijing
    expect(show(presetRange('today', newYear))).toEqual(['2027-01-01 00:00:00', '2027-01-01 23:59:59']);
    expect(show(presetRange('last7Days', newYear))).toEqual(['2026-12-26 00:00:00', '2027-01-01 23:59:59']);
    expect(show(presetRange('thisMonth', dayjs('2028-02-10T00:00:00Z')))).toEqual([
      '2028-02-01 00:00:00',
      '2028-02-29 23:59:59',
    ]);
  });

  it('send the API a half-open range that includes the last second shown', () => {
    expect(rangeToIso(presetRange('today', now))).toEqual({
      startTime: '2026-11-24T00:00:00+08:00',
      endTime: '2026-11-25T00:00:00+08:00',
    });
    expect(rangeToIso([null, dayjs('2026-05-06 07:08:09.500')])).toEqual({ endTime: '2026-05-06T07:08:10+08:00' });
    expect(rangeToIso(null)).toEqual({});
  });
});
