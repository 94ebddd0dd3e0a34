import type { EChartOption } from '@/components/echart/echart';
import { formatTimeAs } from '@/lib/platform-time';
import type { LiveSnapshot, MinuteFigures } from '../api/live-stream';

/** Carrier codes as the server stores them, to the console's carrier label keys. */
export const CARRIER_NAMES: Record<number, string> = { 1: 'mobile', 2: 'unicom', 3: 'telecom', 4: 'broadnet' };

export const SERIES_COLORS = { placed: '#165dff', succeeded: '#00b42a', failed: '#f53f3f' } as const;

export function hourTotal(snapshot: LiveSnapshot, field: keyof Omit<MinuteFigures, 'minute_start'>): number {
  return snapshot.minutes.reduce((sum, minute) => sum + minute[field], 0);
}

/** A ratio in per mille as a percentage with one decimal ("98.5 %"); '-' without results. */
export function formatPermille(permille: number | null | undefined): string {
  if (permille === null || permille === undefined) return '-';
  return `${(permille / 10).toFixed(1)} %`;
}

/** A success ratio with its counts: "91.1 % (31/34)". */
export function formatRatio(permille: number | null | undefined, succeeded: number, failed: number): string {
  return `${formatPermille(permille)} (${succeeded}/${succeeded + failed})`;
}

export interface MinuteChartLabels {
  placed: string;
  succeeded: string;
  failed: string;
}

/** The last hour's orders per minute: three lines (placed, succeeded, failed), Beijing time. */
export function minuteChartOption(snapshot: LiveSnapshot, labels: MinuteChartLabels): EChartOption {
  const series = (['placed', 'succeeded', 'failed'] as const).map((key) => ({
    name: labels[key],
    type: 'line' as const,
    showSymbol: false,
    color: SERIES_COLORS[key],
    data: snapshot.minutes.map((minute) => minute[key]),
  }));
  return {
    animation: false,
    tooltip: { trigger: 'axis' },
    legend: { bottom: 0 },
    grid: { top: 16, left: 40, right: 16, bottom: 48 },
    xAxis: {
      type: 'category',
      boundaryGap: false,
      data: snapshot.minutes.map((minute) => formatTimeAs(minute.minute_start, 'HH:mm')),
    },
    yAxis: { type: 'value', minInterval: 1 },
    series,
  };
}
