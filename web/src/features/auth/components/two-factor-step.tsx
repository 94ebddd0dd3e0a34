import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthCodeInput } from '@/components/auth-code-input/auth-code-input';
import { useAuthCodeField } from '@/components/auth-code-input/use-auth-code-field';
import type { TwoFactorChallenge } from '../api/sign-in-requests';
import { verifyTwoFactorLogin } from '../session-actions';
import { twoFactorFailure } from './login-errors';
import { useCountdown } from './use-countdown';

export interface TwoFactorStepProps {
  challenge: TwoFactorChallenge;
  username: string;
  /** Called after the session is stored; the button keeps spinning until it settles. */
  onLoggedIn: () => void | Promise<void>;
  /** Back to the password step, with the reason when the pending sign-in died (40120). */
  onRestart: (notice?: string | null) => void;
}

/**
 * The second sign-in step when two-factor is on: an authenticator code, or after 'Forgot
 * code' a backup code (so someone without the phone still gets in). Plain React like the
 * password form, to keep the login page light.
 */
export function TwoFactorStep({ challenge, username, onLoggedIn, onRestart }: TwoFactorStepProps) {
  const { t } = useTranslation();
  const field = useAuthCodeField();
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [waitSeconds, setWaitSeconds] = useCountdown();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting || waitSeconds > 0) return;
    const code = field.validate();
    if (!code) return;
    setServerError(null);
    setSubmitting(true);
    try {
      await verifyTwoFactorLogin({ pending_token: challenge.pending_token, code });
      await onLoggedIn();
    } catch (error) {
      const failure = twoFactorFailure(error);
      if (failure.kind === 'restart') {
        onRestart(failure.message ?? t('login.form.login.errMsg'));
        return;
      }
      field.clear();
      setServerError(failure.message ?? t('login.form.login.errMsg'));
      if (failure.kind === 'wait') setWaitSeconds(failure.seconds);
    } finally {
      setSubmitting(false);
    }
  };

  const label = t('login.twoFactor.submit');
  return (
    <form className="login-form login-two-factor" onSubmit={submit} noValidate data-testid="login-2fa-form">
      <h2 className="login-two-factor__title" data-testid="login-2fa-title">
        {t('login.twoFactor.title')}
      </h2>
      <p className="login-two-factor__account">{t('login.twoFactor.account', { username })}</p>
      <p className="login-two-factor__hint" data-testid="login-2fa-hint">
        {t(field.mode === 'backup' ? 'login.twoFactor.backupHint' : 'login.twoFactor.codeHint')}
      </p>
      {serverError ? (
        <div className="login-form__alert" role="alert" data-testid="login-2fa-error">
          <div>{serverError}</div>
          {waitSeconds > 0 ? (
            <div className="login-form__alert-detail">{t('login.form.retryAfter', { seconds: waitSeconds })}</div>
          ) : null}
        </div>
      ) : null}
      <AuthCodeInput field={field} size="large" autoFocus disabled={submitting} testId="login-2fa-code" />
      <button
        type="submit"
        className="plain-button plain-button--primary login-form__submit"
        disabled={submitting || waitSeconds > 0}
        data-testid="login-2fa-submit"
      >
        {submitting ? <span className="login-form__spinner" aria-hidden /> : null}
        {waitSeconds > 0 ? `${label} (${waitSeconds}s)` : label}
      </button>
      <button
        type="button"
        className="login-two-factor__back"
        onClick={() => onRestart(null)}
        data-testid="login-2fa-back"
      >
        {t('login.twoFactor.back')}
      </button>
    </form>
  );
}
