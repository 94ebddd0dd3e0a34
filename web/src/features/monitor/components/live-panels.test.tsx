import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import '@/locales/monitor-texts';
import type { LiveAlert, LiveSnapshot } from '../api/live-stream';
import { MemoryRouter } from 'react-router';
import { Alerts } from './live-alerts';
import { ChannelTable } from './live-panels';
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
  failed: 0,
  failure_permille: 0,
  threshold_permille: 0,
  oldest_seconds: 0,
  threshold_seconds: 0,
  threshold: 0,
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
    succeeded_today: 31,
    failed_today: 3,
    success_permille_today: 911,
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
    succeeded_today: 3,
    failed_today: 0,
    success_permille_today: 1000,
  },
];

function renderAlerts(list: LiveAlert[]) {
  render(
    <MemoryRouter>
      <Alerts snapshot={snapshotWith(list)} />
    </MemoryRouter>,
  );
}

const operational: LiveAlert[] = [
  { ...noAlert, kind: 'review_aging', count: 83, oldest_seconds: 29 * 86_400, threshold_seconds: 3600, threshold: 20 },
  {
    ...noAlert,
    kind: 'callback_failing',
    merchant_id: 10001,
    name: 'shop',
    count: 504,
    failed: 504,
    failure_permille: 1000,
    threshold_permille: 500,
    threshold: 5,
  },
  { ...noAlert, kind: 'notification_backlog', count: 504, threshold: 100 },
];

describe('live monitor panels', () => {
  it('says what is wrong with the review queue and the notifications, with links to their lists', () => {
    renderAlerts(operational);
    expect(screen.getByTestId('live-alert-review_aging')).toHaveTextContent(
      '人工审核队列有 83 笔订单待处理，最久已等待 29 天 0 小时（告警线：1 小时 0 分 或 20 笔）',
    );
    expect(screen.getByTestId('live-alert-callback_failing')).toHaveTextContent(
      'shop (10001)：近一小时订单通知 504 次投递中失败 504 次（失败率 100.0 %，告警线 50.0 %）',
    );
    expect(screen.getByTestId('live-alert-link-review_aging')).toHaveAttribute('href', '/order/review');
    expect(screen.getByTestId('live-alert-link-callback_failing')).toHaveAttribute(
      'href',
      '/order/notifications?state=failed&merchantId=10001',
    );
    expect(screen.getByTestId('live-alert-link-notification_backlog')).toHaveAttribute(
      'href',
      '/order/notifications?state=failed',
    );
  });

  it('says the same in English, one order in the singular', async () => {
    await changeLocale('en-US');
    renderAlerts([{ ...operational[0], count: 1, oldest_seconds: 7_200 }, operational[2]]);
    expect(screen.getByTestId('live-alert-review_aging')).toHaveTextContent(
      '1 order waits in manual review, for 2 h 0 min (alert line: 1 h 0 min or 20 orders)',
    );
    expect(screen.getByTestId('live-alert-notification_backlog')).toHaveTextContent(
      '504 order notifications wait to be delivered (alert line 100)',
    );
    expect(screen.getByTestId('live-alert-link-review_aging')).toHaveTextContent('Open');
  });

  it('lists a paused channel among the alerts, with its reason and cool-down, in Chinese', () => {
    renderAlerts(alerts);
    const paused = screen.getByTestId('live-alert-channel_paused');
    expect(paused).toHaveTextContent('渠道 flaky 已暂停（成功率过低），冷却至 12:05:06');
    expect(screen.getByTestId('live-alert-low_balance')).toHaveTextContent('shop (10001)：余额 ¥9.00');
  });

  it('lists a paused channel among the alerts in English', async () => {
    await changeLocale('en-US');
    renderAlerts(alerts);
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
    expect(flaky).toHaveTextContent('91.1 % (31/34)');
    const sandbox = within(table).getByText('沙箱渠道').closest('tr') as HTMLElement;
    expect(sandbox).toHaveTextContent('100.0 % (3/3)');
    expect(screen.getByTestId('live-channels-title-hint')).toHaveAttribute(
      'aria-label',
      expect.stringContaining('处理中和结果未知的尝试不计入'),
    );
    await act(async () => {
      await changeLocale('en-US');
    });
    expect(await screen.findByText('Success ratio by channel')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Last 60 minutes' })).toBeInTheDocument();
  });

  it('says so when no channel answered in the last hour', async () => {
    await changeLocale('en-US');
    render(<ChannelTable channels={[]} />);
    expect(screen.getByText('No channel answers in the last hour')).toBeInTheDocument();
  });
});
