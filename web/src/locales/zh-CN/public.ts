/**
 * Every text the login page needs, and nothing else: these ship with the login page (both
 * languages, a few kB), all other texts load with the signed-in console (locales/app-texts).
 */
import authCode from './auth-code.ts';
import common from './common.ts';
import login from './login.ts';
import request from './request.ts';

export default {
  ...authCode,
  ...common,
  ...login,
  ...request,
  'navbar.logoAlt': '话费充值后台标志',
  'navbar.language': '语言',
  'menu.login': '登录',
};
