import { describe, expect, it } from 'vitest';
import { latestUnread } from '@/components/layout/navbar/message-bell';
import { isMessageKind, localizedText, type InboxMessage } from './inbox';

describe('inbox texts', () => {
  it('show the console language half of a bilingual server text', () => {
    expect(localizedText('密码已修改 / Password changed', 'zh-CN')).toBe('密码已修改');
    expect(localizedText('密码已修改 / Password changed', 'en-US')).toBe('Password changed');
    expect(localizedText('企业认证被驳回 / Enterprise certification rejected', 'en-US')).toBe(
      'Enterprise certification rejected',
    );
  });

  it('leave any other text as it is', () => {
    expect(localizedText('某公司：材料不清晰', 'en-US')).toBe('某公司：材料不清晰');
    expect(localizedText('a / b / c', 'en-US')).toBe('a / b / c');
    expect(localizedText('10/20', 'en-US')).toBe('10/20');
    expect(localizedText(' / x', 'zh-CN')).toBe(' / x');
  });

  it('know the three tabs', () => {
    expect(['message', 'notice', 'todo'].every(isMessageKind)).toBe(true);
    expect(isMessageKind('spam')).toBe(false);
  });
});

describe('the bell popover', () => {
  const item = (id: number, status: number): InboxMessage => ({
    id,
    type: 'notice',
    title: `t${id}`,
    subTitle: '',
    avatar: '',
    content: '',
    time: '2026-01-01T00:00:00Z',
    messageType: 0,
    status,
  });

  it('lists the newest unread only, at most five', () => {
    const list = [item(9, 0), item(8, 1), item(7, 0), item(6, 0), item(5, 0), item(4, 0), item(3, 0)];
    expect(latestUnread(list).map((message) => message.id)).toEqual([9, 7, 6, 5, 4]);
    expect(latestUnread(undefined)).toEqual([]);
  });
});
