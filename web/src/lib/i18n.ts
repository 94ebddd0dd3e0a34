import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import enPublic from '@/locales/en-US/public';
import zhPublic from '@/locales/zh-CN/public';
import { LOCALE_COOKIE, setShellHint } from './shell-hints';

export const SUPPORTED_LOCALES = ['zh-CN', 'en-US'] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];

export const DEFAULT_LOCALE: Locale = 'zh-CN';
export const FALLBACK_LOCALE: Locale = 'en-US';
/** localStorage key holding the chosen console locale. */
export const LOCALE_STORAGE_KEY = 'locale';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (SUPPORTED_LOCALES as readonly string[]).includes(value);
}

/** Locale stored by the user, else zh-CN. */
export function getInitialLocale(): Locale {
  const stored = localStorage.getItem(LOCALE_STORAGE_KEY);
  return isLocale(stored) ? stored : DEFAULT_LOCALE;
}

// Only the login page's texts, in both languages, ship with the first page; the rest of the
// console's texts load with the signed-in console (locales/app-texts.ts registers a loader
// below, so a language switch first fetches that language's texts).
void i18n.use(initReactI18next).init({
  resources: {
    'zh-CN': { translation: zhPublic },
    'en-US': { translation: enPublic },
  },
  lng: getInitialLocale(),
  fallbackLng: FALLBACK_LOCALE,
  supportedLngs: [...SUPPORTED_LOCALES],
  // Keys are flat and dotted ('menu.dashboard.workplace'), as the server menu's meta.locale.
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

export function currentLocale(): Locale {
  return isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}

type TextLoader = (locale: Locale) => Promise<void>;
const textLoaders = new Set<TextLoader>();

/** Texts loaded after start-up register here so a language switch loads them first. */
export function onLocaleTexts(loader: TextLoader): void {
  textLoaders.add(loader);
}

/** Tell the server the language of the login page it sends first (lib/shell-hints). */
export function syncLocaleHint(locale: Locale = currentLocale()): void {
  setShellHint(LOCALE_COOKIE, locale);
}

/** Switch the console language and remember it. */
export async function changeLocale(locale: Locale): Promise<void> {
  localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  syncLocaleHint(locale);
  await Promise.all([...textLoaders].map((load) => load(locale)));
  await i18n.changeLanguage(locale);
}

/** Translate a key when it exists, else return the fallback (used for server-sent locale keys). */
export function translateOr(key: string | undefined, fallback: string): string {
  if (key && i18n.exists(key)) return i18n.t(key);
  return fallback;
}

export default i18n;
