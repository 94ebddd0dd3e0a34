/** The audit log page. */
export default {
  'audit.time': 'Time',
  'audit.actor': 'Actor',
  'audit.actorHint': 'Username or user id',
  'audit.noActor': 'Not signed in / system',
  'audit.action': 'Action',
  'audit.target': 'Target',
  'audit.targetHint': 'e.g. merchant:10001, user:7, channel:2',
  'audit.target.user': 'User {{id}}',
  'audit.target.merchant': 'Merchant {{id}}',
  'audit.target.order': 'Order {{id}}',
  'audit.target.channel': 'Channel {{id}}',
  'audit.target.port': 'Ported number {{id}}',
  'audit.target.named': '{{label}}: {{name}}',
  'audit.target.server': 'Server',
  'audit.detail': 'Detail',
  'audit.address': 'Client address',
};
