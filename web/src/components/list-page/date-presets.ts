/**
 * Date-range presets of the list filters: today, the last 7 days, this month — days of the
 * platform's calendar (Beijing time), whatever the browser's zone. The pickers hold
 * wall-clock values that the filters read as Beijing time (lib/platform-time.ts), so a
 * preset is Beijing's date and time re-expressed as a local dayjs with the same reading.
 */
import dayjs, { type Dayjs } from 'dayjs';
import { PLATFORM_UTC_OFFSET_MINUTES, pickedTimeToIso } from '@/lib/platform-time';

export type DatePreset = 'today' | 'last7Days' | 'thisMonth';
export const DATE_PRESETS: readonly DatePreset[] = ['today', 'last7Days', 'thisMonth'];

export type PickedRange = [Dayjs, Dayjs];

/** Beijing's wall-clock "now" as a local dayjs (same year … second as Beijing shows). */
export function beijingWallClock(now: Dayjs = dayjs()): Dayjs {
  return dayjs(now.utcOffset(PLATFORM_UTC_OFFSET_MINUTES).format('YYYY-MM-DDTHH:mm:ss'));
}

/** Both ends are included to the second: the range reads "from 00:00:00 to 23:59:59". */
export function presetRange(preset: DatePreset, now: Dayjs = dayjs()): PickedRange {
  const today = beijingWallClock(now).startOf('day');
  const endOfToday = today.endOf('day').millisecond(0);
  switch (preset) {
    case 'today':
      return [today, endOfToday];
    case 'last7Days':
      return [today.subtract(6, 'day'), endOfToday];
    case 'thisMonth':
      return [today.startOf('month'), today.endOf('month').millisecond(0)];
  }
}

/**
 * A picked range as the API's [start_time, end_time): the end the user sees is included
 * (to the second), so the bound sent is one second later.
 */
export function rangeToIso(range: readonly (Dayjs | null | undefined)[] | null | undefined): {
  startTime?: string;
  endTime?: string;
} {
  const [start, end] = range ?? [];
  return {
    ...(start ? { startTime: pickedTimeToIso(start.millisecond(0)) } : {}),
    ...(end ? { endTime: pickedTimeToIso(end.millisecond(0).add(1, 'second')) } : {}),
  };
}
