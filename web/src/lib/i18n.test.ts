import { afterEach, describe, expect, it } from 'vitest';
import i18n, { changeLocale, DEFAULT_LOCALE, FALLBACK_LOCALE, getInitialLocale, LOCALE_STORAGE_KEY } from './i18n';

afterEach(async () => {
  await changeLocale('zh-CN');
});

describe('i18n', () => {
  it('starts in zh-CN without a stored choice and falls back to en-US', () => {
    localStorage.removeItem(LOCALE_STORAGE_KEY);
    expect(getInitialLocale()).toBe('zh-CN');
    expect(DEFAULT_LOCALE).toBe('zh-CN');
    expect(FALLBACK_LOCALE).toBe('en-US');
    expect(i18n.options.fallbackLng).toEqual(['en-US']);
  });

  it('uses the stored locale, ignoring unknown values', () => {
    localStorage.setItem(LOCALE_STORAGE_KEY, 'en-US');
    expect(getInitialLocale()).toBe('en-US');
    localStorage.setItem(LOCALE_STORAGE_KEY, 'fr-FR');
    expect(getInitialLocale()).toBe('zh-CN');
  });

  it('remembers a switch and translates dotted keys', async () => {
    await changeLocale('en-US');
    expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBe('en-US');
    expect(i18n.t('menu.dashboard.workplace')).toBe('Workplace');
    await changeLocale('zh-CN');
    expect(i18n.t('menu.dashboard.workplace')).toBe('工作台');
  });
});
