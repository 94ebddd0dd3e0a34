export default {
  'exception.403.description': '对不起，您没有访问该资源的权限',
  'exception.404.description': '抱歉，页面不见了～',
  'exception.500.description': '抱歉，服务器出了点问题～',
  'exception.noPermission': '您所在的用户组没有此操作的权限',
};
