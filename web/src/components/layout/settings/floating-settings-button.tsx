import { SettingOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUiStore } from '@/stores/ui-store';

/** Opens the settings drawer while the navbar (and its settings button) is hidden. */
export function FloatingSettingsButton() {
  const { t } = useTranslation();
  const openSettings = useUiStore((state) => state.setSettingsDrawerOpen);
  return (
    <Tooltip title={t('settings.openButton')} placement="left">
      <Button
        type="primary"
        shape="circle"
        size="large"
        icon={<SettingOutlined />}
        aria-label={t('settings.openButton')}
        data-testid="floating-settings-button"
        onClick={() => openSettings(true)}
        style={{ position: 'fixed', top: 280, right: 16, zIndex: 1000, boxShadow: '0 4px 12px rgba(0,0,0,0.2)' }}
      />
    </Tooltip>
  );
}
