import { CheckOutlined, ReloadOutlined, RightOutlined } from '@ant-design/icons';
import { Avatar, Badge, Button, Card, Empty, Result, Skeleton, Space, Tabs, Tag, Typography } from 'antd';
import { formatTime } from '@/lib/platform-time';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { isLocale } from '@/lib/i18n';
import {
  consoleLink,
  isMessageKind,
  localizedText,
  MESSAGE_KINDS,
  useMessages,
  useUnreadCount,
  type InboxMessage,
  type MessageKind,
} from '@/lib/inbox';
import { useMarkAllRead, useMarkRead } from '../api/mark-messages-read';
import { KIND_ICONS, MESSAGE_TYPE_COLORS, messageTypeLevel, safeAvatar } from './message-visuals';
import './message-center-page.css';

const UNREAD = 0;

function MessageItem({
  message,
  expanded,
  onOpen,
  onMarkRead,
  marking,
}: {
  message: InboxMessage;
  expanded: boolean;
  onOpen: () => void;
  onMarkRead: () => void;
  marking: boolean;
}) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const locale = isLocale(i18n.language) ? i18n.language : 'zh-CN';
  const unread = message.status === UNREAD;
  const link = consoleLink(message.link);
  const level = message.type === 'message' ? undefined : messageTypeLevel(message.messageType);
  return (
    <li
      className={`message-item${unread ? ' message-item--unread' : ''}`}
      data-testid={`message-item-${message.id}`}
      data-status={unread ? 'unread' : 'read'}
    >
      <div
        role="button"
        tabIndex={0}
        className="message-item__main"
        onClick={onOpen}
        onKeyDown={(event) => {
          if (event.key === 'Enter' || event.key === ' ') {
            event.preventDefault();
            onOpen();
          }
        }}
        aria-expanded={expanded}
      >
        <Badge dot={unread} offset={[-4, 4]}>
          <Avatar src={safeAvatar(message.avatar)} icon={KIND_ICONS[message.type]} />
        </Badge>
        <div className="message-item__body">
          <Space size={8} wrap>
            <Typography.Text strong={unread} data-testid="message-title">
              {localizedText(message.title, locale)}
            </Typography.Text>
            {level ? (
              <Tag color={MESSAGE_TYPE_COLORS[level]} data-testid="message-level">
                {t(`messageCenter.level.${level}`)}
              </Tag>
            ) : null}
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {unread ? t('messageCenter.status.unread') : t('messageCenter.status.read')}
            </Typography.Text>
          </Space>
          {message.subTitle ? (
            <Typography.Text type="secondary" className="message-item__line">
              {localizedText(message.subTitle, locale)}
            </Typography.Text>
          ) : null}
          {message.content ? (
            <Typography.Paragraph
              className="message-item__content"
              ellipsis={expanded ? false : { rows: 1 }}
              data-testid="message-content"
            >
              {localizedText(message.content, locale)}
            </Typography.Paragraph>
          ) : null}
          <Typography.Text type="secondary" className="message-item__time">
            {formatTime(message.time)}
          </Typography.Text>
        </div>
      </div>
      {unread || link ? (
        <div className="message-item__actions">
          {link ? (
            <Button
              type="link"
              size="small"
              icon={<RightOutlined />}
              iconPlacement="end"
              onClick={() => {
                onMarkRead();
                void navigate(link);
              }}
              data-testid={`message-open-${message.id}`}
            >
              {t('messageCenter.open')}
            </Button>
          ) : null}
          {unread ? (
            <Button
              type="link"
              size="small"
              icon={<CheckOutlined />}
              loading={marking}
              onClick={onMarkRead}
              data-testid={`message-mark-read-${message.id}`}
            >
              {t('messageCenter.markRead')}
            </Button>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

function MessageList({ kind, focusId }: { kind: MessageKind; focusId: number | null }) {
  const { t } = useTranslation();
  const messages = useMessages(kind);
  const markRead = useMarkRead();
  const [expanded, setExpanded] = useState<Set<number>>(() => new Set(focusId ? [focusId] : []));
  const [marking, setMarking] = useState<number | null>(null);

  const read = (message: InboxMessage) => {
    if (message.status !== UNREAD) return;
    setMarking(message.id);
    markRead.mutate([message.id], { onSettled: () => setMarking(null) });
  };

  // Opened from the navbar bell: show that message and mark it read.
  const focused = useRef<number | null>(null);
  useEffect(() => {
    if (!focusId || focused.current === focusId || !messages.data) return;
    const message = messages.data.find((item) => item.id === focusId);
    if (!message) return;
    focused.current = focusId;
    // Once per focused id (the ref guards it), when the messages arrive: no render cascade.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setExpanded((current) => new Set(current).add(focusId));
    read(message);
    // read: a stable enough action; the effect is keyed by the focused id.
  }, [focusId, messages.data]); // eslint-disable-line react-hooks/exhaustive-deps

  if (messages.isPending) return <Skeleton active avatar paragraph={{ rows: 3 }} data-testid="messages-loading" />;
  if (messages.isError) {
    return (
      <Result
        status="error"
        title={t('messageCenter.loadFailed')}
        subTitle={messages.error.message}
        data-testid="messages-error"
        extra={
          <Button icon={<ReloadOutlined />} onClick={() => void messages.refetch()}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  }
  if (messages.data.length === 0) {
    return <Empty description={t(`messageCenter.empty.${kind}`)} data-testid={`messages-empty-${kind}`} />;
  }
  return (
    <ul className="message-list" data-testid={`messages-${kind}`}>
      {messages.data.map((message) => (
        <MessageItem
          key={message.id}
          message={message}
          expanded={expanded.has(message.id)}
          marking={marking === message.id}
          onMarkRead={() => read(message)}
          onOpen={() => {
            setExpanded((current) => {
              const next = new Set(current);
              if (next.has(message.id)) next.delete(message.id);
              else next.add(message.id);
              return next;
            });
            read(message);
          }}
        />
      ))}
    </ul>
  );
}

/** Message center: messages, notices and to-dos (as the server lists them), with mark read / mark all read. */
export default function MessageCenterPage() {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const unread = useUnreadCount();
  const markAll = useMarkAllRead();
  const tabParam = searchParams.get('tab');
  // Opened without a tab: the first one holding unread items, decided once from counts
  // fetched for this page (the navbar's may be older), so reading them does not make the
  // page jump to another tab.
  // (State set while rendering, React's pattern for a value derived once from a query.)
  const [opening, setOpening] = useState<MessageKind | null>(null);
  if (!opening && unread.data && unread.isFetchedAfterMount) {
    setOpening(MESSAGE_KINDS.find((item) => (unread.data?.[item] ?? 0) > 0) ?? 'message');
  }
  const kind: MessageKind = isMessageKind(tabParam) ? tabParam : (opening ?? 'message');
  const focusParam = Number(searchParams.get('id'));
  const focusId = Number.isInteger(focusParam) && focusParam > 0 ? focusParam : null;
  const unreadInTab = unread.data?.[kind] ?? 0;

  return (
    <Card
      title={t('messageCenter.title')}
      data-testid="message-center-page"
      extra={
        <Button
          icon={<CheckOutlined />}
          disabled={unreadInTab === 0}
          loading={markAll.isPending}
          onClick={() => markAll.mutate(kind)}
          data-testid="messages-mark-all-read"
        >
          {t('messageCenter.markAllRead')}
        </Button>
      }
    >
      <Tabs
        activeKey={kind}
        onChange={(key) => setSearchParams({ tab: key }, { replace: true })}
        items={MESSAGE_KINDS.map((item) => ({
          key: item,
          label: (
            <span data-testid={`messages-tab-${item}`}>
              {t(`messageCenter.tab.${item}`)}
              {unread.data?.[item] ? (
                <Badge count={unread.data[item]} size="small" style={{ marginInlineStart: 6 }} />
              ) : null}
            </span>
          ),
          children: <MessageList kind={item} focusId={item === kind ? focusId : null} />,
        }))}
      />
    </Card>
  );
}
