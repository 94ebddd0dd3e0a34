export default {
  'exception.403.description': 'Access to this resource on the server is denied',
  'exception.404.description': 'Sorry, this page is gone',
  'exception.500.description': 'Internal server error',
  'exception.noPermission': 'your user group does not have permission for this operation',
};
