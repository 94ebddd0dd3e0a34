import common from './common';
import exception from './exception';
import login from './login';
import menu from './menu';
import monitor from './monitor';
import navbar from './navbar';
import placeholder from './placeholder';
import request from './request';
import result from './result';
import settings from './settings';
import tabBar from './tab-bar';
import workplace from './workplace';

export default {
  ...common,
  ...exception,
  ...login,
  ...menu,
  ...monitor,
  ...navbar,
  ...placeholder,
  ...request,
  ...result,
  ...settings,
  ...tabBar,
  ...workplace,
};
