import actingMerchant from './acting-merchant';
import exception from './exception';
import listPage from './list-page';
import menu from './menu';
import messageCenter from './message-center';
import navbar from './navbar';
import orderPages from './order-pages';
import placeholder from './placeholder';
import publicTexts from './public';
import settings from './settings';
import tabBar from './tab-bar';
import twoFactor from './two-factor';
import userInfo from './user-info';
import userSettings from './user-settings';
import workplace from './workplace';

export default {
  ...actingMerchant,
  ...exception,
  ...listPage,
  ...menu,
  ...messageCenter,
  ...navbar,
  ...orderPages,
  ...placeholder,
  ...publicTexts,
  ...settings,
  ...tabBar,
  ...twoFactor,
  ...userInfo,
  ...userSettings,
  ...workplace,
};
