/** The manual review queue. */
export default {
  'reviewQueue.title': 'Waiting for a decision: {{count}}',
  'reviewQueue.waited': 'Waiting',
  'reviewQueue.waitedMinutes': '{{count}} min',
  'reviewQueue.waitedHours': '{{count}} h',
  'reviewQueue.timeline': 'Timeline',
  'reviewQueue.markSuccess': 'Mark {{count}} succeeded',
  'reviewQueue.markFailure': 'Mark {{count}} failed',
  'reviewQueue.successHint': 'Each order needs the serial number proving its top-up. Nothing is refunded.',
  'reviewQueue.failureHint': 'Each order is refunded to its merchant. The reason goes on every order’s timeline.',
  'reviewQueue.serialFor': 'Serial number of {{orderNo}} ({{account}})',
  'reviewQueue.reason': 'Reason',
  'reviewQueue.resolved': '{{count}} orders resolved',
  'reviewQueue.refused': '{{count}} orders were left as they were',
  'reviewQueue.query.action': 'Query supplier',
  'reviewQueue.query.title': 'Supplier query: {{orderNo}}',
  'reviewQueue.send.action': 'Send to channel',
  'reviewQueue.send.title': 'Send to a channel: {{orderNo}}',
  'reviewQueue.send.confirm': 'Send',
  'reviewQueue.send.neverSent':
    'Order {{orderNo}} was never handed to a channel. The channel you send it to tops it up, and its answer comes back to the order.',
  'reviewQueue.send.allFailed':
    'All {{count}} hand-overs of order {{orderNo}} definitely failed: another channel may take it.',
  'reviewQueue.send.openAttempt':
    'This order’s hand-over to a channel has no final answer yet (pending or unknown). Sending it again could top it up twice: query the supplier first.',
  'reviewQueue.send.noChannel':
    'No channel can take this order now (off, paused, short of balance, or already failed it).',
  'reviewQueue.send.auto': 'Let the routing choose',
  'reviewQueue.send.cost': 'cost ¥{{cost}} · priority {{priority}}',
  'reviewQueue.send.done': 'Order {{orderNo}} sent to a channel',
};
