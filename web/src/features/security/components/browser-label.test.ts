import { describe, expect, it } from 'vitest';
import { browserLabel } from './browser-label';

describe('browserLabel', () => {
  it('names the browser, its major version and the system', () => {
    const chrome =
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
    expect(browserLabel(chrome)).toBe('Chrome 120 · Windows');
    const edge = `${chrome} Edg/120.0.2210.91`;
    expect(browserLabel(edge)).toBe('Edge 120 · Windows');
    const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0';
    expect(browserLabel(firefox)).toBe('Firefox 121 · Linux');
    const safari =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
    expect(browserLabel(safari)).toBe('Safari 17 · iOS');
    const android =
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';
    expect(browserLabel(android)).toBe('Chrome 120 · Android');
    expect(browserLabel('Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/131.0.0.0 Safari/537.36')).toBe(
      'Headless Chrome 131 · Linux',
    );
  });

  it('shows an agent it does not know as sent, cut, and none as a dash', () => {
    expect(browserLabel('curl/8.5.0')).toBe('curl/8.5.0');
    expect(browserLabel('x'.repeat(50))).toBe(`${'x'.repeat(40)}…`);
    expect(browserLabel('')).toBe('-');
  });
});
