import actingMerchant from './acting-merchant';
import authCode from './auth-code';
import common from './common';
import exception from './exception';
import listPage from './list-page';
import login from './login';
import menu from './menu';
import messageCenter from './message-center';
import navbar from './navbar';
import orderCommon from './order-common';
import orderPages from './order-pages';
import placeholder from './placeholder';
import request from './request';
import settings from './settings';
import tabBar from './tab-bar';
import twoFactor from './two-factor';
import userInfo from './user-info';
import userSettings from './user-settings';
import workplace from './workplace';

export default {
  ...actingMerchant,
  ...authCode,
  ...common,
  ...exception,
  ...listPage,
  ...login,
  ...menu,
  ...messageCenter,
  ...navbar,
  ...orderCommon,
  ...orderPages,
  ...placeholder,
  ...request,
  ...settings,
  ...tabBar,
  ...twoFactor,
  ...userInfo,
  ...userSettings,
  ...workplace,
};
