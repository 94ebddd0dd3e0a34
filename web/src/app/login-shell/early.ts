/**
 * The login page's only script, about a kilobyte: a submit or a language choice on the HTML
 * login page (./login-shell-html.ts) before React has taken over is remembered on the form,
 * and the takeover (./takeover.ts) carries it out. Once the form's first paint is reported
 * it loads the console's scripts (./console-scripts.ts), which then take the form over.
 * Built as its own entry (web/vite.config.ts) with nothing shared, so it is one request and
 * runs as soon as the page is parsed.
 */
import { afterFirstPaint } from './after-first-paint';
import { loadConsoleScripts } from './console-scripts';

const form = document.querySelector<HTMLFormElement>('form[data-login-shell]');
if (form) {
  // 'ready': from now on a submit is kept (before this, the form's method="dialog" drops it).
  form.dataset.loginShell = 'ready';
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    form.dataset.loginShell = 'submitted';
  });
  document.querySelector('[data-testid=locale-switch]')?.addEventListener('click', (event) => {
    const option = (event.target as Element).closest<HTMLElement>('[data-testid^=locale-option-]');
    if (option) form.dataset.locale = option.dataset.testid!.slice('locale-option-'.length);
  });
}

afterFirstPaint(() => loadConsoleScripts());
