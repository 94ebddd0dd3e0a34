import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import '@/locales/monitor-texts';
import { ProvinceVolumes } from './province-volume';

const provinces = [
  { province: 440000, orders: 3, amount_fen: 29_550, succeeded: 1, failed: 1, success_permille: 500 },
  { province: null, orders: 1, amount_fen: 4_925, succeeded: 0, failed: 0, success_permille: null },
];

describe('province volumes panel', () => {
  it('names each province in Chinese, the unknown one in words, with amount and ratio', async () => {
    await changeLocale('zh-CN');
    render(<ProvinceVolumes provinces={provinces} />);
    const guangdong = screen.getByTestId('live-province-440000');
    expect(within(guangdong).getByText('广东')).toBeTruthy();
    expect(within(guangdong).getByText('¥295.50')).toBeTruthy();
    expect(within(guangdong).getByText('50.0 % (1/2)')).toBeTruthy();
    const unknown = screen.getByTestId('live-province-unknown');
    expect(within(unknown).getByText('未知归属地')).toBeTruthy();
    expect(within(unknown).getByText('- (0/0)')).toBeTruthy();
  });

  it('speaks English in en-US', async () => {
    await changeLocale('en-US');
    render(<ProvinceVolumes provinces={provinces} />);
    expect(within(screen.getByTestId('live-province-440000')).getByText('Guangdong')).toBeTruthy();
    expect(within(screen.getByTestId('live-province-unknown')).getByText('Unknown province')).toBeTruthy();
  });
});
