import actingMerchant from './acting-merchant';
import apiKeys from './api-keys';
import authCode from './auth-code';
import common from './common';
import exception from './exception';
import listPage from './list-page';
import login from './login';
import merchantAdmin from './merchant-admin';
import menu from './menu';
import messageCenter from './message-center';
import monitor from './monitor';
import navbar from './navbar';
import notify from './notify';
import orderCommon from './order-common';
import orderPages from './order-pages';
import placeholder from './placeholder';
import request from './request';
import reviewQueue from './review-queue';
import settings from './settings';
import tabBar from './tab-bar';
import twoFactor from './two-factor';
import userInfo from './user-info';
import userSettings from './user-settings';
import workplace from './workplace';

export default {
  ...actingMerchant,
  ...apiKeys,
  ...authCode,
  ...common,
  ...exception,
  ...listPage,
  ...login,
  ...merchantAdmin,
  ...menu,
  ...messageCenter,
  ...monitor,
  ...navbar,
  ...notify,
  ...orderCommon,
  ...orderPages,
  ...placeholder,
  ...request,
  ...reviewQueue,
  ...settings,
  ...tabBar,
  ...twoFactor,
  ...userInfo,
  ...userSettings,
  ...workplace,
};
