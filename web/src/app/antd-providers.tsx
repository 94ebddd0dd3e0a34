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
 * The light theme's text colours made readable (WCAG AA, 4.5:1 on white and on the light
 * greys of cards, tables and tags): antd's descriptions and placeholders (45 % and 25 %
 * black) and its status colours as text (success green, error red, warning gold, info blue)
 * are fainter than that. The status seeds are the same hues, darker, on antd's usual light
 * backgrounds and borders. Links take the theme colour rather than antd's own blue.
 * The dark algorithm's colours are its own and left alone.
 */
const READABLE_LIGHT_TOKENS = {
  colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
  colorTextDescription: 'rgba(0, 0, 0, 0.6)',
  colorTextPlaceholder: 'rgba(0, 0, 0, 0.55)',
  colorSuccess: '#1a7f37',
  colorError: '#cf1322',
  colorWarning: '#ad5f00',
  colorInfo: '#0958d9',
  // antd's own light backgrounds and borders: those it derives from the darker seeds are grey.
  colorSuccessBg: '#f6ffed',
  colorSuccessBorder: '#b7eb8f',
  colorErrorBg: '#fff2f0',
  colorErrorBorder: '#ffccc7',
  colorWarningBg: '#fffbe6',
  colorWarningBorder: '#ffe58f',
  colorInfoBg: '#e6f4ff',
  colorInfoBorder: '#91caff',
} as const;

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
      token: {
        colorPrimary: themeColor,
        colorLink: themeColor,
        ...(themeMode === 'dark' ? {} : READABLE_LIGHT_TOKENS),
      },
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
