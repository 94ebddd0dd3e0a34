import { describe, expect, it } from 'vitest';
import i18n from 'i18next';
import '@/lib/i18n';
import { durationUnits, failureReasonText, formatDuration } from './order-labels';

describe('durations', () => {
  it('read in hours and days when long, in both languages', async () => {
    await i18n.changeLanguage('zh-CN');
    const zh = durationUnits((key) => i18n.t(key));
    expect(formatDuration(9_360, zh)).toBe('9.4 秒');
    expect(formatDuration(12 * 60_000 + 3_000, zh)).toBe('12 分 3 秒');
    expect(formatDuration(663 * 60_000 + 35_000, zh)).toBe('11 小时 3 分');
    expect(formatDuration((52 * 60 + 10) * 60_000, zh)).toBe('2 天 4 小时');
    await i18n.changeLanguage('en-US');
    const en = durationUnits((key) => i18n.t(key));
    expect(formatDuration(663 * 60_000 + 35_000, en)).toBe('11 h 3 min');
    expect(formatDuration((52 * 60 + 10) * 60_000, en)).toBe('2 d 4 h');
    expect(formatDuration(null, en)).toBe('-');
  });
});

describe('failure reasons', () => {
  it('translate the server’s codes and show an administrator’s words as written', async () => {
    await i18n.changeLanguage('zh-CN');
    const t = (key: string) => i18n.t(key);
    const refused = {
      failure_reason: 'The carrier refused the top-up',
      failure_reason_code: 'order.failure.carrier_refused',
    };
    expect(failureReasonText(refused, t)).toBe('运营商拒绝充值');
    expect(failureReasonText({ failure_reason: '号码已停机', failure_reason_code: null }, t)).toBe('号码已停机');
    await i18n.changeLanguage('en-US');
    expect(failureReasonText(refused, (key) => i18n.t(key))).toBe('The carrier refused the top-up');
  });
});
