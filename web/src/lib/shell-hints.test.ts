import { afterEach, describe, expect, it, vi } from 'vitest';
import { changeLocale } from './i18n';
import { clearSession, saveSession } from './session';
import * as hints from './shell-hints';

// The theme's hint is the settings store's (stores/settings-store.test.ts). The hints are written for path /web, which jsdom's page (at /) cannot read back: the
// tests watch what is written instead.
afterEach(async () => {
  vi.restoreAllMocks();
  await changeLocale('zh-CN');
});

describe('the first-page hints', () => {
  it('are cookies for the console pages only', () => {
    const cookie = vi.spyOn(document, 'cookie', 'set');
    hints.setShellHint(hints.LOCALE_COOKIE, 'en-US');
    hints.setShellHint(hints.LOCALE_COOKIE, null);
    expect(cookie.mock.calls.map(([value]) => value)).toEqual([
      'bo_locale=en-US; path=/web; max-age=31536000; samesite=strict',
      'bo_locale=; path=/web; max-age=0; samesite=strict',
    ]);
  });

  it('follow the session and the language', async () => {
    const cookie = vi.spyOn(document, 'cookie', 'set');
    const values = () => cookie.mock.calls.map(([value]) => value.split(';')[0]);
    saveSession('token-1', { user_id: 1, username: 'merchant', role: 'user', mid: 7, must_change_password: false });
    expect(values()).toContain('bo_signed_in=1');
    clearSession();
    expect(values().at(-1)).toBe('bo_signed_in=');
    await changeLocale('en-US');
    expect(values().at(-1)).toBe('bo_locale=en-US');
  });
});
