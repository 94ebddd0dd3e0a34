import { useTranslation } from 'react-i18next';
import logoUrl from '@/assets/logo.svg';
import { LocaleToggle } from '@/components/locale-switch/locale-toggle';
import { LoginForm } from './login-form';
import './login-page.css';

export interface LoginPageProps {
  onLoggedIn: () => void;
}

/** Public sign-in page with a banner, the form and a language switch. */
export function LoginPage({ onLoggedIn }: LoginPageProps) {
  const { t } = useTranslation();
  return (
    <div className="login-page" data-testid="login-page">
      <aside className="login-page__banner">
        <div className="login-page__brand">
          <img src={logoUrl} alt={t('navbar.logoAlt')} width={32} height={32} />
          <span>{t('app.title')}</span>
        </div>
        <div className="login-page__banner-text">
          <h2>{t('login.banner.title')}</h2>
          <p>{t('login.banner.description')}</p>
        </div>
      </aside>
      <main className="login-page__main">
        <div className="login-page__toolbar">
          <LocaleToggle />
        </div>
        <div className="login-page__panel">
          <h1 className="login-page__title" data-testid="login-title">
            {t('login.title')}
          </h1>
          <p className="login-page__subtitle">{t('login.subtitle')}</p>
          <LoginForm onLoggedIn={onLoggedIn} />
        </div>
        <footer className="login-page__footer">{t('footer.copyright', { year: new Date().getFullYear() })}</footer>
      </main>
    </div>
  );
}
