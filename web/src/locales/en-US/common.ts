export default {
  'app.title': 'Top-up Backoffice',
  'app.loading': 'Loading…',
  'common.back': 'Back',
  'common.retry': 'Retry',
  'common.cancel': 'Cancel',
  'common.close': 'Close',
  'common.backToWorkplace': 'Back to workplace',
  'footer.copyright': 'Top-up Backoffice © {{year}}',
  'locale.zh-CN': '简体中文',
  'locale.en-US': 'English',
  'role.admin': 'Administrator',
  'role.user': 'Merchant',
};
