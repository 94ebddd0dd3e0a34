/**
 * Rules of the authenticator-code input: a 6-digit authenticator code, or after
 * 'Forgot code' an 8-digit backup code. Digits only: anything else typed or pasted is
 * stripped (ASCII 0-9 only, as the server accepts).
 */

export type AuthCodeMode = 'code' | 'backup';

export const AUTH_CODE_LENGTH = 6;
export const BACKUP_CODE_LENGTH = 8;

export function codeLength(mode: AuthCodeMode): number {
  return mode === 'backup' ? BACKUP_CODE_LENGTH : AUTH_CODE_LENGTH;
}

/** Keep ASCII digits only, at most `maxLength` of them. */
export function stripNonDigits(value: string, maxLength = Number.POSITIVE_INFINITY): string {
  return value.replace(/[^0-9]/g, '').slice(0, maxLength);
}

/** i18n keys of the messages; a form may override the authenticator-code ones (per form). */
export interface AuthCodeMessages {
  /** Empty authenticator code. */
  required: string;
  /** Authenticator code that is not exactly 6 digits. */
  codeInvalid: string;
  /** Backup code empty or not exactly 8 digits (one message for both). */
  backupInvalid: string;
}

export const DEFAULT_AUTH_CODE_MESSAGES: AuthCodeMessages = {
  required: 'authCode.required',
  codeInvalid: 'authCode.codeInvalid',
  backupInvalid: 'authCode.backupInvalid',
};

export interface AuthCodeRules {
  /** Required by default. */
  required?: boolean;
  messages?: Partial<AuthCodeMessages>;
}

/** The i18n key of the first broken rule, or null when the value is acceptable. */
export function validateAuthCode(mode: AuthCodeMode, value: string, rules: AuthCodeRules = {}): string | null {
  const messages = { ...DEFAULT_AUTH_CODE_MESSAGES, ...rules.messages };
  const required = rules.required ?? true;
  if (!value) {
    if (!required) return null;
    return mode === 'backup' ? messages.backupInvalid : messages.required;
  }
  const pattern = mode === 'backup' ? /^[0-9]{8}$/ : /^[0-9]{6}$/;
  if (pattern.test(value)) return null;
  return mode === 'backup' ? messages.backupInvalid : messages.codeInvalid;
}
