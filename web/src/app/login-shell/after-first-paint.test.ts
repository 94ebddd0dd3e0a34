import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterFirstPaint, FIRST_PAINT_WAIT_MS } from './after-first-paint';

type Callback = (list: { getEntriesByName: (name: string) => unknown[] }) => void;

/** A PerformanceObserver that reports what the test tells it to, like the browser's. */
class FakeObserver {
  static supportedEntryTypes = ['paint', 'element'];
  static instances: FakeObserver[] = [];
  observed: unknown[] = [];
  disconnected = false;
  constructor(private readonly callback: Callback) {
    FakeObserver.instances.push(this);
  }
  observe(options: unknown) {
    this.observed.push(options);
  }
  disconnect() {
    this.disconnected = true;
  }
  report(names: string[]) {
    if (!this.disconnected) this.callback({ getEntriesByName: (name) => names.filter((entry) => entry === name) });
  }
}

let painted: string[] = [];
let visibility: DocumentVisibilityState = 'visible';

beforeEach(() => {
  vi.useFakeTimers();
  FakeObserver.instances = [];
  FakeObserver.supportedEntryTypes = ['paint', 'element'];
  painted = [];
  visibility = 'visible';
  vi.stubGlobal('PerformanceObserver', FakeObserver);
  vi.spyOn(performance, 'getEntriesByName').mockImplementation((name) =>
    painted.includes(name) ? ([{ name }] as unknown as PerformanceEntryList) : [],
  );
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('afterFirstPaint', () => {
  it('waits for the first contentful paint to be reported, then runs once', () => {
    const run = vi.fn();
    afterFirstPaint(run);
    expect(run).not.toHaveBeenCalled();
    const [observer] = FakeObserver.instances;
    expect(observer.observed).toEqual([{ type: 'paint', buffered: true }]);
    observer.report(['first-paint']);
    expect(run).not.toHaveBeenCalled();
    observer.report(['first-contentful-paint']);
    expect(run).toHaveBeenCalledTimes(1);
    expect(observer.disconnected).toBe(true);
    // Neither the fallback timer nor hiding the page runs it again.
    vi.advanceTimersByTime(FIRST_PAINT_WAIT_MS * 2);
    document.dispatchEvent(new Event('visibilitychange'));
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs at once when the page has already been painted', () => {
    painted = ['first-paint', 'first-contentful-paint'];
    const run = vi.fn();
    afterFirstPaint(run);
    expect(run).toHaveBeenCalledTimes(1);
    expect(FakeObserver.instances).toHaveLength(0);
  });

  it('runs at once in a hidden page, which does not paint', () => {
    visibility = 'hidden';
    const run = vi.fn();
    afterFirstPaint(run);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs when the page is hidden before its paint', () => {
    const run = vi.fn();
    afterFirstPaint(run);
    visibility = 'hidden';
    document.dispatchEvent(new Event('visibilitychange'));
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs at once where the browser reports no paint timing', () => {
    FakeObserver.supportedEntryTypes = ['resource'];
    const run = vi.fn();
    afterFirstPaint(run);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('does not wait longer than its limit for a report that never comes', () => {
    const run = vi.fn();
    afterFirstPaint(run);
    vi.advanceTimersByTime(FIRST_PAINT_WAIT_MS - 1);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
    expect(FakeObserver.instances[0].disconnected).toBe(true);
  });
});
