export default {
  'tabBar.reload': 'Reload',
  'tabBar.closeCurrent': 'Close current tab',
  'tabBar.closeLeft': 'Close tabs to the left',
  'tabBar.closeRight': 'Close tabs to the right',
  'tabBar.closeOthers': 'Close other tabs',
  'tabBar.closeAll': 'Close all tabs',
};
