import { Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { ListColumn } from '@/components/list-page/list-table';
import { formatFen } from '@/lib/money';
import { formatTime } from '@/lib/platform-time';
import type { FundingItem } from '../api/funding';
import { FundingStatusTag } from './funding-parts';

/** The columns both pages show; each page adds its own (merchant, actions). */
export function fundingColumns(t: TFunction): ListColumn<FundingItem>[] {
  return [
    { key: 'id', title: '#', dataIndex: 'id', width: 70 },
    { key: 'created_at', title: t('funding.createdAt'), dataIndex: 'created_at', width: 170, render: formatTime },
    {
      key: 'amount_fen',
      title: t('funding.amount'),
      dataIndex: 'amount_fen',
      align: 'right',
      width: 130,
      phone: true,
      phoneWidth: 100,
      render: (value: number) => formatFen(value),
    },
    { key: 'bank_reference', title: t('funding.reference'), dataIndex: 'bank_reference', width: 160, ellipsis: true },
    { key: 'payer_name', title: t('funding.payer'), dataIndex: 'payer_name', width: 140, ellipsis: true },
    {
      key: 'status',
      title: t('funding.status'),
      dataIndex: 'status',
      width: 150,
      phone: true,
      phoneWidth: 90,
      render: (status: string, row) => (
        <>
          <FundingStatusTag status={status} />
          {row.reason ? (
            <Typography.Text type="secondary" style={{ display: 'block' }} data-testid="funding-reason">
              {row.reason}
            </Typography.Text>
          ) : null}
        </>
      ),
    },
    {
      key: 'decided_at',
      title: t('funding.decidedAt'),
      dataIndex: 'decided_at',
      width: 170,
      render: (value: string | null) => (value ? formatTime(value) : '-'),
    },
    {
      key: 'ledger_log_id',
      title: t('funding.ledger'),
      dataIndex: 'ledger_log_id',
      width: 120,
      render: (value: number | null) =>
        value ? <span data-testid="funding-ledger">{t('funding.ledger.id', { id: value })}</span> : '-',
    },
    { key: 'note', title: t('funding.note'), dataIndex: 'note', width: 160, ellipsis: true },
  ];
}
