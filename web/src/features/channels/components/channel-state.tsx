import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatFen } from '@/lib/money';
import { formatTime, formatTimeAs } from '@/lib/platform-time';
import type { Channel } from '../api/channels';
import { pauseReasonKey, pauseState } from '../api/figures';

/** On / off, and paused (why, until when) or probing, as the health check left it. */
export function ChannelState({ channel }: { channel: Channel }) {
  const { t } = useTranslation();
  const state = pauseState(channel);
  const reasonKey = pauseReasonKey(channel.pause_reason);
  const reason = reasonKey ? t(reasonKey) : (channel.pause_reason ?? '');
  return (
    <Space orientation="vertical" size={2} data-testid={`channel-state-${channel.code}`}>
      <span>
        <Tag color={channel.enabled ? 'success' : 'default'} data-testid="channel-enabled-tag">
          {t(channel.enabled ? 'channels.state.on' : 'channels.state.off')}
        </Tag>
        {state === 'running' ? null : (
          <Tag color={state === 'paused' ? 'warning' : 'processing'} data-testid="channel-paused-tag">
            {t(state === 'paused' ? 'channels.state.paused' : 'channels.state.probing')}
          </Tag>
        )}
      </span>
      {state === 'paused' ? (
        <Typography.Text type="secondary" data-testid="channel-pause-reason">
          {reason} {t('channels.state.pausedUntil', { time: formatTime(channel.paused_until) })}
        </Typography.Text>
      ) : null}
    </Space>
  );
}

/** The last balance read, with its time; a warning below the alert line. */
export function ChannelBalance({ channel }: { channel: Channel }) {
  const { t } = useTranslation();
  if (channel.balance_fen === null || channel.balance_fen === undefined)
    return <Typography.Text type="secondary">{t('channels.balance.unknown')}</Typography.Text>;
  const low = channel.low_balance_fen > 0 && channel.balance_fen < channel.low_balance_fen;
  return (
    <Space orientation="vertical" size={0} align="end">
      <span data-testid={`channel-balance-${channel.code}`}>{formatFen(channel.balance_fen)}</span>
      {low ? <Tag color="error">{t('channels.balance.low')}</Tag> : null}
      {channel.balance_at ? (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} title={formatTime(channel.balance_at)}>
          {t('channels.balance.at', { time: formatTimeAs(channel.balance_at, 'HH:mm:ss') })}
        </Typography.Text>
      ) : null}
    </Space>
  );
}
