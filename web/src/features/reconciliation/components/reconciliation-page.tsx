import {
  Alert,
  Button,
  Card,
  Col,
  DatePicker,
  Form,
  Row,
  Segmented,
  Select,
  Space,
  Statistic,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DefinitionHint } from '@/components/definition-hint/definition-hint';
import { type ListColumn, ListTable } from '@/components/list-page/list-table';
import { formatFen, formatSignedFen } from '@/lib/money';
import { formatTime, PLATFORM_UTC_OFFSET_MINUTES } from '@/lib/platform-time';
import '@/locales/reconciliation-texts';
import {
  amountGap,
  DIFFERENCE_KINDS,
  differenceCount,
  exportReconciliation,
  filterDifferences,
  type KindFilter,
  kindColor,
  type ReconcileLine,
  type ReconcileQuery,
  type Reconciliation,
  useReconcileChannels,
  useReconciliation,
} from '../api/reconciliation';

const pair = (face: number | null | undefined, amount: number | null | undefined) =>
  face === null || face === undefined ? '-' : `${formatFen(face)} / ${formatFen(amount)}`;

function SummaryCards({ result }: { result: Reconciliation }) {
  const { t } = useTranslation();
  const differences = differenceCount(result);
  const card = (testId: string, title: ReactNode, count: number, fen: number | null, danger = false) => (
    <Col xs={12} md={6}>
      <Card size="small" data-testid={testId}>
        <Statistic
          title={title}
          value={t('reconcile.orders', { count })}
          styles={danger ? { content: { color: '#cf1322' } } : undefined}
        />
        {fen === null ? null : <Typography.Text type="secondary">¥{formatFen(fen)}</Typography.Text>}
      </Card>
    </Col>
  );
  return (
    <Row gutter={[16, 16]}>
      {card(
        'reconcile-ours',
        <DefinitionHint
          label={t('reconcile.ours')}
          definition={t('reconcile.oursDefinition')}
          testId="reconcile-ours-title"
        />,
        result.ours.count,
        result.ours.amount_fen,
      )}
      {card('reconcile-theirs', t('reconcile.theirs'), result.theirs.count, result.theirs.amount_fen)}
      {card('reconcile-matched', t('reconcile.matched'), result.matched.count, result.matched.amount_fen)}
      {card('reconcile-differences', t('reconcile.differences'), differences, null, differences > 0)}
    </Row>
  );
}

/**
 * Channel reconciliation (/finance/reconciliation, administrators): our successful orders of
 * a channel and a Beijing day against the supplier's statement, with totals of each side and
 * the differences (missing on either side, amount or status mismatch), exportable in full.
 */
