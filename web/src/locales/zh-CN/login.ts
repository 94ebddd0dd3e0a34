export default {
  'login.title': '登录话费充值后台',
  'login.subtitle': '商户与管理员控制台',
  'login.banner.title': '话费充值，一站管理',
  'login.banner.description': '订单、报价、账变记录与账户安全，都在这里。',
  'login.form.username.placeholder': '用户名',
  'login.form.password.placeholder': '密码',
  'login.form.username.errMsg': '用户名不能为空',
  'login.form.password.errMsg': '密码不能为空',
  'login.form.login': '登录',
  'login.form.login.errMsg': '登录出错，请刷新重试',
  'login.form.login.success': '欢迎使用',
  'login.form.retryAfter': '尝试次数过多，请在 {{seconds}} 秒后重试',
};
