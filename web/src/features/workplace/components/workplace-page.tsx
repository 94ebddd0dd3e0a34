import { Card, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePermission } from '@/components/permission/use-permission';
import { displayName, roleLabel, useUserStore } from '@/stores/user-store';
import { MoneyPanel } from './money-panel';
import { ShortcutCards } from './shortcut-cards';
import { UpcomingWindows } from './upcoming-windows';
import './workplace-page.css';

/** The landing page: greeting, money and order figures, the last days' chart, shortcuts. */
export default function WorkplacePage() {
  const { t } = useTranslation();
  const info = useUserStore((state) => state.info);
  const role = useUserStore((state) => state.role);
  const merchantRole = useUserStore((state) => state.merchantRole);
  const previewing = useUserStore((state) => state.previewing);
  // The balance and the figures are finance's (identity/permissions.rs): operators and
  // developers do not get them.
  const seesMoney = usePermission(['admin', 'owner', 'finance', 'viewer']);

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="workplace-page">
      <Card>
        <Typography.Title
          level={4}
          style={{ marginTop: 0 }}
          data-testid="workplace-greeting"
          // Element Timing: bench/console-speed.mjs reads when the workplace was first painted.
          {...{ elementtiming: 'workplace' }}
        >
          {t('workplace.welcome', { name: displayName(info) })}
          {role ? (
            <Tag
              color={role === 'admin' ? 'gold' : 'blue'}
              style={{ marginLeft: 12, verticalAlign: 'middle' }}
              data-testid="workplace-role"
            >
              {previewing ? t('navbar.preview.tag') : roleLabel(t, role, merchantRole)}
            </Tag>
          ) : null}
        </Typography.Title>
        <Typography.Text type="secondary">{t('workplace.subtitle')}</Typography.Text>
      </Card>

      {seesMoney ? <MoneyPanel /> : null}

      <UpcomingWindows />

      <Card title={t('workplace.shortcuts')} data-testid="workplace-shortcuts">
        <ShortcutCards />
      </Card>
    </Space>
  );
}
