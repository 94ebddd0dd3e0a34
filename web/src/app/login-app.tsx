import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { LoginPage, type LoginPageProps } from '@/features/auth/components/login-page';

export interface LoginAppProps {
  initialValues?: LoginPageProps['initialValues'];
  /** Loads and shows the signed-in console (main.tsx); rejects when it could not load. */
  onLoggedIn: () => Promise<void>;
}

// Loaded when the user starts on the form (first focus or click): the router, the layout
// with antd, the workplace and the console's texts download while the credentials are typed.
const warmSignedInConsole = () => void import('./app-start').then((module) => module.warmSignedInConsole());

/**
 * The login page on its own, without the router: what a visitor without a session gets
 * first (main.tsx), so the page loads only React, i18next, the HTTP client and the form.
 * The router and the rest of the console load after sign-in (or while typing, above).
 * Inside the console (e.g. after logout) the router's /login route shows the same page.
 */
export function LoginApp({ initialValues, onLoggedIn }: LoginAppProps) {
  const { t, i18n } = useTranslation();
  useEffect(() => {
    document.title = `${t('menu.login')} - ${t('app.title')}`;
    document.documentElement.lang = i18n.language;
  }, [t, i18n.language]);
  const loggedIn = () =>
    onLoggedIn().catch(() => {
      throw new Error(t('login.form.login.errMsg'));
    });
  return (
    <div onFocusCapture={warmSignedInConsole} onPointerDownCapture={warmSignedInConsole}>
      <LoginPage onLoggedIn={loggedIn} initialValues={initialValues} />
    </div>
  );
}
