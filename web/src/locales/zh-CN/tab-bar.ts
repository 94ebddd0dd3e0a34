export default {
  'tabBar.reload': '重新加载',
  'tabBar.closeCurrent': '关闭当前标签页',
  'tabBar.closeLeft': '关闭左侧标签页',
  'tabBar.closeRight': '关闭右侧标签页',
  'tabBar.closeOthers': '关闭其它标签页',
  'tabBar.closeAll': '关闭全部标签页',
};
