import {
  AccountBookOutlined,
  DashboardOutlined,
  FileAddOutlined,
  ProfileOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  TagsOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { Card, Col, Row } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Permission } from '@/components/permission/permission';
import type { RoleRule } from '@/lib/route-meta';

interface Shortcut {
  key: string;
  labelKey: string;
  path: string;
  icon: ReactNode;
  /** Who the page is for, as its menu entry says (menu.json); none: everyone. */
  roles?: RoleRule[];
}

const SHORTCUTS: Shortcut[] = [
  { key: 'orders', labelKey: 'workplace.shortcut.orders', path: '/order/list', icon: <ProfileOutlined /> },
  {
    key: 'add-order',
    labelKey: 'workplace.shortcut.addOrder',
    path: '/order/addList',
    icon: <FileAddOutlined />,
    roles: ['admin', 'owner', 'operator'],
  },
  {
    key: 'batch-add',
    labelKey: 'workplace.shortcut.batchAdd',
    path: '/order/allAddList',
    icon: <UploadOutlined />,
    roles: ['admin', 'owner', 'operator'],
  },
  { key: 'quotes', labelKey: 'workplace.shortcut.quotes', path: '/qoute/list', icon: <TagsOutlined /> },
  {
    key: 'account-records',
    labelKey: 'workplace.shortcut.accountRecords',
    path: '/finance/account',
    icon: <AccountBookOutlined />,
    roles: ['admin', 'owner', 'finance', 'viewer'],
  },
  { key: 'settings', labelKey: 'workplace.shortcut.settings', path: '/user/setting', icon: <SettingOutlined /> },
  {
    key: 'two-factor',
    labelKey: 'workplace.shortcut.twoFactor',
    path: '/user/google-auth',
    icon: <SafetyCertificateOutlined />,
  },
];

function ShortcutCard({ shortcut }: { shortcut: Shortcut }) {
  const { t } = useTranslation();
  return (
    <Col xs={12} sm={8} md={6} xl={4}>
      <Link to={shortcut.path} data-testid={`shortcut-${shortcut.key}`}>
        <Card hoverable size="small" className="workplace__shortcut">
          <div className="workplace__shortcut-icon">{shortcut.icon}</div>
          <div className="workplace__shortcut-label">{t(shortcut.labelKey)}</div>
        </Card>
      </Link>
    </Col>
  );
}

/** Cards linking to the console's main areas; the monitor only for administrators. */
export function ShortcutCards() {
  return (
    <Row gutter={[12, 12]}>
      {SHORTCUTS.map((shortcut) => (
        <Permission key={shortcut.key} roles={shortcut.roles ?? []}>
          <ShortcutCard shortcut={shortcut} />
        </Permission>
      ))}
      <Permission roles={['admin']}>
        <ShortcutCard
          shortcut={{
            key: 'monitor',
            labelKey: 'workplace.shortcut.monitor',
            path: '/dashboard/monitor',
            icon: <DashboardOutlined />,
          }}
        />
      </Permission>
    </Row>
  );
}
