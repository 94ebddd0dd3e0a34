import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import type { MaintenanceWindow } from '../api/windows';
import { crossesMidnight, fromWindow, toRequest } from './window-values';

describe('the maintenance window form', () => {
  it('sends a one-off window in Beijing time with only its scope’s fields', () => {
    const request = toRequest({
      title: ' 割接 ',
      scope: 'province',
      carrier: 'mobile',
      province: 440000,
      channel_id: 3,
      recurrence: 'once',
      range: [dayjs('2026-03-01T00:00:00'), dayjs('2026-03-01T02:00:00')],
      day: 5,
    });
    expect(request).toEqual({
      title: '割接',
      note: '',
      scope: 'province',
      carrier: 'mobile',
      province: 440000,
      recurrence: 'once',
      starts_at: '2026-03-01T00:00:00+08:00',
      ends_at: '2026-03-01T02:00:00+08:00',
    });
  });

  it('sends a monthly span over midnight as HH:mm with its day, and a channel without a carrier', () => {
    const request = toRequest({
      title: '月末',
      scope: 'channel',
      carrier: 'mobile',
      channel_id: 7,
      recurrence: 'monthly',
      day: 31,
      span_start: dayjs('2000-01-01T23:30:00'),
      span_end: dayjs('2000-01-01T00:30:00'),
    });
    expect(request).toEqual({
      title: '月末',
      note: '',
      scope: 'channel',
      channel_id: 7,
      recurrence: 'monthly',
      day: 31,
      span_start: '23:30',
      span_end: '00:30',
    });
    expect(crossesMidnight(dayjs('2000-01-01T23:30:00'), dayjs('2000-01-01T00:30:00'))).toBe(true);
    expect(crossesMidnight(dayjs('2000-01-01T01:00:00'), dayjs('2000-01-01T02:00:00'))).toBe(false);
  });

  it('a daily window sends no day; a saved window comes back as the values it was sent from', () => {
    const daily = toRequest({
      title: 'n',
      scope: 'carrier',
      carrier: 'unicom',
      recurrence: 'daily',
      day: 3,
      span_start: dayjs('2000-01-01T23:00:00'),
      span_end: dayjs('2000-01-01T01:00:00'),
    });
    expect(daily.day).toBeUndefined();
    const saved = {
      id: 1,
      title: 'once',
      note: 'n',
      scope: 'carrier',
      carrier: 'telecom',
      recurrence: 'once',
      starts_at: '2026-02-28T16:00:00Z',
      ends_at: '2026-02-28T18:00:00Z',
      running: false,
      created_by: 'admin',
      created_at: '2026-02-01T00:00:00Z',
      updated_at: '2026-02-01T00:00:00Z',
    } as MaintenanceWindow;
    const values = fromWindow(saved);
    expect(values.range?.map((time) => time.format('YYYY-MM-DD HH:mm'))).toEqual(['2026-03-01 00:00', '2026-03-01 02:00']);
    expect(toRequest(values)).toMatchObject({
      starts_at: '2026-03-01T00:00:00+08:00',
      ends_at: '2026-03-01T02:00:00+08:00',
      carrier: 'telecom',
    });
  });
});
