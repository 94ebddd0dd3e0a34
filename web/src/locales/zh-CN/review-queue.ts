/** The manual review queue. */
export default {
  'reviewQueue.title': '待处理：{{count}} 笔',
  'reviewQueue.waited': '已等待',
  'reviewQueue.waitedMinutes': '{{count}} 分钟',
  'reviewQueue.waitedHours': '{{count}} 小时',
  'reviewQueue.timeline': '时间线',
  'reviewQueue.markSuccess': '将 {{count}} 笔标记成功',
  'reviewQueue.markFailure': '将 {{count}} 笔标记失败',
  'reviewQueue.successHint': '每笔订单都需填写证明充值成功的流水号，不会退款。',
  'reviewQueue.failureHint': '每笔订单的金额将退回其商户账户，原因会记录在每笔订单的时间线上。',
  'reviewQueue.serialFor': '{{orderNo}}（{{account}}）的流水号',
  'reviewQueue.reason': '原因',
  'reviewQueue.resolved': '已处理 {{count}} 笔订单',
  'reviewQueue.refused': '{{count}} 笔订单未作更改',
};
