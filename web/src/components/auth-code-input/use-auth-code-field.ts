import { useCallback, useMemo, useState } from 'react';
import { codeLength, stripNonDigits, validateAuthCode, type AuthCodeMode, type AuthCodeRules } from './auth-code';

/** State of one authenticator-code field: mode, digits, and whether to show its rule errors. */
export interface AuthCodeField {
  mode: AuthCodeMode;
  value: string;
  /** i18n key of the message to show now (only after the first submit attempt), or null. */
  error: string | null;
  /** Store typed or pasted text, keeping only digits up to the mode's length. */
  setValue: (raw: string) => void;
  /** Switch between the authenticator code and the backup code; clears the value. */
  setMode: (mode: AuthCodeMode) => void;
  /** Check the rules and start showing errors; returns the code when it is acceptable. */
  validate: () => string | null;
  /** Empty the field and hide its errors, keeping the mode (e.g. after a refused code). */
  clear: () => void;
  /** Back to an empty authenticator-code field with no errors shown. */
  reset: () => void;
}

export function useAuthCodeField(rules: AuthCodeRules = {}): AuthCodeField {
  const [mode, setModeState] = useState<AuthCodeMode>('code');
  const [value, setValueState] = useState('');
  const [checked, setChecked] = useState(false);
  const { required, messages } = rules;
  const codeInvalid = messages?.codeInvalid;
  const backupInvalid = messages?.backupInvalid;
  const requiredMessage = messages?.required;

  const check = useCallback(
    (currentMode: AuthCodeMode, currentValue: string) =>
      validateAuthCode(currentMode, currentValue, {
        required,
        messages: {
          ...(requiredMessage ? { required: requiredMessage } : {}),
          ...(codeInvalid ? { codeInvalid } : {}),
          ...(backupInvalid ? { backupInvalid } : {}),
        },
      }),
    [required, requiredMessage, codeInvalid, backupInvalid],
  );

  const setValue = useCallback((raw: string) => setValueState(stripNonDigits(raw, codeLength(mode))), [mode]);
  const setMode = useCallback((next: AuthCodeMode) => {
    setModeState(next);
    setValueState('');
    setChecked(false);
  }, []);
  const validate = useCallback(() => {
    setChecked(true);
    return check(mode, value) ? null : value;
  }, [check, mode, value]);
  const clear = useCallback(() => {
    setValueState('');
    setChecked(false);
  }, []);
  const reset = useCallback(() => {
    setModeState('code');
    setValueState('');
    setChecked(false);
  }, []);

  const error = checked ? check(mode, value) : null;
  return useMemo(
    () => ({ mode, value, error, setValue, setMode, validate, clear, reset }),
    [mode, value, error, setValue, setMode, validate, clear, reset],
  );
}
