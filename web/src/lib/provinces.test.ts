import { describe, expect, it } from 'vitest';
import enUS from '@/locales/en-US/common';
import zhCN from '@/locales/zh-CN/common';
import { inScope, PROVINCE_CODES, provinceKey } from './provinces';

describe('provinces', () => {
  it('names every province in both languages', () => {
    for (const code of PROVINCE_CODES) {
      expect((zhCN as Record<string, string>)[provinceKey(code)]).toMatch(/\p{Script=Han}/u);
      expect((enUS as Record<string, string>)[provinceKey(code)]).toMatch(/^[A-Z][a-z]+( [A-Z][a-z]+)?$/);
    }
  });

  it('fits a national product anywhere and a provincial one only at home', () => {
    expect(inScope([], null)).toBe(true);
    expect(inScope([440000], 440000)).toBe(true);
    expect(inScope([440000], 110000)).toBe(false);
    expect(inScope([440000], null)).toBe(false);
  });
});
