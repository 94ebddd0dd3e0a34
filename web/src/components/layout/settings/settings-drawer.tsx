import { Alert, Button, Divider, Drawer, InputNumber, Select, Space, Switch } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { showErrorMessage, showSuccessMessage } from '@/lib/feedback';
import { changeLocale, currentLocale, SUPPORTED_LOCALES, type Locale } from '@/lib/i18n';
import { settingsSnapshot, useSettingsStore, type AppSettings } from '@/stores/settings-store';
import { useUiStore } from '@/stores/ui-store';
import { copyText } from './copy-text';
import { ThemeColorField } from './theme-color-field';
import './settings-drawer.css';

export const SETTINGS_DRAWER_WIDTH = 300;

type SwitchKey = 'navbar' | 'menu' | 'topMenu' | 'footer' | 'tabBar' | 'menuFromServer' | 'colorWeak';

const CONTENT_SWITCHES: { key: SwitchKey; label: string }[] = [
  { key: 'navbar', label: 'settings.navbar' },
  { key: 'menu', label: 'settings.menu' },
  { key: 'topMenu', label: 'settings.topMenu' },
  { key: 'footer', label: 'settings.footer' },
  { key: 'tabBar', label: 'settings.tabBar' },
  { key: 'menuFromServer', label: 'settings.menuFromServer' },
];

export interface SettingsDrawerProps {
  /** Fetches /api/user/menu with notifications (turning "menu from server" on). */
  loadServerMenu: () => Promise<void>;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="settings-drawer__row">
      <span>{label}</span>
      {children}
    </div>
  );
}

/** Page settings: every change applies at once and is saved in this browser. */
export function SettingsDrawer({ loadServerMenu }: SettingsDrawerProps) {
  const { t } = useTranslation();
  const open = useUiStore((state) => state.settingsDrawerOpen);
  const setOpen = useUiStore((state) => state.setSettingsDrawerOpen);
  const settings = useSettingsStore();
  const update = settings.updateSettings;

  const toggle = (key: SwitchKey, value: boolean) => {
    update({ [key]: value } as Partial<AppSettings>);
    if (key === 'menuFromServer') {
      if (value) void loadServerMenu();
      else settings.clearServerMenu();
    }
  };

  const copySettings = async () => {
    try {
      await copyText(JSON.stringify(settingsSnapshot(useSettingsStore.getState()), null, 2));
      showSuccessMessage(t('settings.copySettings.message'));
    } catch {
      showErrorMessage(t('settings.copySettings.failed'), 3);
    }
  };

  return (
    <Drawer
      title={t('settings.title')}
      placement="right"
      size={SETTINGS_DRAWER_WIDTH}
      open={open}
      onClose={() => setOpen(false)}
      data-testid="settings-drawer"
      footer={
        <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
          <Button onClick={() => setOpen(false)} data-testid="settings-close">
            {t('settings.close')}
          </Button>
          <Button type="primary" onClick={copySettings} data-testid="settings-copy">
            {t('settings.copySettings')}
          </Button>
        </Space>
      }
    >
      <div className="settings-drawer" data-testid="settings-drawer-body">
        <Alert type="info" showIcon title={t('settings.alertContent')} />

        <Divider titlePlacement="start">{t('settings.themeColor')}</Divider>
        <ThemeColorField value={settings.themeColor} onChange={(themeColor) => update({ themeColor })} />
        <Row label={t('settings.darkTheme')}>
          <Switch
            size="small"
            aria-label={t('settings.darkTheme')}
            checked={settings.theme === 'dark'}
            onChange={(checked) => update({ theme: checked ? 'dark' : 'light' })}
            data-testid="setting-switch-dark"
          />
        </Row>

        <Divider titlePlacement="start">{t('settings.content')}</Divider>
        {CONTENT_SWITCHES.map(({ key, label }) => (
          <Row key={key} label={t(label)}>
            <Switch
              size="small"
              aria-label={t(label)}
              checked={settings[key]}
              onChange={(checked) => toggle(key, checked)}
              data-testid={`setting-switch-${key}`}
            />
          </Row>
        ))}
        <Row label={t('settings.menuWidth')}>
          <InputNumber
            size="small"
            aria-label={t('settings.menuWidth')}
            min={160}
            max={480}
            step={10}
            value={settings.menuWidth}
            onChange={(value) => {
              if (typeof value === 'number') update({ menuWidth: value });
            }}
            style={{ width: 88 }}
            data-testid="setting-menu-width"
          />
        </Row>

        <Divider titlePlacement="start">{t('settings.otherSettings')}</Divider>
        <Row label={t('settings.colorWeak')}>
          <Switch
            size="small"
            aria-label={t('settings.colorWeak')}
            checked={settings.colorWeak}
            onChange={(checked) => toggle('colorWeak', checked)}
            data-testid="setting-switch-colorWeak"
          />
        </Row>
        <Row label={t('settings.search')}>
          <Switch
            size="small"
            aria-label={t('settings.search')}
            checked={settings.search}
            onChange={(checked) => update({ search: checked })}
            data-testid="setting-switch-search"
          />
        </Row>
        <Row label={t('settings.language')}>
          <Select<Locale>
            size="small"
            aria-label={t('settings.language')}
            value={currentLocale()}
            onChange={(locale) => void changeLocale(locale)}
            options={SUPPORTED_LOCALES.map((locale) => ({ value: locale, label: t(`locale.${locale}`) }))}
            style={{ width: 110 }}
            data-testid="setting-language"
          />
        </Row>
      </div>
    </Drawer>
  );
}
