import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentAppearance } from '@/lib/appearance';
import {
  applySettingsChange,
  COLOR_WEAK_FILTER,
  DEFAULT_SETTINGS,
  SETTINGS_STORAGE_KEY,
  settingsSnapshot,
  useSettingsStore,
} from './settings-store';

const stored = () => JSON.parse(localStorage.getItem(SETTINGS_STORAGE_KEY) ?? 'null')?.state;

beforeEach(() => {
  useSettingsStore.getState().resetSettings();
  localStorage.clear();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('settings store', () => {
  it('starts from the default settings', () => {
    expect(DEFAULT_SETTINGS).toEqual({
      theme: 'light',
      colorWeak: false,
      navbar: true,
      menu: true,
      topMenu: false,
      hideMenu: false,
      menuCollapse: false,
      footer: true,
      themeColor: '#165DFF',
      menuWidth: 220,
      device: 'desktop',
      tabBar: false,
      menuFromServer: false,
      search: true,
      serverMenu: [],
    });
    const state = useSettingsStore.getState();
    for (const [key, value] of Object.entries(DEFAULT_SETTINGS)) {
      expect(state[key as keyof typeof DEFAULT_SETTINGS]).toEqual(value);
    }
  });

  it('applies changes immediately and persists them to localStorage', () => {
    useSettingsStore.getState().updateSettings({ navbar: false, tabBar: true, menuWidth: 260 });
    expect(useSettingsStore.getState()).toMatchObject({ navbar: false, tabBar: true, menuWidth: 260 });
    expect(stored()).toMatchObject({ navbar: false, tabBar: true, menuWidth: 260 });
  });

  it('restores persisted settings on load', async () => {
    localStorage.setItem(
      SETTINGS_STORAGE_KEY,
      JSON.stringify({ state: { ...settingsSnapshot(DEFAULT_SETTINGS), footer: false, theme: 'dark' }, version: 1 }),
    );
    await useSettingsStore.persist.rehydrate();
    expect(useSettingsStore.getState()).toMatchObject({ footer: false, theme: 'dark', navbar: true });
  });

  it('never persists the per-session server menu', () => {
    useSettingsStore.getState().setServerMenu([{ path: '/dashboard', name: 'dashboard' }]);
    useSettingsStore.getState().updateSettings({ menuFromServer: true });
    expect(useSettingsStore.getState().serverMenu).toHaveLength(1);
    expect(stored()).not.toHaveProperty('serverMenu');
    expect(stored().menuFromServer).toBe(true);
  });

  it('un-collapses the menu when the top menu is turned on', () => {
    useSettingsStore.getState().updateSettings({ menuCollapse: true });
    useSettingsStore.getState().updateSettings({ topMenu: true });
    expect(useSettingsStore.getState()).toMatchObject({ topMenu: true, menuCollapse: false });
    // Turning it off leaves the collapse state alone.
    useSettingsStore.getState().updateSettings({ menuCollapse: true });
    useSettingsStore.getState().updateSettings({ topMenu: false });
    expect(useSettingsStore.getState().menuCollapse).toBe(true);
  });

  it('ignores a menu width that is not a positive number', () => {
    const current = { ...DEFAULT_SETTINGS };
    expect(applySettingsChange(current, { menuWidth: Number.NaN }).menuWidth).toBe(220);
    expect(applySettingsChange(current, { menuWidth: -5 }).menuWidth).toBe(220);
    expect(applySettingsChange(current, { menuWidth: 240.4 }).menuWidth).toBe(240);
  });

  it('colour-weak mode inverts the page by 80 percent, and only while on', () => {
    useSettingsStore.getState().updateSettings({ colorWeak: true });
    expect(COLOR_WEAK_FILTER).toBe('invert(80%)');
    expect(document.body.style.filter).toBe('invert(80%)');
    useSettingsStore.getState().updateSettings({ colorWeak: false });
    expect(document.body.style.filter).toBe('');
  });

  it('marks the theme on <body> and exposes the theme colour as a CSS variable', () => {
    useSettingsStore.getState().toggleTheme();
    expect(document.body.getAttribute('data-theme')).toBe('dark');
    useSettingsStore.getState().toggleTheme();
    expect(document.body.getAttribute('data-theme')).toBe('light');
    useSettingsStore.getState().updateSettings({ themeColor: '#00B42A' });
    expect(document.documentElement.style.getPropertyValue('--app-primary-color')).toBe('#00B42A');
  });

  it('copies settings without the server menu', () => {
    const snapshot = settingsSnapshot({ ...DEFAULT_SETTINGS, serverMenu: [{ path: '/a', name: 'a' }] });
    expect(snapshot).not.toHaveProperty('serverMenu');
    expect(Object.keys(snapshot)).toHaveLength(Object.keys(DEFAULT_SETTINGS).length - 1);
  });

  it('tells the server the theme through the first-page hint cookie', () => {
    // Written for path /web, which jsdom's page (at /) cannot read back: watch the writes.
    const cookie = vi.spyOn(document, 'cookie', 'set');
    const values = () => cookie.mock.calls.map(([value]) => value.split(';')[0]);
    useSettingsStore.getState().updateSettings({ theme: 'dark' });
    expect(values().at(-1)).toBe('bo_theme=dark');
    useSettingsStore.getState().updateSettings({ theme: 'light' });
    expect(values().at(-1)).toBe('bo_theme=');
  });

  it('hands the appearance it applies to the code below it (the static toasts)', () => {
    useSettingsStore.getState().updateSettings({ theme: 'dark', themeColor: '#00B42A' });
    expect(currentAppearance()).toEqual({ theme: 'dark', colorWeak: false, themeColor: '#00B42A' });
  });
});
