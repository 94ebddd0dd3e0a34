export default {
  'request.error': 'Error',
  'request.transportError': 'Request Error',
  'request.unreachable': 'Cannot reach the server. Check your network connection and try again.',
  'request.sessionEnded.title': 'Confirm logout',
  'request.sessionEnded.content': 'You have been logged out, you can cancel to stay on this page, or log in again',
  'request.sessionEnded.relogin': 'Re-Login',
  'request.sessionEnded.cancel': 'Cancel',
};
