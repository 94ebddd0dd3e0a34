/** 审计日志页。 */
export default {
  'audit.time': '时间',
  'audit.actor': '操作人',
  'audit.actorHint': '用户名或用户 ID',
  'audit.noActor': '未登录 / 系统',
  'audit.action': '操作',
  'audit.target': '对象',
  'audit.targetHint': '如 merchant:10001、user:7、channel:2',
  'audit.target.user': '用户 {{id}}',
  'audit.target.merchant': '商户 {{id}}',
  'audit.target.order': '订单 {{id}}',
  'audit.target.channel': '渠道 {{id}}',
  'audit.target.port': '携号转网记录 {{id}}',
  'audit.target.named': '{{label}}：{{name}}',
  'audit.target.server': '服务器',
  'audit.detail': '详情',
  'audit.address': '来源地址',
};
