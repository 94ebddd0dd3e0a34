import {
  ClockCircleOutlined,
  MailOutlined,
  ReloadOutlined,
  SafetyCertificateOutlined,
  UserOutlined,
} from '@ant-design/icons';
import {
  Avatar,
  Button,
  Card,
  Col,
  Descriptions,
  Empty,
  Result,
  Row,
  Skeleton,
  Space,
  Tabs,
  Tag,
  Timeline,
  Typography,
} from 'antd';
import { formatTime } from '@/lib/platform-time';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAvatarUrl } from '@/components/avatar/use-avatar-url';
import { isLocale } from '@/lib/i18n';
import { localizedText, useMessages, useUnreadCount } from '@/lib/inbox';
import { displayName, roleLabel, useUserStore } from '@/stores/user-store';
import type { ApiSchema } from '@/lib/request';
import { useActivity } from '../api/get-activity';
import { useUserInfo } from '../api/get-user-info';
import { templatePagesOn } from '@/lib/system-info';
import { activityLabel, isWarningAction } from './activity-label';
import { TemplateOverviewExtras, TemplateProjects, TemplateTeams } from './template-extras';
import './user-info-page.css';

const MESSAGE_CENTER_PATH = '/user/message';
const NOTICES_SHOWN = 5;
/** Activity shown before 'show more' (the server sends the latest 20). */
const ACTIVITY_SHOWN = 8;

function LoadError({ message, onRetry, testId }: { message: string; onRetry: () => void; testId: string }) {
  const { t } = useTranslation();
  return (
    <Result
      status="warning"
      title={t('common.loadFailed')}
      subTitle={message}
      data-testid={testId}
      extra={
        <Button size="small" icon={<ReloadOutlined />} onClick={onRetry}>
          {t('common.retry')}
        </Button>
      }
    />
  );
}

function Header({ info }: { info: ApiSchema<'UserInfo'> }) {
  const { t } = useTranslation();
  const avatarUrl = useAvatarUrl();
  const role = useUserStore((state) => state.role) || info.role;
  const merchantRole = useUserStore((state) => state.merchantRole);
  const certified = info.certification === 1;
  return (
    <Card data-testid="user-info-header">
      <Space size={20} align="center" wrap>
        <Avatar size={72} src={avatarUrl} icon={<UserOutlined />} />
        <Space orientation="vertical" size={4}>
          <Space size={8} wrap>
            <Typography.Title level={4} style={{ margin: 0 }} data-testid="user-info-name">
              {displayName(info)}
            </Typography.Title>
            {role ? <Tag color={role === 'admin' ? 'gold' : 'blue'}>{roleLabel(t, role, merchantRole)}</Tag> : null}
            <Tag color={certified ? 'success' : 'default'} icon={<SafetyCertificateOutlined />}>
              {certified ? t('userInfo.certified') : t('userInfo.notCertified')}
            </Tag>
          </Space>
          <Space size={16} wrap>
            <Typography.Text type="secondary">
              <UserOutlined /> {info.username}
            </Typography.Text>
            {info.email ? (
              <Typography.Text type="secondary">
                <MailOutlined /> {info.email}
              </Typography.Text>
            ) : null}
            <Typography.Text type="secondary">
              <ClockCircleOutlined /> {t('userInfo.registeredOn', { date: formatTime(info.registrationDate) })}
            </Typography.Text>
          </Space>
        </Space>
      </Space>
    </Card>
  );
}

function Figures({ info }: { info: ApiSchema<'UserInfo'> }) {
  const { t } = useTranslation();
  const unread = useUnreadCount();
  const role = info.role;
  const unreadText: ReactNode = unread.isPending ? (
    '…'
  ) : unread.isError ? (
    '-'
  ) : (
    <Link to={MESSAGE_CENTER_PATH} data-testid="user-info-unread">
      {t('userInfo.unreadCount', { count: unread.data.total })}
    </Link>
  );
  return (
    <Card title={t('userInfo.overview.title')} data-testid="user-info-figures">
      <Descriptions
        column={{ xs: 1, sm: 2 }}
        size="small"
        items={[
          { key: 'username', label: t('userInfo.username'), children: info.username || '-' },
          { key: 'role', label: t('userInfo.role'), children: roleLabel(t, role, info.merchantRole ?? '') },
          {
            key: 'mid',
            label: t('userInfo.mid'),
            children: <span data-testid="user-info-mid">{info.mid ?? '-'}</span>,
          },
          { key: 'accountId', label: t('userInfo.accountId'), children: info.accountId || '-' },
          { key: 'email', label: t('userInfo.email'), children: info.email || t('userInfo.notSet') },
          {
            key: 'registrationDate',
            label: t('userInfo.registrationDate'),
            children: formatTime(info.registrationDate),
          },
          {
            key: 'certification',
            label: t('userInfo.certification'),
            children: (
              <span data-testid="user-info-certification">
                {info.certification === 1 ? t('userInfo.certified') : t('userInfo.notCertified')}
              </span>
            ),
          },
          { key: 'unread', label: t('userInfo.unread'), children: unreadText },
        ]}
      />
    </Card>
  );
}