export default function ReconciliationPage() {
  const { t } = useTranslation();
  const channels = useReconcileChannels();
  const [channelId, setChannelId] = useState<number | null>(null);
  const [moment, setMoment] = useState<Dayjs>(() => dayjs().utcOffset(PLATFORM_UTC_OFFSET_MINUTES));
  const [query, setQuery] = useState<ReconcileQuery | null>(null);
  const [run, setRun] = useState(0);
  const [kind, setKind] = useState<KindFilter>('all');
  const result = useReconciliation(query, run);
  const data = query ? result.data : undefined;

  const start = () => {
    if (channelId === null) return;
    setQuery({ channel_id: channelId, date: moment.format('YYYY-MM-DD') });
    setRun((value) => value + 1);
    setKind('all');
  };

  const columns: ListColumn<ReconcileLine>[] = [
    {
      key: 'kind',
      title: t('reconcile.column.kind'),
      phone: true,
      render: (_: unknown, line: ReconcileLine) => (
        <Tag color={kindColor(line.kind)}>{t(`reconcile.kind.${line.kind}`)}</Tag>
      ),
    },
    {
      key: 'upstream_order_id',
      title: t('reconcile.column.upstreamId'),
      dataIndex: 'upstream_order_id',
      phone: true,
    },
    {
      key: 'system_order_id',
      title: t('reconcile.column.systemId'),
      render: (_: unknown, line: ReconcileLine) => line.system_order_id ?? '-',
    },
    { key: 'account', title: t('reconcile.column.account'), dataIndex: 'account' },
    {
      key: 'ours',
      title: t('reconcile.column.ours'),
      align: 'right',
      render: (_: unknown, line: ReconcileLine) => pair(line.our_face_value_fen, line.our_cost_fen),
    },
    {
      key: 'theirs',
      title: t('reconcile.column.theirs'),
      align: 'right',
      render: (_: unknown, line: ReconcileLine) => pair(line.their_face_value_fen, line.their_price_fen),
    },
    {
      key: 'their_status',
      title: t('reconcile.column.theirStatus'),
      render: (_: unknown, line: ReconcileLine) => line.their_status ?? '-',
    },
    {
      key: 'our_outcome',
      title: t('reconcile.column.ourOutcome'),
      render: (_: unknown, line: ReconcileLine) => line.our_outcome ?? '-',
    },
  ];

  const channelOptions = (channels.data ?? []).map((channel) => ({
    value: channel.id,
    label: `${channel.name} (${channel.code})`,
  }));
  const code = channels.data?.find((channel) => channel.id === query?.channel_id)?.code ?? 'channel';
  const rows = data ? filterDifferences(data.differences, kind) : [];

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="reconciliation-page">
      <Card title={t('menu.finance.reconciliation')}>
        <Form layout="inline" onFinish={start}>
          <Form.Item label={t('reconcile.channel')}>
            <Select
              style={{ width: 240 }}
              placeholder={t('reconcile.channelPlaceholder')}
              aria-label={t('reconcile.channel')}
              options={channelOptions}
              loading={channels.isLoading}
              value={channelId ?? undefined}
              onChange={(value: number) => setChannelId(value)}
              data-testid="reconcile-channel"
            />
          </Form.Item>
          <Form.Item label={t('reconcile.date')}>
            <DatePicker
              value={moment}
              aria-label={t('reconcile.date')}
              allowClear={false}
              onChange={(value) => value && setMoment(value)}
              data-testid="reconcile-date"
            />
          </Form.Item>
          <Form.Item>
            <Button
              type="primary"
              htmlType="submit"
              disabled={channelId === null}
              loading={result.isFetching}
              data-testid="reconcile-run"
            >
              {t('reconcile.run')}
            </Button>
          </Form.Item>
        </Form>
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          {t('reconcile.hint')}
        </Typography.Paragraph>
      </Card>
      {query === null ? (
        <Alert type="info" showIcon title={t('reconcile.notRun')} data-testid="reconcile-not-run" />
      ) : null}
      {query && result.isError ? (
        <Alert
          type="error"
          showIcon
          title={t('reconcile.failed')}
          description={result.error.message}
          data-testid="reconcile-error"
        />
      ) : null}
      {data ? (
        <>
          <Typography.Text type="secondary" data-testid="reconcile-run-at">
            {t('reconcile.runAt', {
              channel: `${data.channel_name} (${data.channel_code})`,
              date: data.date,
              time: formatTime(data.run_at),
            })}
          </Typography.Text>
          <SummaryCards result={data} />
          {differenceCount(data) === 0 ? (
            <Alert type="success" showIcon title={t('reconcile.allMatched')} data-testid="reconcile-all-matched" />
          ) : (
            <Alert
              type="warning"
              showIcon
              title={t('reconcile.gap', { amount: formatSignedFen(amountGap(data)) })}
              data-testid="reconcile-gap"
            />
          )}
          {data.differences_total > data.differences.length ? (
            <Alert
              type="info"
              showIcon
              title={t('reconcile.truncated', { shown: data.differences.length, total: data.differences_total })}
            />
          ) : null}
          <ListTable<ReconcileLine>
            listKey="reconciliation"
            title={<span data-testid="reconcile-total">{t('reconcile.total', { count: rows.length })}</span>}
            extra={
              <Segmented<KindFilter>
                value={kind}
                onChange={setKind}
                data-testid="reconcile-kind"
                options={[
                  { value: 'all', label: t('reconcile.kind.all') },
                  ...DIFFERENCE_KINDS.map((value) => ({ value, label: t(`reconcile.kind.${value}`) })),
                ]}
              />
            }
            onExport={(format) => exportReconciliation(query as ReconcileQuery, format, code)}
            columns={columns}
            rowKey={(line) => `${line.kind}:${line.upstream_order_id}`}
            dataSource={rows}
            loading={result.isFetching}
            error={false}
            onRetry={() => void result.refetch()}
            tableTestId="reconcile-table"
          />
        </>
      ) : null}
    </Space>
  );
}
