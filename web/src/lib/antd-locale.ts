/**
 * antd locale data, loaded on demand (the login page loads no antd at all) and cached so a
 * page that awaited it can render with it synchronously.
 */
import type { Locale as AntdLocale } from 'antd/es/locale';
import type { Locale } from './i18n';

const loaders: Record<Locale, () => Promise<AntdLocale>> = {
  'zh-CN': async () => (await import('antd/es/locale/zh_CN')).default,
  'en-US': async () => (await import('antd/es/locale/en_US')).default,
};

const cache = new Map<Locale, AntdLocale>();

export async function loadAntdLocale(locale: Locale): Promise<AntdLocale> {
  const cached = cache.get(locale);
  if (cached) return cached;
  const loaded = await loaders[locale]();
  cache.set(locale, loaded);
  return loaded;
}

export function cachedAntdLocale(locale: Locale): AntdLocale | undefined {
  return cache.get(locale);
}

/** dayjs speaks the console language too (used by date displays and antd pickers). */
export async function syncDayjsLocale(locale: Locale): Promise<void> {
  if (locale === 'zh-CN') {
    const [{ default: dayjs }] = await Promise.all([import('dayjs'), import('dayjs/locale/zh-cn')]);
    dayjs.locale('zh-cn');
  } else {
    const { default: dayjs } = await import('dayjs');
    dayjs.locale('en');
  }
}
