import { afterEach, describe, expect, it } from 'vitest';
import { CONSOLE_SCRIPTS_META, loadConsoleScripts } from './console-scripts';

describe('loadConsoleScripts', () => {
  afterEach(() => {
    document.head.innerHTML = '';
  });

  it('runs the first script the meta tag names as a module and preloads the others', () => {
    document.head.innerHTML = `<meta name="${CONSOLE_SCRIPTS_META}" content="/web/assets/index.js /web/assets/react.js /web/assets/i18n.js">`;
    loadConsoleScripts();
    const preloads = [...document.head.querySelectorAll<HTMLLinkElement>('link[rel=modulepreload]')];
    expect(preloads.map((link) => new URL(link.href).pathname)).toEqual([
      '/web/assets/react.js',
      '/web/assets/i18n.js',
    ]);
    const scripts = [...document.head.querySelectorAll<HTMLScriptElement>('script')];
    expect(scripts).toHaveLength(1);
    expect(scripts[0].type).toBe('module');
    expect(new URL(scripts[0].src).pathname).toBe('/web/assets/index.js');
    // Same-origin module requests with credentials, as the page's own tags had them.
    expect(scripts[0].getAttribute('crossorigin')).toBe('');
  });

  it('loads nothing on a page without the tag', () => {
    loadConsoleScripts();
    expect(document.head.querySelectorAll('script, link')).toHaveLength(0);
  });
});
