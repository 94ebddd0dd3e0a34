import type { Channel } from '../api/channels';

/** A channel as the list answers it, for unit tests; `extra` overrides any field. */
export function testChannel(extra: Partial<Channel> = {}): Channel {
  return {
    id: 2,
    code: 'sim-cheap',
    name: 'Cheap',
    adapter: 'http-json',
    base_url: 'https://supplier.example',
    has_secret: true,
    timeout_ms: 3000,
    enabled: true,
    low_balance_fen: 0,
    figures: {
      today_orders: 0,
      in_flight: 0,
      unknown: 0,
      succeeded_hour: 0,
      failed_hour: 0,
      succeeded_today: 0,
      failed_today: 0,
    },
    ...extra,
  };
}
