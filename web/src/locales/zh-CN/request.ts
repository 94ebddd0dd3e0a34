export default {
  'request.error': '错误',
  'request.transportError': '请求失败',
  'request.sessionEnded.title': '确认退出',
  'request.sessionEnded.content': '您已被登出，可以取消停留在此页面，或者重新登录',
  'request.sessionEnded.relogin': '重新登录',
  'request.sessionEnded.cancel': '取消',
};
