import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { codeLength } from './auth-code';
import type { AuthCodeField } from './use-auth-code-field';
import './auth-code-input.css';

export interface AuthCodeInputProps {
  field: AuthCodeField;
  /** Offer the 'Forgot code' switch to an 8-digit backup code (default true). */
  allowBackup?: boolean;
  autoFocus?: boolean;
  disabled?: boolean;
  /** 'large' matches the login form (40 px), 'middle' antd's default controls (32 px). */
  size?: 'middle' | 'large';
  /** Prefix of the data-testid attributes (default 'auth-code'). */
  testId?: string;
}

/**
 * The reusable authenticator-code input: a 6-digit code field, and behind
 * 'Forgot code' an 8-digit backup-code field with a link back. Plain React and CSS (no antd)
 * so the login page can use it too; put it inside a <form> and Enter submits.
 */
export function AuthCodeInput({
  field,
  allowBackup = true,
  autoFocus = false,
  disabled = false,
  size = 'middle',
  testId = 'auth-code',
}: AuthCodeInputProps) {
  const { t } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const firstRender = useRef(true);
  const backup = field.mode === 'backup';

  useEffect(() => {
    // Focus the field after a switch between code and backup code (not on mount).
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    input.current?.focus();
  }, [field.mode]);

  const label = t(backup ? 'authCode.backup.label' : 'authCode.code.label');
  return (
    <div className={`auth-code-input auth-code-input--${size}`} data-testid={testId} data-mode={field.mode}>
      <label className="auth-code-input__label" htmlFor={`${id}-input`}>
        {label}
      </label>
      <div className={`auth-code-input__control${field.error ? ' auth-code-input__control--error' : ''}`}>
        <input
          ref={input}
          id={`${id}-input`}
          name={backup ? 'backup_code' : 'code'}
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          spellCheck={false}
          maxLength={codeLength(field.mode)}
          value={field.value}
          placeholder={t(backup ? 'authCode.backup.placeholder' : 'authCode.code.placeholder')}
          aria-invalid={Boolean(field.error)}
          aria-describedby={field.error ? `${id}-error` : undefined}
          autoFocus={autoFocus}
          disabled={disabled}
          data-testid={`${testId}-input`}
          onChange={(event) => field.setValue(event.target.value)}
        />
      </div>
      <div className="auth-code-input__footer">
        <div className="auth-code-input__error" id={`${id}-error`} role="alert" data-testid={`${testId}-error`}>
          {field.error ? t(field.error) : null}
        </div>
        {allowBackup ? (
          <button
            type="button"
            className="auth-code-input__switch"
            disabled={disabled}
            data-testid={backup ? `${testId}-use-code` : `${testId}-forgot`}
            onClick={() => field.setMode(backup ? 'code' : 'backup')}
          >
            {t(backup ? 'authCode.useCode' : 'authCode.forgot')}
          </button>
        ) : null}
      </div>
    </div>
  );
}
