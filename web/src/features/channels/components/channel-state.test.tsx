import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import { ChannelBalance, ChannelState } from './channel-state';
import { testChannel } from './test-channel';
import '@/locales/channels-texts';

const channel = testChannel;

const inAMinute = () => new Date(Date.now() + 60_000).toISOString();

describe('channel state', () => {
  beforeEach(async () => {
    await changeLocale('zh-CN');
  });

  it('shows a paused channel with the reason translated and until when', () => {
    render(<ChannelState channel={channel({ paused_until: inAMinute(), pause_reason: 'unknown_streak' })} />);
    expect(screen.getByTestId('channel-paused-tag')).toHaveTextContent('已暂停');
    expect(screen.getByTestId('channel-pause-reason')).toHaveTextContent(
      /^连续未知结果过多 至 \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/,
    );
  });

  it('shows probing once the cool-down is over, and a reason it does not know as written', () => {
    const { unmount } = render(
      <ChannelState channel={channel({ paused_until: '2020-01-01T00:00:00Z', pause_reason: 'probe_failed' })} />,
    );
    expect(screen.getByTestId('channel-paused-tag')).toHaveTextContent('探测中');
    expect(screen.queryByTestId('channel-pause-reason')).toBeNull();
    unmount();
    render(<ChannelState channel={channel({ paused_until: inAMinute(), pause_reason: 'new_reason' })} />);
    expect(screen.getByTestId('channel-pause-reason')).toHaveTextContent(/^new_reason 至/);
  });

  it('shows a disabled running channel as off, with no pause', () => {
    render(<ChannelState channel={channel({ enabled: false })} />);
    expect(screen.getByTestId('channel-enabled-tag')).toHaveTextContent('停用');
    expect(screen.queryByTestId('channel-paused-tag')).toBeNull();
  });

  it('shows the balance in yuan, warns below the alert line, and says when none is reported', () => {
    const { unmount } = render(<ChannelBalance channel={channel({ balance_fen: 12_345, low_balance_fen: 20_000 })} />);
    expect(screen.getByTestId('channel-balance-sim-cheap')).toHaveTextContent('123.45');
    expect(screen.getByText('余额不足')).toBeInTheDocument();
    unmount();
    render(<ChannelBalance channel={channel({ balance_fen: null })} />);
    expect(screen.getByText('未上报')).toBeInTheDocument();
  });
});
