export default {
  'workplace.welcome': '欢迎回来，{{name}}',
  'workplace.subtitle': '今天也祝生意顺利。',
  'workplace.shortcuts': '快捷入口',
  'workplace.shortcut.orders': '订单列表',
  'workplace.shortcut.addOrder': '添加订单',
  'workplace.shortcut.batchAdd': '批量添加订单',
  'workplace.shortcut.quotes': '报价列表',
  'workplace.shortcut.accountRecords': '账变记录',
  'workplace.shortcut.settings': '用户设置',
  'workplace.shortcut.twoFactor': '双因素认证',
  'workplace.shortcut.monitor': '实时监控',
  'workplace.money.title': '资金与订单概览',
  'workplace.money.message': '资金数据将随订单功能一起上线',
  'workplace.money.description':
    '余额、授信额度、待还授信、总授信额度、累计充值以及今日成功和失败订单数，会在订单功能上线后显示真实数据。这里不展示任何估算或示例数字。',
};
