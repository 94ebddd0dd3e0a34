export default {
  'login.title': 'Sign in to Top-up Backoffice',
  'login.subtitle': 'Console for merchants and administrators',
  'login.banner.title': 'Phone top-up, managed in one place',
  'login.banner.description': 'Orders, quotes, account-change records and account security live here.',
  'login.form.username.placeholder': 'Username',
  'login.form.password.placeholder': 'Password',
  'login.form.username.errMsg': 'username cannot be empty',
  'login.form.password.errMsg': 'password cannot be empty',
  'login.form.login': 'Login',
  'login.form.login.errMsg': 'Login error, refresh and try again',
  'login.form.login.success': 'welcome to use',
  'login.form.retryAfter': 'Too many attempts, try again in {{seconds}} s',
};
