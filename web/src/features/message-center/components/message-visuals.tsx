import { CheckSquareOutlined, MessageOutlined, NotificationOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import type { MessageKind } from '@/lib/inbox';

export const KIND_ICONS: Record<MessageKind, ReactNode> = {
  message: <MessageOutlined />,
  notice: <NotificationOutlined />,
  todo: <CheckSquareOutlined />,
};

/** messageType on notices and to-dos: 0 info, 1 success, 2 warning, 3 urgent. */
export const MESSAGE_TYPE_LEVELS = ['info', 'success', 'warning', 'urgent'] as const;
export const MESSAGE_TYPE_COLORS: Record<(typeof MESSAGE_TYPE_LEVELS)[number], string> = {
  info: 'blue',
  success: 'green',
  warning: 'orange',
  urgent: 'red',
};

export function messageTypeLevel(messageType: number): (typeof MESSAGE_TYPE_LEVELS)[number] | undefined {
  return MESSAGE_TYPE_LEVELS[messageType];
}

/** Avatars only from this site or inline (the CSP allows no other image origin). */
export function safeAvatar(avatar: string): string | undefined {
  return avatar.startsWith('/') || avatar.startsWith('data:image/') ? avatar : undefined;
}
