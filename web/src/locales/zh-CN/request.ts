export default {
  'request.error': '错误',
  'request.transportError': '请求失败',
  'request.unreachable': '无法连接服务器，请检查网络连接后重试',
  'request.sessionEnded.title': '确认退出',
  'request.sessionEnded.content': '您已被登出，可以取消停留在此页面，或者重新登录',
  'request.sessionEnded.relogin': '重新登录',
  'request.sessionEnded.cancel': '取消',
};
