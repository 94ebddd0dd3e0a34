import {
  AccountBookOutlined,
  AppstoreOutlined,
  CheckCircleOutlined,
  DashboardOutlined,
  EditOutlined,
  ExclamationCircleOutlined,
  FileTextOutlined,
  LineChartOutlined,
  QuestionCircleOutlined,
  SafetyOutlined,
  TagsOutlined,
  UnorderedListOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

/** Icon names as the menu tree carries them (Arco style) → antd icons. */
const ICONS: Record<string, ReactNode> = {
  'icon-dashboard': <DashboardOutlined />,
  'icon-account-book': <AccountBookOutlined />,
  'icon-bar-chart': <AccountBookOutlined />,
  'icon-list': <UnorderedListOutlined />,
  'icon-tag': <TagsOutlined />,
  'icon-tags': <TagsOutlined />,
  'icon-check-circle': <CheckCircleOutlined />,
  'icon-exclamation-circle': <ExclamationCircleOutlined />,
  'icon-user': <UserOutlined />,
  'icon-safe': <SafetyOutlined />,
  'icon-line-chart': <LineChartOutlined />,
  'icon-edit': <EditOutlined />,
  'icon-file': <FileTextOutlined />,
  'icon-question-circle': <QuestionCircleOutlined />,
};

export function menuIcon(name: string | undefined): ReactNode {
  if (!name) return undefined;
  return ICONS[name] ?? <AppstoreOutlined />;
}
