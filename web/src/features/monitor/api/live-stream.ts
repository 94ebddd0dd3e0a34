/**
 * The live monitor's stream: GET /adminapi/monitor/stream (Server-Sent Events), opened
 * with a short-lived ticket from POST /adminapi/monitor/stream/ticket, since an
 * EventSource cannot send the session token in a header (and a token in a URL would end
 * up in logs). The browser reconnects by itself while its ticket is fresh; once the
 * stream is closed for good (server restarted and the ticket expired), a new ticket is
 * fetched and the stream opened again, backing off up to 10 s between tries.
 */
import { useEffect, useState } from 'react';
import { post } from '@/lib/request';

export const STREAM_URL = '/adminapi/monitor/stream';
export const STREAM_TICKET_URL = '/adminapi/monitor/stream/ticket';
const MAX_BACKOFF_MS = 10_000;

export interface MinuteFigures {
  minute_start: number;
  placed: number;
  succeeded: number;
  failed: number;
}

export interface CarrierRatio {
  carrier: number;
  succeeded_5m: number;
  failed_5m: number;
  success_permille_5m: number | null;
  succeeded_60m: number;
  failed_60m: number;
  success_permille_60m: number | null;
}

/**
 * Success ratio of one channel (supplier): its attempts whose success or definite failure was
 * recorded in the span (pending and unknown ones count for neither); the channels list and
 * reconciliation show the same figures.
 */
export interface ChannelRatio {
  channel_id: number;
  name: string;
  succeeded_5m: number;
  failed_5m: number;
  success_permille_5m: number | null;
  succeeded_60m: number;
  failed_60m: number;
  success_permille_60m: number | null;
  /** Since Beijing midnight: succeeded_today is reconciliation's "our successes" of the day. */
  succeeded_today: number;
  failed_today: number;
  success_permille_today: number | null;
}

export interface MerchantVolume {
  merchant_id: number;
  name: string;
  orders: number;
  amount_fen: number;
}

export interface LiveAlert {
  /**
   * low_balance: balance below the alert line; notification_exhausted: notifications given up on
   * (last 24 h); channel_paused: a channel paused by the health check (name is the channel's);
   * review_aging: orders wait in manual review (count, the oldest's age); callback_failing: a
   * merchant's notification deliveries of the last hour fail (failed of count); notification_backlog:
   * count notifications wait to be delivered.
   */
  kind:
    | 'low_balance'
    | 'notification_exhausted'
    | 'channel_paused'
    | 'review_aging'
    | 'callback_failing'
    | 'notification_backlog';
  /** 0 for the kinds not about one merchant. */
  merchant_id: number;
  name: string;
  balance_fen: number;
  threshold_fen: number;
  /** notification_exhausted, review_aging, callback_failing, notification_backlog: how many. */
  count: number;
  /** callback_failing: failed deliveries (of count), per thousand, and the ratio raising it. */
  failed: number;
  failure_permille: number;
  threshold_permille: number;
  /** review_aging: the oldest order's age and the age raising it, in seconds. */
  oldest_seconds: number;
  threshold_seconds: number;
  /** The count raising review_aging, callback_failing or notification_backlog. */
  threshold: number;
  /** channel_paused: the channel, why (low_success_ratio, unknown_streak, probe_failed) and until when (ms). */
  channel_id: number;
  pause_reason: string;
  paused_until: number;
}

export interface NotificationFigures {
  /** Notifications still to be delivered. */
  backlog: number;
  attempts_60m: number;
  failed_60m: number;
  failure_permille_60m: number | null;
}

export interface LiveSnapshot {
  at: number;
  minutes: MinuteFigures[];
  carriers: CarrierRatio[];
  channels: ChannelRatio[];
  in_flight: number;
  manual_review: number;
  oldest_waiting_seconds: number | null;
  p50_ms: number | null;
  p95_ms: number | null;
  top_merchants: MerchantVolume[];
  notifications: NotificationFigures;
  alerts: LiveAlert[];
  /** Unix ms the alerts were last read (every 10 s). */
  alerts_at: number;
}

export interface StreamTicket {
  ticket: string;
  expires_in: number;
}

/** POST /adminapi/monitor/stream/ticket (admin only). Quiet: the page shows the connection state. */
export function getStreamTicket(): Promise<StreamTicket> {
  return post(STREAM_TICKET_URL, {}, { quietErrors: true });
}

export type StreamStatus = 'connecting' | 'open' | 'reconnecting';

export interface LiveStream {
  snapshot?: LiveSnapshot;
  status: StreamStatus;
}

/** The latest snapshot of the live stream, and whether the stream is connected. */
export function useLiveStream(): LiveStream {
  const [state, setState] = useState<LiveStream>({ status: 'connecting' });

  useEffect(() => {
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let failures = 0;

    const schedule = () => {
      if (stopped) return;
      const wait = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(failures, 4));
      failures += 1;
      setState((previous) => ({ ...previous, status: 'reconnecting' }));
      retry = setTimeout(() => void connect(), wait);
    };

    const connect = async () => {
      let ticket: StreamTicket;
      try {
        ticket = await getStreamTicket();
      } catch {
        schedule();
        return;
      }
      if (stopped) return;
      source = new EventSource(`${STREAM_URL}?ticket=${encodeURIComponent(ticket.ticket)}`);
      source.onopen = () => {
        failures = 0;
        setState((previous) => ({ ...previous, status: 'open' }));
      };
      source.onmessage = (event: MessageEvent<string>) => {
        try {
          setState({ snapshot: JSON.parse(event.data) as LiveSnapshot, status: 'open' });
        } catch {
          // A broken event is skipped; the next one is a full snapshot again.
        }
      };
      source.onerror = () => {
        if (source?.readyState === EventSource.CLOSED) {
          source = null;
          schedule();
        } else {
          // The browser reconnects by itself (with Last-Event-ID).
          setState((previous) => ({ ...previous, status: 'reconnecting' }));
        }
      };
    };

    void connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, []);

  return state;
}
