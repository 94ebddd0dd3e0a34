import { Alert, Button, Popconfirm, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DefinitionHint } from '@/components/definition-hint/definition-hint';
import { type ListColumn, ListTable } from '@/components/list-page/list-table';
import { showSuccessMessage } from '@/lib/feedback';
import { formatFen } from '@/lib/money';
import {
  type Channel,
  CHANNELS_REFRESH_MS,
  enableChannel,
  type TestResult,
  useChannelChange,
  useChannels,
  useChannelTest,
} from '../api/channels';
import { formatRatio } from '../api/figures';
import { ChannelName } from './channel-name';
import { ChannelFormDrawer } from './channel-form-drawer';
import { ChannelBalance, ChannelState } from './channel-state';
import { SuppliesDrawer } from './supplies-drawer';

/** The answer of the last connection test, above the list. */
function TestAnswer({ channel, result, onClose }: { channel: Channel; result: TestResult; onClose: () => void }) {
  const { t } = useTranslation();
  const values = { name: channel.name, ms: result.latency_ms };
  const title = !result.ok
    ? t('channels.test.failed', values)
    : result.balance_fen === null || result.balance_fen === undefined
      ? t('channels.test.ok', values)
      : t('channels.test.okBalance', { ...values, balance: formatFen(result.balance_fen) });
  return (
    <Alert
      type={result.ok ? 'success' : 'error'}
      showIcon
      closable={{ onClose }}
      title={title}
      description={result.error ?? undefined}
      data-testid="channel-test-result"
    />
  );
}

