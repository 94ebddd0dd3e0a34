import { useId, useRef, useState, type FormEvent, type ReactElement, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import {
  isTwoFactorChallenge,
  preloadHttpClient,
  type LoginCredentials,
  type TwoFactorChallenge,
} from '../api/sign-in-requests';
import { login } from '../session-actions';
import { retryAfterSeconds } from './login-errors';
import { LockIcon, UserIcon } from './login-icons';
import { useCountdown } from './use-countdown';
import { validateCredentials, type CredentialErrors } from './validate-credentials';

export interface LoginFormProps {
  /** Called after the session is stored; the button keeps spinning until it settles. */
  onLoggedIn: () => void | Promise<void>;
  /** The password was right and two-factor is on: ask for the code next. */
  onTwoFactor?: (challenge: TwoFactorChallenge, username: string) => void;
  /** Prefilled username (coming back from the code step). */
  initialUsername?: string;
  /** Prefilled password (typed into the login page's HTML before the script took over). */
  initialPassword?: string;
  /** A message to show above the form (e.g. why the code step sent the user back). */
  notice?: string | null;
}

/**
 * Username / password form. Plain HTML (no antd) so the login page stays light; nothing is
 * remembered between visits. Server errors (wrong credentials, throttling) show above the form.
 *
 * The inputs are uncontrolled and read when the form is sent: what the page shows is what is
 * sent. A password manager that sets an input's `value` and fires an input event is not seen
 * by React's change events (React takes a value set that way for its own), and the takeover
 * of the HTML login page (app/login-shell/takeover.ts) writes what was typed into them.
 */
export function LoginForm({
  onLoggedIn,
  onTwoFactor,
  initialUsername = '',
  initialPassword = '',
  notice = null,
}: LoginFormProps) {
  const { t } = useTranslation();
  const id = useId();
  const usernameInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  // A second submit while the first is on its way (Enter twice) sends nothing.
  const sending = useRef(false);
  const [errors, setErrors] = useState<CredentialErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<string | null>(notice);
  const [waitSeconds, setWaitSeconds] = useCountdown();

  const values = (): LoginCredentials => ({
    username: usernameInput.current?.value ?? '',
    password: passwordInput.current?.value ?? '',
  });

  // Every input event, however the value got there (keys, paste, a password manager).
  const revalidate = () => {
    if (submitted) setErrors(validateCredentials(values()));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const credentials = values();
    const found = validateCredentials(credentials);
    setErrors(found);
    if (found.username || found.password || sending.current || waitSeconds > 0) return;
    sending.current = true;
    setServerError(null);
    setSubmitting(true);
    try {
      const username = credentials.username.trim();
      const answer = await login({ username, password: credentials.password });
      if (isTwoFactorChallenge(answer)) {
        if (onTwoFactor) onTwoFactor(answer, username);
        else setServerError(t('login.form.login.errMsg'));
        return;
      }
      await onLoggedIn();
    } catch (error) {
      if (passwordInput.current) passwordInput.current.value = '';
      setWaitSeconds(retryAfterSeconds(error));
      setServerError(error instanceof Error && error.message ? error.message : t('login.form.login.errMsg'));
    } finally {
      sending.current = false;
      setSubmitting(false);
    }
  };

  const field = (
    name: keyof LoginCredentials,
    type: string,
    autoComplete: string,
    icon: ReactElement,
    ref: RefObject<HTMLInputElement | null>,
    defaultValue: string,
  ) => {
    const errorKey = errors[name];
    return (
      <div className="login-form__field">
        <label className={`login-form__control${errorKey ? ' login-form__control--error' : ''}`}>
          {icon}
          <input
            ref={ref}
            name={name}
            type={type}
            defaultValue={defaultValue}
            placeholder={t(`login.form.${name}.placeholder`)}
            aria-label={t(`login.form.${name}.placeholder`)}
            aria-invalid={Boolean(errorKey)}
            aria-describedby={errorKey ? `${id}-${name}-error` : undefined}
            autoComplete={autoComplete}
            data-testid={`login-${name}`}
          />
        </label>
        <div className="login-form__error" id={`${id}-${name}-error`} data-testid={`login-${name}-error`}>
          {errorKey ? t(errorKey) : null}
        </div>
      </div>
    );
  };

  return (
    // The HTTP client is loaded as the user starts on the form, so the submit sends at once.
    <form
      className="login-form"
      onSubmit={submit}
      onInput={revalidate}
      onChange={revalidate}
      onFocusCapture={preloadHttpClient}
      onPointerDownCapture={preloadHttpClient}
      noValidate
      data-testid="login-form"
    >
      {serverError ? (
        <div className="login-form__alert" role="alert" data-testid="login-error">
          <div>{serverError}</div>
          {waitSeconds > 0 ? (
            <div className="login-form__alert-detail">{t('login.form.retryAfter', { seconds: waitSeconds })}</div>
          ) : null}
        </div>
      ) : null}
      {field('username', 'text', 'username', <UserIcon />, usernameInput, initialUsername)}
      {field('password', 'password', 'current-password', <LockIcon />, passwordInput, initialPassword)}
      <button
        type="submit"
        className="plain-button plain-button--primary login-form__submit"
        disabled={submitting || waitSeconds > 0}
        data-testid="login-submit"
        // Element Timing: bench/console-speed.mjs reads when the form was first painted.
        {...{ elementtiming: 'login-form' }}
      >
        {submitting ? <span className="login-form__spinner" aria-hidden /> : null}
        {waitSeconds > 0 ? `${t('login.form.login')} (${waitSeconds}s)` : t('login.form.login')}
      </button>
    </form>
  );
}
