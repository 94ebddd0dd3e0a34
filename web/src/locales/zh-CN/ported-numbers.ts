export default {
  'ports.about':
    '上游渠道答复号码已携号转网（转出原运营商）时记录在此：该号码以后下原运营商的商品会被拒绝，其他运营商的商品无需确认即可下单。记录有误时可删除，删除后按号段的运营商下单。',
  'ports.number': '号码',
  'ports.numberHint': '号码中的数字，可带 +86 和空格',
  'ports.fromCarrier': '转出运营商',
  'ports.channel': '答复渠道',
  'ports.recordedAt': '记录时间',
  'ports.remove': '删除',
  'ports.removeTitle': '删除 {{number}} 的携号转网记录',
  'ports.removeHint': '删除后该号码按号段的运营商下单；若上游再次答复已转网，会重新记录。',
  'ports.reason': '删除原因',
  'ports.reasonRequired': '请填写删除原因，最多 200 个字',
  'ports.removed': '已删除 {{number}} 的携号转网记录',
};
