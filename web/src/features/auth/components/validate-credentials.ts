import type { LoginCredentials } from '../api/sign-in-requests';

/** i18n keys of the messages for the fields that are invalid. */
export interface CredentialErrors {
  username?: string;
  password?: string;
}

/** Both fields are required ('username cannot be empty', 'password cannot be empty'). */
export function validateCredentials(values: LoginCredentials): CredentialErrors {
  const errors: CredentialErrors = {};
  if (!values.username.trim()) errors.username = 'login.form.username.errMsg';
  if (!values.password) errors.password = 'login.form.password.errMsg';
  return errors;
}
