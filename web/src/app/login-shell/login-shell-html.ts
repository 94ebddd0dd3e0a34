/**
 * The login page as HTML, written into the page the server sends first (one file per
 * language, see web/vite.config.ts and src/web_assets.rs), so the form shows and takes
 * typing before any script has run. The console's script then renders the real page
 * (features/auth LoginPage) in its place with what was typed (./takeover.ts); the markup
 * here is the same as React's, so the switch repaints nothing (login-shell-html.test.tsx
 * compares the two in both languages).
 *
 * Plain strings only: the Vite config imports this file to write the pages.
 */

export type ShellTexts = Record<string, string>;

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Marks the shell's form: the early script and the takeover look for it. */
export const SHELL_FORM_ATTRIBUTE = 'data-login-shell';
export const SHELL_LOCALES = ['zh-CN', 'en-US'] as const;

/** Everything inside <div id="root"> for one language. */
export function loginShellHtml(locale: string, texts: ShellTexts, year: number): string {
  const t = (key: string, values: Record<string, string | number> = {}) => {
    const text = texts[key];
    if (text === undefined) throw new Error(`login shell: no text for ${key}`);
    return escapeHtml(text.replace(/{{\s*(\w+)\s*}}/g, (_, name: string) => String(values[name] ?? '')));
  };
  const icon = (paths: string) =>
    `<svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true">${paths}</svg>`;
  const userIcon = icon(
    '<circle cx="12" cy="8" r="4"></circle><path d="M4 21c0-4 3.6-7 8-7s8 3 8 7" stroke-linecap="round"></path>',
  );
  const lockIcon = icon(
    '<rect x="5" y="11" width="14" height="10" rx="2"></rect><path d="M8 11V7a4 4 0 0 1 8 0v4"></path>',
  );
  const field = (name: string, type: string, autoComplete: string, svg: string) =>
    `<div class="login-form__field"><label class="login-form__control">${svg}` +
    `<input name="${name}" type="${type}" placeholder="${t(`login.form.${name}.placeholder`)}" ` +
    `aria-label="${t(`login.form.${name}.placeholder`)}" aria-invalid="false" autocomplete="${autoComplete}" ` +
    `data-testid="login-${name}" value=""></label>` +
    `<div class="login-form__error" id="login-shell-${name}-error" data-testid="login-${name}-error"></div></div>`;
  const localeOption = (option: string) =>
    `<button type="button" class="locale-toggle__option" aria-pressed="${option === locale}" ` +
    `data-testid="locale-option-${option}">${t(`locale.${option}`)}</button>`;
  return (
    `<div><div class="login-page" data-testid="login-page">` +
    `<aside class="login-page__banner"><div class="login-page__brand">` +
    // The logo drawn in the page, as features/auth BrandLogo does (no request, no SVG document).
    `<svg width="32" height="32" viewBox="0 0 64 64" role="img" aria-label="${t('navbar.logoAlt')}">` +
    `<rect width="64" height="64" rx="14" fill="#165DFF"></rect><path d="M20 44V20h14a8 8 0 0 1 0 16h-6m0-8h8a8 8 0 0 1 0 16H20" ` +
    `fill="none" stroke="#fff" stroke-width="5" stroke-linecap="round" stroke-linejoin="round"></path></svg>` +
    `<span>${t('app.title')}</span></div>` +
    `<div class="login-page__banner-text"><h2>${t('login.banner.title')}</h2><p>${t('login.banner.description')}</p></div></aside>` +
    `<main class="login-page__main"><div class="login-page__toolbar">` +
    `<div class="locale-toggle" role="group" aria-label="${t('navbar.language')}" data-testid="locale-switch">` +
    `${SHELL_LOCALES.map(localeOption).join('')}</div></div>` +
    `<div class="login-page__panel"><h1 class="login-page__title" data-testid="login-title">${t('login.title')}</h1>` +
    `<p class="login-page__subtitle">${t('login.subtitle')}</p>` +
    // method="dialog" outside a dialog: submitting sends nothing anywhere (no script yet).
    `<form class="login-form" novalidate="" data-testid="login-form" method="dialog" ${SHELL_FORM_ATTRIBUTE}="">` +
    field('username', 'text', 'username', userIcon) +
    field('password', 'password', 'current-password', lockIcon) +
    `<button type="submit" class="plain-button plain-button--primary login-form__submit" data-testid="login-submit" ` +
    `elementtiming="login-form">${t('login.form.login')}</button></form></div>` +
    `<footer class="login-page__footer">${t('footer.copyright', { year })}</footer></main></div></div>`
  );
}

/** The whole page for one language, from the built index.html. */
export function loginShellPage(indexHtml: string, locale: string, texts: ShellTexts, year: number): string {
  const title = `${texts['menu.login']} - ${texts['app.title']}`;
  return indexHtml
    .replace(/<html lang="[^"]*">/, `<html lang="${locale}">`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`)
    .replace('<div id="root"></div>', `<div id="root">${loginShellHtml(locale, texts, year)}</div>`);
}
