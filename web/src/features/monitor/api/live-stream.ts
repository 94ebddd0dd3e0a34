/**
 * The live monitor's stream: GET /adminapi/monitor/stream (Server-Sent Events), opened
 * with a short-lived ticket from POST /adminapi/monitor/stream/ticket, since an
 * EventSource cannot send the session token in a header (and a token in a URL would end
 * up in logs). The browser reconnects by itself while its ticket is fresh; once the
 * stream is closed for good (server restarted and the ticket expired), a new ticket is
 * fetched and the stream opened again, backing off up to 10 s between tries.
 */
import { useEffect, useState } from 'react';
import { type ApiSchema, post } from '@/lib/request';

export const STREAM_URL = '/adminapi/monitor/stream';
export const STREAM_TICKET_URL = '/adminapi/monitor/stream/ticket';
const MAX_BACKOFF_MS = 10_000;

export type MinuteFigures = ApiSchema<'MinuteFigures'>;

export type CarrierRatio = ApiSchema<'CarrierRatio'>;

/**
 * Success ratio of one channel (supplier): its attempts whose success or definite failure was
 * recorded in the span (pending and unknown ones count for neither); the channels list and
 * reconciliation show the same figures.
 */
export type ChannelRatio = ApiSchema<'ChannelRatio'>;

export type MerchantVolume = ApiSchema<'MerchantVolume'>;

export type LiveAlert = ApiSchema<'LiveAlert'>;

export type NotificationFigures = ApiSchema<'NotificationFigures'>;

export type LiveSnapshot = ApiSchema<'LiveSnapshot'>;

export type StreamTicket = ApiSchema<'StreamTicket'>;

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
