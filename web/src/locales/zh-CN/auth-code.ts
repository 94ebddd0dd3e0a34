/** The shared authenticator-code input (components/auth-code-input). */
export default {
  'authCode.code.label': '验证码',
  'authCode.code.placeholder': '6位验证码',
  'authCode.backup.label': '备用验证码',
  'authCode.backup.placeholder': '8位备用验证码',
  'authCode.forgot': '忘记验证码',
  'authCode.useCode': '使用身份验证器验证码',
  'authCode.required': '请输入验证码',
  'authCode.codeInvalid': '验证码必须是6位数字',
  'authCode.backupInvalid': '备用验证码必须是8位数字',
};
