import { afterEach, describe, expect, it, vi } from 'vitest';

// A fresh module each time: the settings store, loaded by other tests of the same worker,
// applies its appearance here on load.
async function freshAppearance() {
  vi.resetModules();
  return import('./appearance');
}

afterEach(() => localStorage.clear());

describe('the appearance below the settings store', () => {
  // The login page shows toasts before (or without) loading the settings store.
  it('is the persisted settings until the store applies them', async () => {
    const { currentAppearance, DEFAULT_APPEARANCE, SETTINGS_STORAGE_KEY } = await freshAppearance();
    expect(currentAppearance()).toEqual(DEFAULT_APPEARANCE);
    localStorage.setItem(
      SETTINGS_STORAGE_KEY,
      JSON.stringify({ state: { theme: 'dark', colorWeak: true, themeColor: '#F53F3F', footer: false }, version: 1 }),
    );
    expect(currentAppearance()).toEqual({ theme: 'dark', colorWeak: true, themeColor: '#F53F3F' });
    localStorage.setItem(SETTINGS_STORAGE_KEY, '{not json');
    expect(currentAppearance()).toEqual(DEFAULT_APPEARANCE);
  });

  it('is what was last applied to the page once the store has applied it', async () => {
    const { applyAppearance, currentAppearance, SETTINGS_STORAGE_KEY } = await freshAppearance();
    localStorage.setItem(SETTINGS_STORAGE_KEY, JSON.stringify({ state: { theme: 'dark' }, version: 1 }));
    applyAppearance({ theme: 'light', colorWeak: false, themeColor: '#165DFF' });
    expect(currentAppearance()).toEqual({ theme: 'light', colorWeak: false, themeColor: '#165DFF' });
    expect(document.body.getAttribute('data-theme')).toBe('light');
  });
});
