import { AUTH_CODE_LENGTH, type AuthCodeRules } from '@/components/auth-code-input/auth-code';

/**
 * The rules for the setup form (step 2): required ('asks for a verification code'), and enabling
 * needs exactly 6 characters ('Please enter a 6-digit verification code').
 */
export function validateSetupCode(code: string): string | null {
  if (!code) return 'twoFactor.validation.codeRequired';
  if (code.length !== AUTH_CODE_LENGTH) return 'twoFactor.validation.sixDigits';
  return null;
}

/**
 * The rules for the disable and regenerate dialogs, which use the shared code input: in code mode
 * the code is required and must be exactly 6 ('请输入6位验证码' / 'Please enter a 6-digit
 * verification code'); after 'Forgot code' the backup-code rule (exactly 8 digits) applies.
 */
export const DIALOG_CODE_RULES: AuthCodeRules = {
  required: true,
  messages: { required: 'twoFactor.validation.codeRequired', codeInvalid: 'twoFactor.validation.sixDigits' },
};
