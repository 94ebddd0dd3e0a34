import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LocaleToggle } from '@/components/locale-switch/locale-toggle';
import type { TwoFactorChallenge } from '../api/sign-in-requests';
import { BrandLogo } from './brand-logo';
import { LoginForm } from './login-form';
import { TwoFactorStep } from './two-factor-step';
import './login-page.css';

export interface LoginPageProps {
  /** Called after the session is stored; the button keeps spinning until it settles. */
  onLoggedIn: () => void | Promise<void>;
  /** What was typed into the login page's HTML before the console's script took over. */
  initialValues?: { username: string; password: string };
}

type Step =
  | { kind: 'password'; username: string; notice: string | null }
  | { kind: 'code'; username: string; challenge: TwoFactorChallenge };

/**
 * Public sign-in page with a banner, the form and a language switch. With two-factor on,
 * the password step is followed by the code step (the session is stored only after it).
 */
export function LoginPage({ onLoggedIn, initialValues }: LoginPageProps) {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>({ kind: 'password', username: initialValues?.username ?? '', notice: null });
  // A fresh password form each time the user comes back to it.
  const [passwordRound, setPasswordRound] = useState(0);
  return (
    <div className="login-page" data-testid="login-page">
      <aside className="login-page__banner">
        <div className="login-page__brand">
          <BrandLogo label={t('navbar.logoAlt')} />
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
          {step.kind === 'code' ? (
            <TwoFactorStep
              challenge={step.challenge}
              username={step.username}
              onLoggedIn={onLoggedIn}
              onRestart={(notice) => {
                setPasswordRound((round) => round + 1);
                setStep({ kind: 'password', username: step.username, notice: notice ?? null });
              }}
            />
          ) : (
            <LoginForm
              key={passwordRound}
              onLoggedIn={onLoggedIn}
              onTwoFactor={(challenge, username) => setStep({ kind: 'code', username, challenge })}
              initialUsername={step.username}
              initialPassword={passwordRound === 0 ? initialValues?.password : undefined}
              notice={step.notice}
            />
          )}
        </div>
        <footer className="login-page__footer">{t('footer.copyright', { year: new Date().getFullYear() })}</footer>
      </main>
    </div>
  );
}
