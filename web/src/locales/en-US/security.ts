/** The security history page. */
export default {
  'security.time': 'Time',
  'security.user': 'User',
  'security.kind': 'Event',
  'security.detail': 'Detail',
  'security.address': 'Client address',
  'security.browser': 'Browser',
  'security.administrators': 'Administrators',
};
