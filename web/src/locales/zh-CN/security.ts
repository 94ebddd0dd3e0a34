/** 安全记录页。 */
export default {
  'security.time': '时间',
  'security.user': '用户',
  'security.kind': '事件',
  'security.detail': '详情',
  'security.address': '来源地址',
  'security.browser': '浏览器',
  'security.administrators': '平台管理员',
};
