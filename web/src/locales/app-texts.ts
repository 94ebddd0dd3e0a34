/**
 * The signed-in console's texts (everything beyond locales/{zh-CN,en-US}/public.ts),
 * one language at a time: the active one before the console first renders, another when the
 * user switches to it (lib/i18n's changeLocale waits for it).
 */
import i18n, { onLocaleTexts, type Locale } from '@/lib/i18n';

const bundles: Record<Locale, () => Promise<{ default: Record<string, string> }>> = {
  'zh-CN': () => import('./zh-CN'),
  'en-US': () => import('./en-US'),
};
const loaded = new Map<Locale, Promise<void>>();

export function loadAppTexts(locale: Locale): Promise<void> {
  let loading = loaded.get(locale);
  if (!loading) {
    loading = bundles[locale]().then(
      (bundle) => {
        i18n.addResourceBundle(locale, 'translation', bundle.default, true, false);
      },
      (error: unknown) => {
        // A failed download may be retried by the next switch or start.
        loaded.delete(locale);
        throw error;
      },
    );
    loaded.set(locale, loading);
  }
  return loading;
}

onLocaleTexts(loadAppTexts);
