/**
 * Cookies that only tell the server which first page to send (src/web_assets.rs): the
 * login page as HTML in the chosen language (and dark when the console's theme is), or the
 * bare shell of the signed-in console.
 * They are hints, never credentials: the session is the token in localStorage, and a wrong
 * hint only costs one flash of the other first page before the console corrects it.
 */
export const LOCALE_COOKIE = 'bo_locale';
export const SIGNED_IN_COOKIE = 'bo_signed_in';
export const THEME_COOKIE = 'bo_theme';
const ONE_YEAR_SECONDS = 365 * 24 * 3600;

/** Set (a value) or remove (null) a hint cookie for the console's pages under /web. */
export function setShellHint(name: string, value: string | null): void {
  if (typeof document === 'undefined') return;
  const lifetime = value === null ? 'max-age=0' : `max-age=${ONE_YEAR_SECONDS}`;
  document.cookie = `${name}=${value ?? ''}; path=/web; ${lifetime}; samesite=strict`;
}

/** The hint's current value, or null. */
export function shellHint(name: string): string | null {
  if (typeof document === 'undefined') return null;
  const found = document.cookie.split('; ').find((item) => item.startsWith(`${name}=`));
  return found ? found.slice(name.length + 1) : null;
}
