export default {
  'ports.about':
    "A number is listed here when a channel answered that it moved to another carrier: its later orders for the carrier it left are refused, and its orders for the other carriers are taken without confirmation. Remove a wrong record: the number's orders then follow its segment's carrier again.",
  'ports.number': 'Number',
  'ports.numberHint': 'Digits of the number; +86 and spaces are fine',
  'ports.fromCarrier': 'Carrier left',
  'ports.channel': 'Answered by channel',
  'ports.recordedAt': 'Recorded at',
  'ports.remove': 'Remove',
  'ports.removeTitle': 'Remove the record of {{number}}',
  'ports.removeHint':
    "After the removal the number's orders follow its segment's carrier; if a channel answers again that it moved, it is recorded again.",
  'ports.reason': 'Reason for the removal',
  'ports.reasonRequired': 'Give the reason for the removal, at most 200 characters',
  'ports.removed': 'The ported-number record of {{number}} was removed',
};
