export default {
  'actingMerchant.label': 'Merchant',
  'actingMerchant.placeholder': 'Search by merchant name or ID',
  'actingMerchant.choose':
    'Choose a merchant first: orders, prices and spendable funds are those of the merchant chosen.',
  'actingMerchant.none': 'No matching merchant',
};
