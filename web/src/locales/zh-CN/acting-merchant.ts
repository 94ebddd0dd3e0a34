export default {
  'actingMerchant.label': '代下单商户',
  'actingMerchant.placeholder': '搜索商户名称或编号',
  'actingMerchant.choose': '请先选择商户：下单、报价与可用金额都按所选商户计算。',
  'actingMerchant.none': '没有匹配的商户',
};