function LatestActivity() {
  const { t } = useTranslation();
  const activity = useActivity();
  const [showAll, setShowAll] = useState(false);
  let body: ReactNode;
  if (activity.isPending) body = <Skeleton active paragraph={{ rows: 4 }} />;
  else if (activity.isError)
    body = (
      <LoadError message={activity.error.message} onRetry={() => void activity.refetch()} testId="activity-error" />
    );
  else if (activity.data.length === 0) body = <Empty description={t('userInfo.activity.empty')} />;
  else
    body = (
      <Timeline
        data-testid="activity-list"
        items={(showAll ? activity.data : activity.data.slice(0, ACTIVITY_SHOWN)).map((item) => ({
          key: item.id,
          color: isWarningAction(item.action) ? 'orange' : 'blue',
          content: (
            <div data-testid="activity-item" data-action={item.action}>
              <Typography.Text>{activityLabel(t, item.action)}</Typography.Text>
              <br />
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {formatTime(item.time)}
                {item.client_address ? ` · ${t('userInfo.activity.from', { address: item.client_address })}` : ''}
              </Typography.Text>
            </div>
          ),
        }))}
      />
    );
  const more = (activity.data?.length ?? 0) > ACTIVITY_SHOWN;
  return (
    <Card
      title={t('userInfo.activity.title')}
      data-testid="user-info-activity"
      extra={
        more ? (
          <Button
            type="link"
            size="small"
            onClick={() => setShowAll((value) => !value)}
            data-testid="activity-show-more"
          >
            {showAll ? t('userInfo.activity.showLess') : t('userInfo.activity.showMore')}
          </Button>
        ) : null
      }
    >
      {body}
    </Card>
  );
}

function Notifications() {
  const { t, i18n } = useTranslation();
  const locale = isLocale(i18n.language) ? i18n.language : 'zh-CN';
  const notices = useMessages('notice');
  let body: ReactNode;
  if (notices.isPending) body = <Skeleton active paragraph={{ rows: 3 }} />;
  else if (notices.isError)
    body = <LoadError message={notices.error.message} onRetry={() => void notices.refetch()} testId="notices-error" />;
  else if (notices.data.length === 0) body = <Empty description={t('userInfo.notifications.empty')} />;
  else
    body = (
      <ul className="user-info__notices">
        {notices.data.slice(0, NOTICES_SHOWN).map((notice) => (
          <li key={notice.id} data-testid="user-info-notice">
            <Link to={`${MESSAGE_CENTER_PATH}?tab=notice&id=${notice.id}`}>
              <Typography.Text strong={notice.status === 0}>{localizedText(notice.title, locale)}</Typography.Text>
            </Link>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {formatTime(notice.time)}
              {notice.status === 0 ? ` · ${t('messageCenter.status.unread')}` : ''}
            </Typography.Text>
          </li>
        ))}
      </ul>
    );
  return (
    <Card
      title={t('userInfo.notifications.title')}
      data-testid="user-info-notifications"
      extra={
        <Link to={`${MESSAGE_CENTER_PATH}?tab=notice`} data-testid="user-info-notifications-all">
          {t('userInfo.viewAll')}
        </Link>
      }
    >
      {body}
    </Card>
  );
}

/**
 * /user/info: who the user is (real figures), latest activity, notices. The project and team
 * tabs, visits and team activity are template material: shown only when the server
 * serves the template pages, never invented in the real product.
 */
export default function UserInfoPage() {
  const { t } = useTranslation();
  const info = useUserInfo();
  // With template pages on, the demo sections come from the server's generators.
  const templates = templatePagesOn();

  if (info.isPending) {
    return (
      <Card data-testid="user-info-page">
        <Skeleton active avatar paragraph={{ rows: 6 }} data-testid="user-info-loading" />
      </Card>
    );
  }
  if (info.isError) {
    return (
      <Card data-testid="user-info-page">
        <Result
          status="error"
          title={t('userInfo.loadFailed')}
          subTitle={info.error.message}
          data-testid="user-info-error"
          extra={
            <Button type="primary" icon={<ReloadOutlined />} onClick={() => void info.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      </Card>
    );
  }

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="user-info-page">
      <Header info={info.data} />
      <Card styles={{ body: { paddingTop: 4 } }}>
        <Tabs
          data-testid="user-info-tabs"
          items={[
            {
              key: 'overview',
              label: <span data-testid="user-info-tab-overview">{t('userInfo.tab.overview')}</span>,
              children: (
                <Row gutter={[16, 16]}>
                  <Col xs={24} xl={16}>
                    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
                      <Figures info={info.data} />
                      <LatestActivity />
                    </Space>
                  </Col>
                  <Col xs={24} xl={8}>
                    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
                      <Notifications />
                      {templates ? <TemplateOverviewExtras /> : null}
                    </Space>
                  </Col>
                </Row>
              ),
            },
            ...(templates
              ? [
                  {
                    key: 'project',
                    label: <span data-testid="user-info-tab-project">{t('userInfo.tab.project')}</span>,
                    children: <TemplateProjects />,
                  },
                  {
                    key: 'team',
                    label: <span data-testid="user-info-tab-team">{t('userInfo.tab.team')}</span>,
                    children: <TemplateTeams />,
                  },
                ]
              : []),
          ]}
        />
      </Card>
    </Space>
  );
}
