import { useId, useState, type FormEvent, type ReactElement } from 'react';
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
  const [values, setValues] = useState<LoginCredentials>({ username: initialUsername, password: initialPassword });
  const [errors, setErrors] = useState<CredentialErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<string | null>(notice);
  const [waitSeconds, setWaitSeconds] = useCountdown();

  const change = (field: keyof LoginCredentials, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (submitted) setErrors(validateCredentials(next));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const found = validateCredentials(values);
    setErrors(found);
    if (found.username || found.password || submitting || waitSeconds > 0) return;
    setServerError(null);
    setSubmitting(true);
    try {
      const username = values.username.trim();
      const answer = await login({ username, password: values.password });
      if (isTwoFactorChallenge(answer)) {
        if (onTwoFactor) onTwoFactor(answer, username);
        else setServerError(t('login.form.login.errMsg'));
        return;
      }
      await onLoggedIn();
    } catch (error) {
      setValues((current) => ({ ...current, password: '' }));
      setWaitSeconds(retryAfterSeconds(error));
      setServerError(error instanceof Error && error.message ? error.message : t('login.form.login.errMsg'));
    } finally {
      setSubmitting(false);
    }
  };

  const field = (name: keyof LoginCredentials, type: string, autoComplete: string, icon: ReactElement) => {
    const errorKey = errors[name];
    return (
      <div className="login-form__field">
        <label className={`login-form__control${errorKey ? ' login-form__control--error' : ''}`}>
          {icon}
          <input
            name={name}
            type={type}
            value={values[name]}
            placeholder={t(`login.form.${name}.placeholder`)}
            aria-label={t(`login.form.${name}.placeholder`)}
            aria-invalid={Boolean(errorKey)}
            aria-describedby={errorKey ? `${id}-${name}-error` : undefined}
            autoComplete={autoComplete}
            data-testid={`login-${name}`}
            onChange={(event) => change(name, event.target.value)}
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
      {field('username', 'text', 'username', <UserIcon />)}
      {field('password', 'password', 'current-password', <LockIcon />)}
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
