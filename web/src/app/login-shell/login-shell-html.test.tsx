import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import i18n, { changeLocale, type Locale } from '@/lib/i18n';
import enPublic from '@/locales/en-US/public';
import zhPublic from '@/locales/zh-CN/public';
import { LoginApp } from '../login-app';
import { loginShellHtml, loginShellPage, SHELL_FORM_ATTRIBUTE } from './login-shell-html';

const TEXTS = { 'zh-CN': zhPublic, 'en-US': enPublic };
const YEAR = new Date().getFullYear();

/**
 * The markup with what may differ removed: React's generated ids (useId) and the two
 * attributes only the HTML form has (method="dialog" and the shell marker).
 */
function normalised(html: string): string {
  const holder = document.createElement('div');
  holder.innerHTML = html;
  holder.querySelectorAll('[id]').forEach((element) => element.removeAttribute('id'));
  holder.querySelectorAll('form').forEach((form) => {
    form.removeAttribute('method');
    form.removeAttribute(SHELL_FORM_ATTRIBUTE);
  });
  // Attribute order is not markup: sort them so both sides serialise alike.
  holder.querySelectorAll('*').forEach((element) => {
    const attributes = [...element.attributes].map((attribute) => [attribute.name, attribute.value] as const);
    attributes.forEach(([name]) => element.removeAttribute(name));
    attributes.sort(([a], [b]) => a.localeCompare(b)).forEach(([name, value]) => element.setAttribute(name, value));
  });
  return holder.innerHTML;
}

afterEach(async () => {
  cleanup();
  await changeLocale('zh-CN');
});

describe('the login page as HTML', () => {
  it.each(['zh-CN', 'en-US'] as Locale[])('is the markup React renders for the login page (%s)', async (locale) => {
    await changeLocale(locale);
    const { container } = render(<LoginApp onLoggedIn={() => Promise.resolve()} />);
    const shell = loginShellHtml(locale, TEXTS[locale], YEAR);
    expect(normalised(shell)).toBe(normalised(container.innerHTML));
    // And it is really this language's page.
    expect(shell).toContain(TEXTS[locale]['login.form.login']);
  });

  it('becomes a whole page with the language, the title and the form in the root', () => {
    const index =
      '<!doctype html><html lang="zh-CN"><head><title>Backoffice</title></head><body><div id="root"></div></body></html>';
    const page = loginShellPage(index, 'en-US', enPublic, 2030);
    expect(page).toContain('<html lang="en-US">');
    expect(page).toContain('<title>Login - Top-up Backoffice</title>');
    expect(page).toContain('<div id="root"><div><div class="login-page"');
    expect(page).toContain('Top-up Backoffice © 2030');
    expect(page).not.toContain('<div id="root"></div>');
  });

  it('escapes the texts', () => {
    const html = loginShellHtml('en-US', { ...enPublic, 'login.title': '<b>"x" & y</b>' }, YEAR);
    expect(html).toContain('&lt;b&gt;&quot;x&quot; &amp; y&lt;/b&gt;');
  });

  it('names a missing text instead of writing an empty page', () => {
    const { 'login.title': _dropped, ...incomplete } = enPublic;
    expect(() => loginShellHtml('en-US', incomplete, YEAR)).toThrow('login.title');
  });
});

describe('the login page texts', () => {
  it.each(['zh-CN', 'en-US'] as Locale[])('cover everything the login page shows (%s)', async (locale) => {
    // Only the public texts, as the login page has them before the console's texts load.
    const missing: string[] = [];
    const onMissing = (_: readonly string[], __: string, key: string) => missing.push(key);
    const store = i18n.store.data;
    const saved = { ...store };
    await act(async () => {
      i18n.store.data = { 'zh-CN': { translation: zhPublic }, 'en-US': { translation: enPublic } };
      await changeLocale(locale);
    });
    i18n.on('missingKey', onMissing);
    i18n.options.saveMissing = true;
    try {
      render(<LoginApp onLoggedIn={() => Promise.resolve()} />);
    } finally {
      i18n.options.saveMissing = false;
      i18n.off('missingKey', onMissing);
      i18n.store.data = saved;
    }
    expect(missing).toEqual([]);
  });
});
