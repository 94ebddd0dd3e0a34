/**
 * antd's static message and Modal, themed like the console. Loaded only when feedback is
 * needed outside the antd-rendering pages (e.g. an error toast on the login page).
 */
import { ConfigProvider, Modal, message, theme } from 'antd';
import { cachedAntdLocale } from './antd-locale';
import { currentAppearance } from './appearance';
import { currentLocale } from './i18n';

ConfigProvider.config({
  holderRender: (children) => {
    const settings = currentAppearance();
    return (
      <ConfigProvider
        locale={cachedAntdLocale(currentLocale())}
        theme={{
          algorithm: settings.theme === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm,
          token: { colorPrimary: settings.themeColor },
        }}
      >
        {children}
      </ConfigProvider>
    );
  },
});

export { message, Modal };
