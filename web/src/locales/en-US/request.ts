export default {
  'request.error': 'Error',
  'request.transportError': 'Request Error',
  'request.sessionEnded.title': 'Confirm logout',
  'request.sessionEnded.content': 'You have been logged out, you can cancel to stay on this page, or log in again',
  'request.sessionEnded.relogin': 'Re-Login',
  'request.sessionEnded.cancel': 'Cancel',
};
