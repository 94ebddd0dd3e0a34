import type { LiveSnapshot } from '../api/live-stream';

/** A quiet monitor snapshot for unit tests; `extra` overrides any field. */
export function testSnapshot(extra: Partial<LiveSnapshot> = {}): LiveSnapshot {
  return {
    at: 0,
    minutes: [],
    carriers: [],
    channels: [],
    in_flight: 0,
    manual_review: 0,
    oldest_waiting_seconds: null,
    p50_ms: null,
    p95_ms: null,
    top_merchants: [],
    provinces_today: [],
    notifications: { backlog: 0, attempts_60m: 0, failed_60m: 0, failure_permille_60m: null },
    alerts: [],
    alerts_at: 0,
    refused_today: [],
    ...extra,
  };
}
