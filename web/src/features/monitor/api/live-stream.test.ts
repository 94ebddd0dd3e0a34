import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const post = vi.fn();
vi.mock('@/lib/request', () => ({ post: (...args: unknown[]) => post(...args) }));

class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static opened: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  onopen: (() => void) | null = null;
  onmessage: ((event: MessageEvent<string>) => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  close() {
    this.closed = true;
    this.readyState = FakeEventSource.CLOSED;
  }
}

const { useLiveStream } = await import('./live-stream');

describe('useLiveStream', () => {
  beforeEach(() => {
    FakeEventSource.opened = [];
    post.mockReset();
    vi.stubGlobal('EventSource', FakeEventSource);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('opens the stream with a ticket and shows each snapshot', async () => {
    post.mockResolvedValue({ ticket: '7.123.abc', expires_in: 60 });
    const { result, unmount } = renderHook(() => useLiveStream());
    await waitFor(() => expect(FakeEventSource.opened).toHaveLength(1));
    expect(post).toHaveBeenCalledWith('/adminapi/monitor/stream/ticket', {}, { quietErrors: true });
    const source = FakeEventSource.opened[0];
    expect(source.url).toBe('/adminapi/monitor/stream?ticket=7.123.abc');
    act(() => source.onmessage?.({ data: JSON.stringify({ at: 5, in_flight: 3 }) } as MessageEvent<string>));
    expect(result.current.status).toBe('open');
    expect(result.current.snapshot?.in_flight).toBe(3);
    unmount();
    expect(source.closed).toBe(true);
  });

  it('fetches a new ticket once the stream is closed for good', async () => {
    post
      .mockResolvedValueOnce({ ticket: 'first', expires_in: 60 })
      .mockResolvedValue({ ticket: 'second', expires_in: 60 });
    const { result } = renderHook(() => useLiveStream());
    await waitFor(() => expect(FakeEventSource.opened).toHaveLength(1));
    vi.useFakeTimers();
    const first = FakeEventSource.opened[0];
    // The browser's own retry is left alone...
    act(() => first.onerror?.());
    expect(result.current.status).toBe('reconnecting');
    expect(post).toHaveBeenCalledTimes(1);
    // ...but a stream the browser gave up on (e.g. an expired ticket after a restart) gets a new ticket.
    first.readyState = FakeEventSource.CLOSED;
    act(() => first.onerror?.());
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_000);
    });
    expect(post).toHaveBeenCalledTimes(2);
    expect(FakeEventSource.opened).toHaveLength(2);
    expect(FakeEventSource.opened[1].url).toContain('ticket=second');
  });
});
