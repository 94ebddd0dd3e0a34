/** The shared authenticator-code input (components/auth-code-input). */
export default {
  'authCode.code.label': 'Verification code',
  'authCode.code.placeholder': '6-digit code',
  'authCode.backup.label': 'Backup code',
  'authCode.backup.placeholder': '8-digit backup code',
  'authCode.forgot': 'Forgot code',
  'authCode.useCode': 'Use an authenticator code',
  'authCode.required': 'Please enter the verification code',
  'authCode.codeInvalid': 'The verification code must be 6 digits',
  'authCode.backupInvalid': 'The backup code must be 8 digits',
};
