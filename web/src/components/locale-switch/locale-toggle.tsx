import { useTranslation } from 'react-i18next';
import { changeLocale, SUPPORTED_LOCALES } from '@/lib/i18n';
import './locale-toggle.css';

/** A light two-way language switch for the public pages (plain HTML, no antd). */
export function LocaleToggle() {
  const { t, i18n } = useTranslation();
  return (
    <div className="locale-toggle" role="group" aria-label={t('navbar.language')} data-testid="locale-switch">
      {SUPPORTED_LOCALES.map((locale) => (
        <button
          key={locale}
          type="button"
          className="locale-toggle__option"
          aria-pressed={i18n.language === locale}
          data-testid={`locale-option-${locale}`}
          onClick={() => void changeLocale(locale)}
        >
          {t(`locale.${locale}`)}
        </button>
      ))}
    </div>
  );
}
