import { describe, expect, it } from 'vitest';
import i18n from 'i18next';
import '@/lib/i18n';
import { timelineNote } from './order-detail-drawer';

describe('timeline notes', () => {
  it('shows the server’s fixed notes in the console language and other text as written', async () => {
    await i18n.changeLanguage('zh-CN');
    const t = (key: string) => i18n.t(key);
    expect(timelineNote('deadline passed without an answer from the channel', t)).toBe('超过时限渠道未应答');
    expect(timelineNote('success without serial number', t)).toBe('渠道返回成功（无流水号）');
    await i18n.changeLanguage('en-US');
    expect(timelineNote('submitted', (key) => i18n.t(key))).toBe('Handed to the channel');
    expect(timelineNote('card not available from supplier', (key) => i18n.t(key))).toBe(
      'card not available from supplier',
    );
  });

  it('names the administrator who resolved an order by hand, in both languages', async () => {
    await i18n.changeLanguage('zh-CN');
    const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, options);
    expect(timelineNote('marked success by an administrator', t, 'admin')).toBe('管理员 admin 人工标记成功');
    expect(timelineNote('marked failed by an administrator', t, 'admin')).toBe('管理员 admin 人工标记失败，已退款');
    await i18n.changeLanguage('en-US');
    expect(timelineNote('marked success by an administrator', t, 'ops')).toBe('Marked succeeded by administrator ops');
  });
});
