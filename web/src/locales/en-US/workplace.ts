export default {
  'workplace.welcome': 'Welcome back, {{name}}',
  'workplace.subtitle': 'Wishing you smooth business today.',
  'workplace.shortcuts': 'Shortcuts',
  'workplace.shortcut.orders': 'Orders',
  'workplace.shortcut.addOrder': 'Add order',
  'workplace.shortcut.batchAdd': 'Batch add orders',
  'workplace.shortcut.quotes': 'Quote list',
  'workplace.shortcut.accountRecords': 'Account-change records',
  'workplace.shortcut.settings': 'User settings',
  'workplace.shortcut.twoFactor': 'Two-Factor Authentication',
  'workplace.shortcut.monitor': 'Real-time monitor',
  'workplace.money.title': 'Money and orders overview',
  'workplace.money.message': 'Money figures arrive with the orders feature',
  'workplace.money.description':
    "Balance, granted credit, credit awaiting repayment, total credit limit, cumulative top-up and today's successful and failed orders will show real data once the orders feature ships. No estimated or sample numbers are shown here.",
};
