import { Card, DatePicker, Form, InputNumber, Radio, Space, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ListColumn, ListTable } from '@/components/list-page/list-table';
import { usePermission } from '@/components/permission/use-permission';
import { formatFen, formatSignedFen } from '@/lib/money';
import '@/locales/statement-texts';
import {
  exportStatements,
  movementOf,
  type Statement,
  type StatementPeriod,
  type StatementQuery,
  useStatements,
} from '../api/statements';

/** The picked calendar day or month, which the server reads as Beijing's. */
function periodDate(moment: Dayjs, period: StatementPeriod): string {
  return moment.format(period === 'month' ? 'YYYY-MM' : 'YYYY-MM-DD');
}

const money = (
  key: string,
  title: string,
  pick: (row: Statement) => number,
  signed = false,
): ListColumn<Statement> => ({
  key,
  title,
  align: 'right',
  render: (_: unknown, row: Statement) => (signed ? formatSignedFen(pick(row)) : formatFen(pick(row))),
});

const orders = (
  key: string,
  title: string,
  pick: (row: Statement) => Statement['orders_placed'],
): ListColumn<Statement> => ({
  key,
  title,
  align: 'right',
  render: (_: unknown, row: Statement) => `${pick(row).count} / ${formatFen(pick(row).amount_fen)}`,
});

/** How many provinces a row names before "n more" (the export and the API have them all). */
const PROVINCES_SHOWN = 3;

/** "广东 2 / 19.70；北京 1 / 9.85；另有 2 个": the successes by province, most money first. */
export function provinceSummary(
  groups: Statement['succeeded_by_province'],
  english: boolean,
  t: (key: string, options?: Record<string, unknown>) => string,
): string {
  const shown = groups.slice(0, PROVINCES_SHOWN).map((group) => {
    const name = (english ? group.province_en : group.province) || t('statement.provinceUnknown');
    return `${name} ${group.count} / ${formatFen(group.amount_fen)}`;
  });
  const more = groups.length - shown.length;
  const parts = more > 0 ? [...shown, t('statement.moreProvinces', { count: more })] : shown;
  return parts.join(english ? '; ' : '；');
}

/**
 * Statements (/finance/statements): per merchant and Beijing day or month, opening and
 * closing figures, orders by status, movements by kind, and whether they reconcile with the
 * account log. Merchants see their own; administrators one merchant or all at once.
 */
export default function StatementsPage() {
  const { t, i18n } = useTranslation();
  const isAdmin = usePermission(['admin']);
  const [period, setPeriod] = useState<StatementPeriod>('day');
  const [moment, setMoment] = useState<Dayjs>(() => dayjs());
  const [merchantId, setMerchantId] = useState<number | null>(null);
  const query: StatementQuery = {
    period,
    date: periodDate(moment, period),
    ...(isAdmin && merchantId ? { merchant_id: merchantId } : {}),
  };
  const list = useStatements(query);

  const columns: ListColumn<Statement>[] = [
    {
      key: 'merchant_id',
      title: t('statement.merchant'),
      render: (_: unknown, row: Statement) => `${row.name} (${row.merchant_id})`,
      phone: true,
      phoneWidth: 120,
    },
    money('opening_balance_fen', t('statement.openingBalance'), (row) => row.opening_balance_fen),
    orders('orders_placed', t('statement.ordersPlaced'), (row) => row.orders_placed),
    orders('orders_succeeded', t('statement.ordersSucceeded'), (row) => row.orders_succeeded),
    orders('orders_failed', t('statement.ordersFailed'), (row) => row.orders_failed),
    orders('orders_in_flight', t('statement.ordersInFlight'), (row) => row.orders_in_flight),
    {
      key: 'succeeded_by_province',
      title: t('statement.byProvince'),
      render: (_: unknown, row: Statement) => (
        <span data-testid="statement-by-province">
          {provinceSummary(row.succeeded_by_province, i18n.language === 'en-US', t)}
        </span>
      ),
    },
    money('debits', t('statement.debits'), (row) => movementOf(row, 'balance', 'order_debit'), true),
    // Failures' and reversals' (冲正) refunds, as the export's column.
    money(
      'refunds',
      t('statement.refunds'),
      (row) => movementOf(row, 'balance', 'refund') + movementOf(row, 'balance', 'reversal_refund'),
      true,
    ),
    money('topups', t('statement.topups'), (row) => movementOf(row, 'balance', 'topup'), true),
    money('adjustments', t('statement.adjustments'), (row) => movementOf(row, 'balance', 'adjustment'), true),
    money('closing_balance_fen', t('statement.closingBalance'), (row) => row.closing_balance_fen),
    money(
      'credit',
      t('statement.creditMovements'),
      (row) => row.closing_credit_available_fen - row.opening_credit_available_fen,
      true,
    ),
    money('closing_credit_available_fen', t('statement.closingCredit'), (row) => row.closing_credit_available_fen),
    {
      key: 'reconciled',
      title: t('statement.reconciled'),
      phone: true,
      phoneWidth: 90,
      render: (_: unknown, row: Statement) =>
        row.reconciled ? (
          <Tag color="success">{t('statement.reconciledYes')}</Tag>
        ) : (
          <Tag color="error">{t('statement.reconciledNo')}</Tag>
        ),
    },
  ];

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="statements-page">
      <Card title={t('menu.finance.statements')}>
        <Form layout="inline">
          <Form.Item label={t('statement.period')}>
            <Radio.Group
              value={period}
              onChange={(event) => setPeriod(event.target.value as StatementPeriod)}
              optionType="button"
              data-testid="statement-period"
              options={[
                { value: 'day', label: t('statement.day') },
                { value: 'month', label: t('statement.month') },
              ]}
            />
          </Form.Item>
          <Form.Item label={t('statement.date')}>
            <DatePicker
              picker={period === 'month' ? 'month' : 'date'}
              value={moment}
              allowClear={false}
              onChange={(value) => value && setMoment(value)}
              data-testid="statement-date"
            />
          </Form.Item>
          {isAdmin ? (
            <Form.Item label={t('statement.merchantId')}>
              <InputNumber
                min={1}
                precision={0}
                style={{ width: 180 }}
                placeholder={t('statement.allMerchants')}
                value={merchantId}
                onChange={(value) => setMerchantId(typeof value === 'number' ? value : null)}
                data-testid="statement-merchant-id"
              />
            </Form.Item>
          ) : null}
        </Form>
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          {t('statement.hint')}
        </Typography.Paragraph>
      </Card>
      <ListTable<Statement>
        listKey="statements"
        title={<span data-testid="statement-total">{t('common.total', { count: list.data?.length ?? 0 })}</span>}
        onExport={(format) => exportStatements(query, format)}
        columns={columns}
        rowKey="merchant_id"
        dataSource={list.data ?? []}
        loading={list.isFetching}
        error={list.isError && !list.data}
        onRetry={() => void list.refetch()}
        tableTestId="statement-table"
      />
    </Space>
  );
}