/** Channels with their live figures (read again every few seconds) and what can be done to each. */
export function ChannelList() {
  const { t } = useTranslation();
  const channels = useChannels();
  const enable = useChannelChange(enableChannel);
  const test = useChannelTest();
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<Channel | null>(null);
  // A fresh form for every opening: antd keeps a form's values across mounts of one instance.
  const [formKey, setFormKey] = useState(0);
  const [suppliesOf, setSuppliesOf] = useState<Channel | null>(null);
  const [tested, setTested] = useState<{ channel: Channel; result: TestResult } | null>(null);
  const ms = (value: number | null | undefined) =>
    value === null || value === undefined ? '-' : t('channels.ms', { ms: value });

  const openForm = (channel: Channel | null) => {
    setEditing(channel);
    setFormKey((key) => key + 1);
    setFormOpen(true);
  };

  const columns: ListColumn<Channel>[] = [
    {
      key: 'channel',
      width: 180,
      title: t('channels.column.channel'),
      phone: true,
      render: (_: unknown, channel: Channel) => <ChannelName name={channel.name} code={channel.code} />,
    },
    {
      key: 'adapter',
      width: 150,
      title: t('channels.column.adapter'),
      dataIndex: 'adapter',
      render: (value: string) => t(`channels.form.adapter.${value === 'sandbox' ? 'sandbox' : 'http-json'}`),
    },
    {
      key: 'state',
      width: 130,
      title: t('channels.column.state'),
      phone: true,
      render: (_: unknown, channel: Channel) => <ChannelState channel={channel} />,
    },
    {
      key: 'today_orders',
      width: 100,
      title: (
        <Space orientation="vertical" size={0} align="end">
          {t('channels.column.todayOrders')}
          <Typography.Text type="secondary">{t('channels.column.todayResults')}</Typography.Text>
        </Space>
      ),
      align: 'right',
      render: (_: unknown, channel: Channel) => (
        <Space orientation="vertical" size={0} align="end">
          <span data-testid={`channel-today-${channel.code}`}>{channel.figures.today_orders}</span>
          <Typography.Text type="secondary" data-testid={`channel-today-results-${channel.code}`}>
            {channel.figures.succeeded_today} / {channel.figures.failed_today}
          </Typography.Text>
        </Space>
      ),
    },
    {
      key: 'success_ratio',
      width: 100,
      title: (
        <DefinitionHint
          label={t('channels.column.successRatio')}
          definition={t('channels.ratioDefinition')}
          testId="channel-ratio-title"
        />
      ),
      align: 'right',
      render: (_: unknown, channel: Channel) => {
        const { success_permille_hour: permille, succeeded_hour: succeeded, failed_hour: failed } = channel.figures;
        return (
          <Space orientation="vertical" size={0} align="end">
            <span data-testid={`channel-ratio-${channel.code}`}>
              {formatRatio(permille === null || permille === undefined ? null : permille / 1000)}
            </span>
            <Typography.Text type="secondary" data-testid={`channel-results-${channel.code}`}>
              {succeeded}/{succeeded + failed}
            </Typography.Text>
          </Space>
        );
      },
    },
    {
      key: 'p95',
      width: 100,
      title: t('channels.column.p95'),
      align: 'right',
      render: (_: unknown, channel: Channel) => ms(channel.figures.p95_ms),
    },
    {
      key: 'in_flight',
      width: 90,
      title: t('channels.column.inFlight'),
      align: 'right',
      render: (_: unknown, channel: Channel) => (
        <Typography.Text type={channel.figures.unknown > 0 ? 'warning' : undefined}>
          {channel.figures.in_flight} / {channel.figures.unknown}
        </Typography.Text>
      ),
    },
    {
      key: 'balance',
      width: 130,
      title: t('channels.column.balance'),
      align: 'right',
      render: (_: unknown, channel: Channel) => <ChannelBalance channel={channel} />,
    },
    {
      key: 'actions',
      title: t('channels.column.actions'),
      fixed: 'right',
      width: 170,
      render: (_: unknown, channel: Channel) => (
        <Space size={0} wrap>
          <Button
            type="link"
            size="small"
            onClick={() => openForm(channel)}
            data-testid={`channel-edit-${channel.code}`}
          >
            {t('channels.edit')}
          </Button>
          <Button
            type="link"
            size="small"
            onClick={() => setSuppliesOf(channel)}
            data-testid={`channel-products-${channel.code}`}
          >
            {t('channels.products')}
          </Button>
          <Button
            type="link"
            size="small"
            loading={test.isPending && test.variables === channel.id}
            data-testid={`channel-test-${channel.code}`}
            onClick={() => test.mutate(channel.id, { onSuccess: (result) => setTested({ channel, result }) })}
          >
            {t('channels.test')}
          </Button>
          <Popconfirm
            title={t(channel.enabled ? 'channels.disableConfirm' : 'channels.enableConfirm', { name: channel.name })}
            okButtonProps={{ 'data-testid': 'channel-toggle-confirm' } as Record<string, string>}
            onConfirm={() =>
              enable.mutate(
                { id: channel.id, enabled: !channel.enabled },
                { onSuccess: () => showSuccessMessage(t(channel.enabled ? 'channels.disabled' : 'channels.enabled')) },
              )
            }
          >
            <Button type="link" size="small" danger={channel.enabled} data-testid={`channel-toggle-${channel.code}`}>
              {t(channel.enabled ? 'channels.disable' : 'channels.enable')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      {tested ? <TestAnswer channel={tested.channel} result={tested.result} onClose={() => setTested(null)} /> : null}
      <ListTable<Channel>
        listKey="channels"
        savedViews
        title={
          <Space size={12} wrap>
            <span data-testid="channel-total">{t('channels.total', { count: channels.data?.length ?? 0 })}</span>
            <Typography.Text type="secondary">
              {t('channels.refreshing', { seconds: CHANNELS_REFRESH_MS / 1000 })}
            </Typography.Text>
          </Space>
        }
        columns={columns}
        rowKey="id"
        dataSource={channels.data ?? []}
        // Only the first load shows the spinner: the list refreshes itself every few seconds.
        loading={channels.isLoading}
        error={channels.isError && !channels.data}
        onRetry={() => void channels.refetch()}
        tableTestId="channel-table"
        extra={
          <Button type="primary" onClick={() => openForm(null)} data-testid="channel-create">
            {t('channels.create')}
          </Button>
        }
      />
      <ChannelFormDrawer key={formKey} open={formOpen} channel={editing} onClose={() => setFormOpen(false)} />
      <SuppliesDrawer channel={suppliesOf} onClose={() => setSuppliesOf(null)} />
    </Space>
  );
}
