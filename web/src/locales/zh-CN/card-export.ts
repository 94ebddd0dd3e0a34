/** The encrypted card-secret export of the card-order list. */
export default {
  'cardExport.open': '导出卡密',
  'cardExport.openChosen': '导出卡密（已选 {{count}} 笔）',
  'cardExport.title': '导出卡密',
  'cardExport.countChosen': '将导出已选的 {{count}} 笔订单中已交付卡密的订单。',
  'cardExport.countFiltered': '将导出符合当前筛选条件的 {{count}} 笔订单中已交付卡密的订单。',
  'cardExport.hint': '文件为加密的 Excel 表格，打开时须输入下面设置的密码。密码不会被保存，请妥善告知收件人。',
  'cardExport.tooMany': '每次最多导出 {{max}} 笔订单：请缩小筛选范围或少选一些。',
  'cardExport.password': '文件密码',
  'cardExport.passwordRule': '8 至 64 个字符，须同时包含字母和数字',
  'cardExport.confirm': '确认密码',
  'cardExport.confirmMismatch': '两次输入的密码不一致',
  'cardExport.code': '双因素验证码',
  'cardExport.submit': '导出',
  'cardExport.done': '已导出加密的卡密文件',
};
