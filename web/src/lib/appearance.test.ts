import { afterEach, describe, expect, it } from 'vitest';
import { applyAppearance, currentAppearance, DEFAULT_APPEARANCE, SETTINGS_STORAGE_KEY } from './appearance';

afterEach(() => localStorage.clear());

describe('the appearance below the settings store', () => {
  // The login page shows toasts before (or without) loading the settings store.
  it('is the persisted settings until the store applies them', () => {
    expect(currentAppearance()).toEqual(DEFAULT_APPEARANCE);
    localStorage.setItem(
      SETTINGS_STORAGE_KEY,
      JSON.stringify({ state: { theme: 'dark', colorWeak: true, themeColor: '#F53F3F', footer: false }, version: 1 }),
    );
    expect(currentAppearance()).toEqual({ theme: 'dark', colorWeak: true, themeColor: '#F53F3F' });
    localStorage.setItem(SETTINGS_STORAGE_KEY, '{not json');
    expect(currentAppearance()).toEqual(DEFAULT_APPEARANCE);
  });

  it('is what was last applied to the page once the store has applied it', () => {
    localStorage.setItem(SETTINGS_STORAGE_KEY, JSON.stringify({ state: { theme: 'dark' }, version: 1 }));
    applyAppearance({ theme: 'light', colorWeak: false, themeColor: '#165DFF' });
    expect(currentAppearance()).toEqual({ theme: 'light', colorWeak: false, themeColor: '#165DFF' });
    expect(document.body.getAttribute('data-theme')).toBe('light');
  });
});
