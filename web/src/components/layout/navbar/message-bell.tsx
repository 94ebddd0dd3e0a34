import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Empty, Popover, Skeleton, Typography } from 'antd';
import { formatTimeAs } from '@/lib/platform-time';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isLocale } from '@/lib/i18n';
import { localizedText, useMessages, useUnreadCount, type InboxMessage } from '@/lib/inbox';
import './message-bell.css';

export const MESSAGE_CENTER_PATH = '/user/message';
/** How many unread messages the popover lists. */
export const BELL_LATEST = 5;

/** The newest unread messages of every tab (the list comes newest first). */
export function latestUnread(messages: InboxMessage[] | undefined, limit = BELL_LATEST): InboxMessage[] {
  return (messages ?? []).filter((message) => message.status === 0).slice(0, limit);
}

function BellPopoverContent({ onNavigate }: { onNavigate: (path: string) => void }) {
  const { t, i18n } = useTranslation();
  const locale = isLocale(i18n.language) ? i18n.language : 'zh-CN';
  const messages = useMessages(undefined);
  const latest = latestUnread(messages.data);

  let body;
  if (messages.isPending) body = <Skeleton active paragraph={{ rows: 2 }} title={false} />;
  else if (messages.isError) body = <Typography.Text type="danger">{t('messageCenter.loadFailed')}</Typography.Text>;
  else if (latest.length === 0)
    body = (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={t('navbar.messages.noUnread')}
        data-testid="message-bell-empty"
      />
    );
  else
    body = (
      <ul className="message-bell__list">
        {latest.map((message) => (
          <li key={message.id}>
            <button
              type="button"
              className="message-bell__item"
              data-testid={`message-bell-item-${message.id}`}
              onClick={() => onNavigate(`${MESSAGE_CENTER_PATH}?tab=${message.type}&id=${message.id}`)}
            >
              <span className="message-bell__title">{localizedText(message.title, locale)}</span>
              <span className="message-bell__meta">
                {t(`messageCenter.tab.${message.type}`)} · {formatTimeAs(message.time, 'MM-DD HH:mm')}
              </span>
            </button>
          </li>
        ))}
      </ul>
    );

  return (
    <div className="message-bell__popover" data-testid="message-bell-popover">
      {body}
      <div className="message-bell__footer">
        <Button
          type="link"
          size="small"
          onClick={() => onNavigate(MESSAGE_CENTER_PATH)}
          data-testid="message-bell-view-all"
        >
          {t('navbar.messages.viewAll')}
        </Button>
      </div>
    </div>
  );
}

/** The navbar bell: unread badge (polled every 30 s) and a popover of the latest unread. */
export function MessageBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const unread = useUnreadCount();
  const total = unread.data?.total ?? 0;
  const label = total > 0 ? t('navbar.messages.unread', { count: total }) : t('navbar.messages');

  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      open={open}
      onOpenChange={setOpen}
      title={t('navbar.messages.latestUnread')}
      content={
        open ? (
          <BellPopoverContent
            onNavigate={(path) => {
              setOpen(false);
              navigate(path);
            }}
          />
        ) : null
      }
    >
      <Button
        type="text"
        aria-label={label}
        title={label}
        data-testid="message-bell"
        data-count={unread.data ? total : undefined}
      >
        <Badge count={total} size="small" overflowCount={99} data-testid="message-bell-badge">
          <BellOutlined style={{ fontSize: 16 }} />
        </Badge>
      </Button>
    </Popover>
  );
}
