import { describe, expect, it } from 'vitest';
import i18n, { changeLocale } from '@/lib/i18n';
import { provinceSummary } from './statements-page';

const group = (province: string, province_en: string, count: number, amount_fen: number, code: number | null) => ({
  province_code: code,
  province,
  province_en,
  count,
  amount_fen,
});

const groups = [
  group('广东', 'Guangdong', 2, 1970, 440000),
  group('北京', 'Beijing', 1, 985, 110000),
  group('浙江', 'Zhejiang', 1, 985, 330000),
  group('上海', 'Shanghai', 1, 500, 310000),
  group('', '', 1, 985, null),
];

describe('provinceSummary', () => {
  it('names three provinces in the reader language, then how many more', async () => {
    await changeLocale('zh-CN');
    expect(provinceSummary(groups, false, i18n.t.bind(i18n))).toBe(
      '广东 2 / 19.70；北京 1 / 9.85；浙江 1 / 9.85；另有 2 个',
    );
    await changeLocale('en-US');
    expect(provinceSummary(groups.slice(3), true, i18n.t.bind(i18n))).toBe('Shanghai 1 / 5.00; Unknown 1 / 9.85');
    expect(provinceSummary([], true, i18n.t.bind(i18n))).toBe('');
  });
});
