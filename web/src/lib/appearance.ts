/**
 * The console's appearance (theme, colour-weak mode, theme colour) as the page shows it.
 * The settings store owns and persists these settings and applies them here; code below the
 * store (antd's static toasts, loaded before any store on the login page) reads them here.
 */
export type ThemeMode = 'light' | 'dark';

export interface Appearance {
  theme: ThemeMode;
  colorWeak: boolean;
  themeColor: string;
}

export const DEFAULT_APPEARANCE: Readonly<Appearance> = Object.freeze({
  theme: 'light',
  colorWeak: false,
  themeColor: '#165DFF',
});

/** localStorage key the settings store persists under ({state, version}). */
export const SETTINGS_STORAGE_KEY = 'backoffice-settings';
export const COLOR_WEAK_FILTER = 'invert(80%)';

let applied: Appearance | null = null;

/**
 * Reflect the appearance settings on the page: theme as <body data-theme>, colour-weak mode
 * as an invert(80%) filter, the theme colour as the --app-primary-color CSS variable (for
 * the non-antd parts: login page, progress bar).
 */
export function applyAppearance(settings: Appearance, body: HTMLElement = document.body): void {
  applied = { theme: settings.theme, colorWeak: settings.colorWeak, themeColor: settings.themeColor };
  body.setAttribute('data-theme', settings.theme);
  body.style.filter = settings.colorWeak ? COLOR_WEAK_FILTER : '';
  document.documentElement.style.setProperty('--app-primary-color', settings.themeColor);
}

/** The persisted settings' appearance, for pages that have not loaded the settings store. */
function storedAppearance(): Appearance {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(SETTINGS_STORAGE_KEY) ?? 'null');
    const state = (stored as { state?: Partial<Appearance> } | null)?.state ?? {};
    return {
      theme: state.theme === 'dark' ? 'dark' : 'light',
      colorWeak: state.colorWeak === true,
      themeColor: typeof state.themeColor === 'string' ? state.themeColor : DEFAULT_APPEARANCE.themeColor,
    };
  } catch {
    return { ...DEFAULT_APPEARANCE };
  }
}

/** The appearance last applied by the settings store, else the persisted one. */
export function currentAppearance(): Appearance {
  return applied ?? storedAppearance();
}
