/** How the list shows a channel's live figures and state (ratios are not money: plain numbers). */
import type { Channel } from './channels';

/** 0.7083 → "70.8%"; null (nothing resolved in the last hour) → "-". */
export function formatRatio(ratio: number | null | undefined): string {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return '-';
  return `${(Math.round(ratio * 1000) / 10).toFixed(1)}%`;
}

/** The reasons the health check pauses a channel for (docs/channels.md, Health). */
export const PAUSE_REASONS = ['low_success_ratio', 'unknown_streak', 'probe_failed'] as const;

/** A text key for the pause reason, or null for a reason this console does not know. */
export function pauseReasonKey(reason: string | null | undefined): string | null {
  return reason && (PAUSE_REASONS as readonly string[]).includes(reason) ? `channels.pause.${reason}` : null;
}

/** Paused now: the cool-down has not ended yet. */
export function isPaused(channel: Pick<Channel, 'paused_until'>, now: number = Date.now()): boolean {
  if (!channel.paused_until) return false;
  const until = Date.parse(channel.paused_until);
  return Number.isFinite(until) && until > now;
}

/** Why a channel would not take an order now (the server's `Exclusion`). */
export const EXCLUSIONS = [
  'channel_disabled',
  'product_disabled',
  'paused',
  'probing',
  'balance_short',
  'already_failed',
  'window',
  'province_not_covered',
  'speed_not_offered',
] as const;

export function exclusionKey(reason: string | null | undefined): string | null {
  return reason && (EXCLUSIONS as readonly string[]).includes(reason) ? `channels.exclusion.${reason}` : null;
}

/** running; paused (cooling down until paused_until); probing (cool-down over, one probe order may use it). */
export function pauseState(channel: Pick<Channel, 'paused_until'>, now: number = Date.now()) {
  if (!channel.paused_until) return 'running' as const;
  return isPaused(channel, now) ? ('paused' as const) : ('probing' as const);
}
