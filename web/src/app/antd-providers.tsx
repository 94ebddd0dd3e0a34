import { ConfigProvider, theme as antdTheme, type ThemeConfig } from 'antd';
import type { Locale as AntdLocale } from 'antd/es/locale';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MessageHolder } from '@/components/feedback/message-holder';
import { ModalNotificationHolder } from '@/components/feedback/modal-notification-holder';
import { cachedAntdLocale, loadAntdLocale, syncDayjsLocale } from '@/lib/antd-locale';
import { currentLocale, isLocale } from '@/lib/i18n';
import { useSettingsStore } from '@/stores/settings-store';
// antd's component styles as one static file (zero-runtime mode): generating them in the
// browser on first render cost ~90 ms of the login-to-workplace time. Theme tokens (colour,
// dark mode) are still CSS variables set at runtime, so the settings apply as before.
import 'antd/dist/antd.css';

/**
 * antd's theme from the settings: light/dark algorithm, theme colour as colorPrimary. Its
 * CSS variables have a fixed key rather than one per ConfigProvider (antd's default, from
 * useId): the first page's rehearsal (layout/rehearsal) then fills the very cache entries the
 * console uses.
 */
export function useAntdTheme(): ThemeConfig {
  const themeMode = useSettingsStore((state) => state.theme);
  const themeColor = useSettingsStore((state) => state.themeColor);
  return useMemo(
    () => ({
      algorithm: themeMode === 'dark' ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
      token: { colorPrimary: themeColor },
      cssVar: { key: 'css-var-console' },
      zeroRuntime: true,
    }),
    [themeMode, themeColor],
  );
}

/**
 * antd's theme and locale, plus the feedback holders. Wraps only the pages that render
 * antd, so the login page loads none. Routes using it await loadAntdLocale(currentLocale())
 * first (see route-objects).
 */
export function AntdProviders({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const theme = useAntdTheme();
  const [antdLocale, setAntdLocale] = useState<AntdLocale | undefined>(() => cachedAntdLocale(currentLocale()));

  useEffect(() => {
    let latest = 0;
    const follow = (language: string) => {
      if (!isLocale(language)) return;
      const ticket = ++latest;
      void syncDayjsLocale(language);
      void loadAntdLocale(language).then((locale) => {
        if (ticket === latest) setAntdLocale(locale);
      });
    };
    follow(i18n.language);
    i18n.on('languageChanged', follow);
    return () => i18n.off('languageChanged', follow);
  }, [i18n]);

  return (
    <ConfigProvider locale={antdLocale} theme={theme}>
      <MessageHolder />
      <ModalNotificationHolder />
      {children}
    </ConfigProvider>
  );
}
