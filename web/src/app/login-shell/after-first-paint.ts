/**
 * Waiting for the login page's HTML to be on screen before the console's scripts load
 * (./early.ts) and React takes it over.
 *
 * Loaded with the page, the console's scripts were fetched and compiled while Chromium was
 * still laying out and rasterising the page's first frame, on the same two cores; a takeover
 * then (compiling React, rendering, replacing the form) competed with that frame, and a form
 * replaced before its paint is reported loses its Element Timing entry, so the first paint
 * the user saw was neither helped nor measurable (bench/README.md, "Console speed"). The
 * first contentful paint is reported only once that frame has been presented. The form is
 * usable meanwhile (./early.ts keeps a submit), so waiting costs nothing.
 */

/** Longest wait for the paint report, should a browser never send one. */
export const FIRST_PAINT_WAIT_MS = 1000;

const FIRST_PAINT = 'first-contentful-paint';

/** Runs `run` once, after the page's first contentful paint (at once if that is past). */
export function afterFirstPaint(run: () => void): void {
  // A hidden page does not paint; a browser without paint timing cannot tell us.
  const canTell =
    typeof PerformanceObserver !== 'undefined' &&
    (PerformanceObserver.supportedEntryTypes ?? []).includes('paint') &&
    document.visibilityState === 'visible';
  if (!canTell || performance.getEntriesByName(FIRST_PAINT).length > 0) {
    run();
    return;
  }
  let done = false;
  const observer = new PerformanceObserver((list) => {
    if (list.getEntriesByName(FIRST_PAINT).length > 0) finish();
  });
  const timer = window.setTimeout(() => finish(), FIRST_PAINT_WAIT_MS);
  const onHidden = () => finish();
  function finish() {
    if (done) return;
    done = true;
    observer.disconnect();
    window.clearTimeout(timer);
    document.removeEventListener('visibilitychange', onHidden);
    run();
  }
  observer.observe({ type: 'paint', buffered: true });
  document.addEventListener('visibilitychange', onHidden);
}
