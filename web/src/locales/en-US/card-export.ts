/** The encrypted card-secret export of the card-order list. */
export default {
  'cardExport.open': 'Export card secrets',
  'cardExport.openChosen': 'Export card secrets ({{count}} chosen)',
  'cardExport.title': 'Export card secrets',
  'cardExport.countChosen': 'Exports the {{count}} chosen orders that have a delivered card.',
  'cardExport.countFiltered': 'Exports the orders with a delivered card among the {{count}} matching the current filter.',
  'cardExport.hint':
    'The file is an encrypted Excel workbook that opens only with the password you set below. The password is not kept: tell it to the recipient yourself.',
  'cardExport.tooMany': 'At most {{max}} orders per export: narrow the filter or choose fewer.',
  'cardExport.password': 'File password',
  'cardExport.passwordRule': '8 to 64 characters, with both letters and digits',
  'cardExport.confirm': 'Confirm password',
  'cardExport.confirmMismatch': 'The two passwords differ',
  'cardExport.code': 'Two-factor code',
  'cardExport.submit': 'Export',
  'cardExport.done': 'The encrypted card-secret file was exported',
};
