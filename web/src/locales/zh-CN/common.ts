export default {
  'app.title': '话费充值后台',
  'app.loading': '加载中…',
  'common.back': '返回',
  'common.retry': '重试',
  'common.cancel': '取消',
  'common.close': '关闭',
  'common.backToWorkplace': '返回工作台',
  'footer.copyright': '话费充值后台 © {{year}}',
  'locale.zh-CN': '简体中文',
  'locale.en-US': 'English',
  'role.admin': '管理员',
  'role.user': '商户',
};
