/** Route names that code refers to directly. Names equal the route table's Name column. */
export const ROUTE_NAMES = {
  login: 'login',
  notFound: 'not-found',
  redirect: 'Redirect',
  workplace: 'Workplace',
  monitor: 'Monitor',
  /** Outside the menu: where a user holding a temporary password must go first. */
  changePassword: 'ChangePassword',
  /** Where a user of a merchant requiring two-factor must go first, without it. */
  googleAuth: 'GoogleAuth',
} as const;

export const LOGIN_PATH = '/login';
export const NOT_FOUND_PATH = '/not-found';
export const CHANGE_PASSWORD_PATH = '/change-password';
export const WORKPLACE_PATH = '/dashboard/workplace';
export const REDIRECT_PATH_PREFIX = '/redirect';
