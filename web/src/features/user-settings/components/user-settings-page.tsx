import {
  BellOutlined,
  CheckCircleOutlined,
  DownloadOutlined,
  IdcardOutlined,
  KeyOutlined,
  LockOutlined,
  ReloadOutlined,
  ApiOutlined,
  SettingOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Button, Card, Col, Grid, Menu, Result, Row, Skeleton, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { usePermission } from '@/components/permission/use-permission';
import { showSuccessMessage } from '@/lib/feedback';
import { useUserStore } from '@/stores/user-store';
import { useChangeInfo } from '../api/change-info';
import { useChangeIntegration } from '../api/change-integration';
import { useProfile, type Profile } from '../api/get-profile';
import { ApiKeysTab } from './api-keys-tab';
import { CertificationTab } from './certification-tab';
import { downloadText, profileExport, profileExportFileName } from './export-profile';
import { IntegrationForm } from './integration-form';
import { ProfileForm } from './profile-form';
import { PasswordTab, SecurityTab } from './security-tab';
import { RiskLimitsCard } from './risk-limits-card';
import { WebhookSecretCard } from './webhook-secret-card';
import './user-settings-page.css';

export const SETTINGS_TABS = ['basic', 'integration', 'apiKeys', 'security', 'password', 'certification'] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

const isSettingsTab = (value: string | null): value is SettingsTab =>
  (SETTINGS_TABS as readonly string[]).includes(value ?? '');

const MESSAGE_CENTER_PATH = '/user/message';
const RESULT_PAGE_PATH = '/result/success';

function BasicInfoTab({ profile }: { profile: Profile }) {
  const changeInfo = useChangeInfo();
  return <ProfileForm profile={profile} onSave={changeInfo.mutateAsync} saving={changeInfo.isPending} />;
}

function IntegrationTab({ profile }: { profile: Profile }) {
  const changeIntegration = useChangeIntegration();
  const merchant = usePermission(['owner', 'developer']);
  const mayChange = usePermission(['admin', 'owner', 'developer']);
  const readsRisk = usePermission(['owner', 'finance', 'viewer']);
  return (
    <>
      <IntegrationForm
        profile={profile}
        onSave={changeIntegration.mutateAsync}
        saving={changeIntegration.isPending}
        readOnly={!mayChange}
      />
      {merchant ? <WebhookSecretCard /> : null}
      {readsRisk ? <RiskLimitsCard /> : null}
    </>
  );
}

/**
 * The menu item (left) each section is reached from. The menu is the page's one navigation
 * (it also holds links and the export, which are no sections): a section is headed with its
 * menu item's name, so a section has one name.
 */
const MENU_KEY_OF_TAB: Record<SettingsTab, string> = {
  basic: 'personal',
  integration: 'integration',
  apiKeys: 'apiKeys',
  security: 'account',
  password: 'password',
  certification: 'certification',
};

const TITLE_OF_TAB: Record<SettingsTab, string> = {
  basic: 'userSetting.menu.personalInfo',
  integration: 'userSetting.menu.integration',
  apiKeys: 'userSetting.menu.apiKeys',
  security: 'userSetting.menu.accountSettings',
  password: 'userSetting.menu.password',
  certification: 'userSetting.menu.certification',
};

/** /user/setting: the settings menu (left) and the section it picked (`tab` in the address). */
export default function UserSettingsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const profile = useProfile();
  const isAdmin = useUserStore((state) => state.role === 'admin');
  // Below the side-by-side layout the menu runs in rows above the section (every item in
  // sight, none behind "…"), so the section starts on the first screen of a phone.
  const wide = Grid.useBreakpoint().lg !== false;
  const tabParam = searchParams.get('tab');
  const tab: SettingsTab = isSettingsTab(tabParam) ? tabParam : 'basic';

  const openTab = (next: SettingsTab) => {
    setSearchParams(
      (params) => {
        const updated = new URLSearchParams(params);
        updated.set('tab', next);
        return updated;
      },
      { replace: true },
    );
  };

  const exportProfile = () => {
    if (!profile.data) return;
    downloadText(profileExport(profile.data), profileExportFileName(profile.data));
    showSuccessMessage(t('userSetting.export.done'));
  };

  const menuKey = MENU_KEY_OF_TAB[tab];
  const menuItems = [
    { key: 'personal', icon: <UserOutlined />, label: t('userSetting.menu.personalInfo') },
    { key: 'account', icon: <SettingOutlined />, label: t('userSetting.menu.accountSettings') },
    { key: 'password', icon: <LockOutlined />, label: t('userSetting.menu.password') },
    { key: 'integration', icon: <ApiOutlined />, label: t('userSetting.menu.integration') },
    { key: 'apiKeys', icon: <KeyOutlined />, label: t('userSetting.menu.apiKeys') },
    { key: 'certification', icon: <IdcardOutlined />, label: t('userSetting.menu.certification') },
    { key: 'notification', icon: <BellOutlined />, label: t('userSetting.menu.messageNotification') },
    { key: 'result', icon: <CheckCircleOutlined />, label: t('userSetting.menu.result') },
    { key: 'export', icon: <DownloadOutlined />, label: t('userSetting.menu.export'), disabled: !profile.data },
  ].map((item) => ({ ...item, label: <span data-testid={`user-setting-menu-${item.key}`}>{item.label}</span> }));

  const onMenuClick = ({ key }: { key: string }) => {
    if (key === 'personal') openTab('basic');
    else if (key === 'account') openTab('security');
    else if (key === 'password') openTab('password');
    else if (key === 'integration') openTab('integration');
    else if (key === 'apiKeys') openTab('apiKeys');
    else if (key === 'certification') openTab('certification');
    else if (key === 'notification') navigate(MESSAGE_CENTER_PATH);
    else if (key === 'result') navigate(RESULT_PAGE_PATH);
    else if (key === 'export') exportProfile();
  };

  let body;
  if (profile.isPending) {
    body = <Skeleton active paragraph={{ rows: 10 }} data-testid="user-settings-loading" />;
  } else if (profile.isError) {
    body = (
      <Result
        status="error"
        title={t('userSetting.loadFailed')}
        subTitle={profile.error.message}
        data-testid="user-settings-error"
        extra={
          <Button type="primary" icon={<ReloadOutlined />} onClick={() => void profile.refetch()}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  } else {
    const sections: Record<SettingsTab, () => ReactNode> = {
      basic: () => <BasicInfoTab profile={profile.data} />,
      integration: () => <IntegrationTab profile={profile.data} />,
      apiKeys: () => <ApiKeysTab isAdmin={isAdmin} />,
      security: () => <SecurityTab profile={profile.data} />,
      password: () => <PasswordTab />,
      certification: () => <CertificationTab username={profile.data.username} />,
    };
    body = <div data-testid={`user-settings-section-${tab}`}>{sections[tab]()}</div>;
  }

  return (
    <Row gutter={[16, 16]} data-testid="user-settings-page" className="user-settings">
      <Col xs={24} lg={6} xl={5}>
        <Card className="user-settings__menu-card" styles={{ body: { padding: 8 } }}>
          <Typography.Title level={5} className="user-settings__menu-title">
            {t('menu.user.setting')}
          </Typography.Title>
          <Menu
            mode={wide ? 'inline' : 'horizontal'}
            disabledOverflow
            selectedKeys={[menuKey]}
            items={menuItems}
            onClick={onMenuClick}
            data-testid="user-settings-menu"
            style={{ borderInlineEnd: 'none' }}
          />
        </Card>
      </Col>
      <Col xs={24} lg={18} xl={19}>
        <Card title={<span data-testid="user-settings-title">{t(TITLE_OF_TAB[tab])}</span>}>{body}</Card>
      </Col>
    </Row>
  );
}
