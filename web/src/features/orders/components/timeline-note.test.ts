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
    expect(timelineNote('card not available from supplier', (key) => i18n.t(key))).toBe('card not available from supplier');
  });
});
