/** Merchants' risk controls (merchants page, settings) and the refusals on the live monitor. */
export default {
  'risk.title': 'Risk controls',
  'risk.menu': 'Risk controls',
  'risk.intro':
    'Orders are refused by these rules when placed; a limit of 0 means no limit. Amounts are order prices; successful and unfinished orders count, failed and reversed ones do not.',
  'risk.singleFlight': 'One order in flight per number',
  'risk.singleFlight.help':
    'When on, a new order for a number is refused while the number has an order pending, processing or in manual review.',
  'risk.numberDailyOrders': 'Orders per number a day',
  'risk.numberDailyYuan': 'Amount per number a day (yuan)',
  'risk.dailyCapYuan': "Merchant's order amount a day (yuan)",
  'risk.unlimited': 'No limit',
  'risk.on': 'On',
  'risk.off': 'Off',
  'risk.countInvalid': 'Enter a whole number of at least 0',
  'risk.amountInvalid': 'Enter an amount of at least 0 with at most two decimals',
  'risk.saved': 'Risk controls saved',
  'risk.readOnly': 'The platform sets these limits; contact it to change them.',
  'risk.refused.title': 'Refused by risk controls today',
  'risk.refused.number_in_flight': 'Number has an order in flight',
  'risk.refused.number_daily_orders': 'Orders per number a day',
  'risk.refused.number_daily_amount': 'Amount per number a day',
  'risk.refused.merchant_daily_cap': "Merchant's daily cap",
};
