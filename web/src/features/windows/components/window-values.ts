/**
 * The form's values and the request they become (and back, to edit a window). The times
 * of a one-off window are picked as Beijing wall-clock times; recurring spans are `HH:mm`
 * of a Beijing day, an end at or before the start ending on the next day.
 */
import dayjs, { type Dayjs } from 'dayjs';
import { PLATFORM_UTC_OFFSET_MINUTES, pickedTimeToIso } from '@/lib/platform-time';
import type { MaintenanceWindow, WindowForm } from '../api/windows';

export type Scope = 'carrier' | 'province' | 'channel';
export type Recurrence = 'once' | 'daily' | 'weekly' | 'monthly';

export interface WindowValues {
  title: string;
  note?: string;
  scope: Scope;
  carrier?: string;
  province?: number;
  channel_id?: number;
  recurrence: Recurrence;
  /** Once: start and end, Beijing wall-clock. */
  range?: [Dayjs, Dayjs];
  /** Weekly 1-7 (Monday first), monthly 1-31. */
  day?: number;
  span_start?: Dayjs;
  span_end?: Dayjs;
}

export const EMPTY_VALUES: WindowValues = { title: '', scope: 'carrier', carrier: 'mobile', recurrence: 'once' };

/** The request of the values: only the fields the scope and repetition use. */
export function toRequest(values: WindowValues): WindowForm {
  const form: WindowForm = {
    title: values.title.trim(),
    note: (values.note ?? '').trim(),
    scope: values.scope,
    recurrence: values.recurrence,
  };
  if (values.scope !== 'channel') form.carrier = values.carrier;
  if (values.scope === 'province') form.province = values.province;
  if (values.scope === 'channel') form.channel_id = values.channel_id;
  if (values.recurrence === 'once') {
    form.starts_at = values.range ? pickedTimeToIso(values.range[0]) : undefined;
    form.ends_at = values.range ? pickedTimeToIso(values.range[1]) : undefined;
  } else {
    form.span_start = values.span_start?.format('HH:mm');
    form.span_end = values.span_end?.format('HH:mm');
    if (values.recurrence !== 'daily') form.day = values.day;
  }
  return form;
}

/** A Beijing RFC 3339 time as the picker's wall-clock value. */
function picked(value: string): Dayjs {
  return dayjs(dayjs(value).utcOffset(PLATFORM_UTC_OFFSET_MINUTES).format('YYYY-MM-DDTHH:mm:ss'));
}

/** A saved window as the form's values. */
export function fromWindow(window: MaintenanceWindow): WindowValues {
  const clock = (text: string | null | undefined) => (text ? dayjs(`2000-01-01T${text}:00`) : undefined);
  return {
    title: window.title,
    note: window.note,
    scope: window.scope as Scope,
    carrier: window.carrier ?? undefined,
    province: window.province ?? undefined,
    channel_id: window.channel_id ?? undefined,
    recurrence: window.recurrence as Recurrence,
    range: window.starts_at && window.ends_at ? [picked(window.starts_at), picked(window.ends_at)] : undefined,
    day: window.day ?? undefined,
    span_start: clock(window.span_start),
    span_end: clock(window.span_end),
  };
}

/** Whether a recurring span ends on the next day (shown beside the times). */
export function crossesMidnight(start?: Dayjs, end?: Dayjs): boolean {
  return !!start && !!end && end.format('HH:mm') <= start.format('HH:mm');
}
