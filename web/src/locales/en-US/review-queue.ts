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
};
