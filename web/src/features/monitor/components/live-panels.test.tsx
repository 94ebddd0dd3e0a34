import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import '@/locales/monitor-texts';
import type { LiveAlert, LiveSnapshot } from '../api/live-stream';
import { Alerts, ChannelTable } from './live-panels';
import { testSnapshot } from './test-snapshot';

afterEach(async () => {
  cleanup();
  await changeLocale('zh-CN');
});

const noAlert: LiveAlert = {
  kind: 'low_balance',
  merchant_id: 0,
  name: '',
  balance_fen: 0,
  threshold_fen: 0,
  count: 0,
  channel_id: 0,
  pause_reason: '',
  paused_until: 0,
};

const pausedUntil = Date.UTC(2026, 0, 1, 4, 5, 6); // 12:05:06 Beijing time

function snapshotWith(alerts: LiveAlert[]): LiveSnapshot {
  return testSnapshot({ alerts });
}

const alerts: LiveAlert[] = [
  {
    ...noAlert,
    kind: 'channel_paused',
    name: 'flaky',
    channel_id: 7,
    pause_reason: 'low_success_ratio',
    paused_until: pausedUntil,
  },
  { ...noAlert, kind: 'low_balance', merchant_id: 10001, name: 'shop', balance_fen: 900, threshold_fen: 100_000 },
];

const channels = [
  {
    channel_id: 7,
    name: 'flaky',
    succeeded_5m: 0,
    failed_5m: 3,
    success_permille_5m: 0,
    succeeded_60m: 1,
    failed_60m: 3,
    success_permille_60m: 250,
  },
  {
    channel_id: 1,
    name: '沙箱渠道',
    succeeded_5m: 3,
    failed_5m: 0,
    success_permille_5m: 1000,
    succeeded_60m: 3,
    failed_60m: 0,
    success_permille_60m: 1000,
  },
];

describe('live monitor panels', () => {
  it('lists a paused channel among the alerts, with its reason and cool-down, in Chinese', () => {
    render(<Alerts snapshot={snapshotWith(alerts)} />);
    const paused = screen.getByTestId('live-alert-channel_paused');
    expect(paused).toHaveTextContent('渠道 flaky 已暂停（成功率过低），冷却至 12:05:06');
    expect(screen.getByTestId('live-alert-low_balance')).toHaveTextContent('shop (10001)：余额 ¥9.00');
  });

  it('lists a paused channel among the alerts in English', async () => {
    await changeLocale('en-US');
    render(<Alerts snapshot={snapshotWith(alerts)} />);
    expect(screen.getByTestId('live-alert-channel_paused')).toHaveTextContent(
      'Channel flaky paused (success ratio too low), resting until 12:05:06',
    );
  });

  it('shows each channel with its 5- and 60-minute success ratio, in both languages', async () => {
    render(<ChannelTable channels={channels} />);
    expect(screen.getByText('各渠道成功率')).toBeInTheDocument();
    const table = screen.getByTestId('live-channels');
    const flaky = within(table).getByText('flaky').closest('tr') as HTMLElement;
    expect(flaky).toHaveTextContent('0.0 % (0/3)');
    expect(flaky).toHaveTextContent('25.0 % (1/4)');
    const sandbox = within(table).getByText('沙箱渠道').closest('tr') as HTMLElement;
    expect(sandbox).toHaveTextContent('100.0 % (3/3)');
    await act(async () => {
      await changeLocale('en-US');
    });
    expect(await screen.findByText('Success ratio by channel')).toBeInTheDocument();
    expect(screen.getByText('Last 60 minutes')).toBeInTheDocument();
  });

  it('says so when no channel answered in the last hour', async () => {
    await changeLocale('en-US');
    render(<ChannelTable channels={[]} />);
    expect(screen.getByText('No channel answers in the last hour')).toBeInTheDocument();
  });
});
