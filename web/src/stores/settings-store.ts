/**
 * Application settings (with their defaults), applied immediately and persisted to localStorage.
 * The server menu is kept here too but never persisted: it is fetched per session.
 */
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { applyAppearance, DEFAULT_APPEARANCE, SETTINGS_STORAGE_KEY, type ThemeMode } from '@/lib/appearance';
import type { MenuRoute } from '@/lib/route-meta';
import { setShellHint, THEME_COOKIE } from '@/lib/shell-hints';

export { applyAppearance, COLOR_WEAK_FILTER, SETTINGS_STORAGE_KEY, type ThemeMode } from '@/lib/appearance';
export type Device = 'desktop' | 'mobile';

export interface AppSettings {
  theme: ThemeMode;
  colorWeak: boolean;
  navbar: boolean;
  menu: boolean;
  topMenu: boolean;
  hideMenu: boolean;
  menuCollapse: boolean;
  footer: boolean;
  themeColor: string;
  menuWidth: number;
  device: Device;
  tabBar: boolean;
  menuFromServer: boolean;
  /** The settings drawer's 'search' switch: the navbar's page search. */
  search: boolean;
  serverMenu: MenuRoute[];
}

export const DEFAULT_SETTINGS: Readonly<AppSettings> = Object.freeze({
  ...DEFAULT_APPEARANCE,
  navbar: true,
  menu: true,
  topMenu: false,
  hideMenu: false,
  menuCollapse: false,
  footer: true,
  menuWidth: 220,
  device: 'desktop',
  tabBar: false,
  menuFromServer: false,
  search: true,
  serverMenu: [],
});

export interface SettingsState extends AppSettings {
  /** Apply a partial change; turning the top menu on also un-collapses the menu. */
  updateSettings: (change: Partial<AppSettings>) => void;
  toggleTheme: () => void;
  setServerMenu: (menu: MenuRoute[]) => void;
  clearServerMenu: () => void;
  resetSettings: () => void;
}

/** The pure rule behind updateSettings, exported for tests and reuse. */
export function applySettingsChange(current: AppSettings, change: Partial<AppSettings>): Partial<AppSettings> {
  const next: Partial<AppSettings> = { ...change };
  if (change.topMenu === true) next.menuCollapse = false;
  if (change.menuWidth !== undefined) {
    const width = Number(change.menuWidth);
    next.menuWidth = Number.isFinite(width) && width > 0 ? Math.round(width) : current.menuWidth;
  }
  return next;
}

/** Settings as the 'copy settings' action shares them (no per-session server menu). */
export function settingsSnapshot(state: AppSettings): Omit<AppSettings, 'serverMenu'> {
  return {
    theme: state.theme,
    colorWeak: state.colorWeak,
    navbar: state.navbar,
    menu: state.menu,
    topMenu: state.topMenu,
    hideMenu: state.hideMenu,
    menuCollapse: state.menuCollapse,
    footer: state.footer,
    themeColor: state.themeColor,
    menuWidth: state.menuWidth,
    device: state.device,
    tabBar: state.tabBar,
    menuFromServer: state.menuFromServer,
    search: state.search,
  };
}

export const useSettingsStore = create<SettingsState>()(
  persist(
    (set, get) => ({
      ...DEFAULT_SETTINGS,
      serverMenu: [],
      updateSettings: (change) => set(applySettingsChange(get(), change)),
      toggleTheme: () => set({ theme: get().theme === 'dark' ? 'light' : 'dark' }),
      setServerMenu: (menu) => set({ serverMenu: menu }),
      clearServerMenu: () => set({ serverMenu: [] }),
      resetSettings: () => set({ ...DEFAULT_SETTINGS, serverMenu: [] }),
    }),
    {
      name: SETTINGS_STORAGE_KEY,
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: (state) => settingsSnapshot(state),
    },
  ),
);

/** Tell the server to send the login page's HTML already dark (lib/shell-hints). */
export function syncThemeHint(theme: ThemeMode): void {
  setShellHint(THEME_COOKIE, theme === 'dark' ? 'dark' : null);
}

applyAppearance(useSettingsStore.getState());
syncThemeHint(useSettingsStore.getState().theme);
useSettingsStore.subscribe((state, previous) => {
  if (
    state.theme !== previous.theme ||
    state.colorWeak !== previous.colorWeak ||
    state.themeColor !== previous.themeColor
  ) {
    applyAppearance(state);
  }
  if (state.theme !== previous.theme) syncThemeHint(state.theme);
});
