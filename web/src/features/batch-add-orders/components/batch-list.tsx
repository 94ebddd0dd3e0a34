import { DownloadOutlined } from '@ant-design/icons';
import { Button, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { type ListColumn, ListTable } from '@/components/list-page/list-table';
import { usePageNumbers } from '@/components/list-page/use-page-numbers';
import { showSuccessMessage } from '@/lib/feedback';
import { formatFen } from '@/lib/money';
import { formatTime } from '@/lib/platform-time';
import { type BatchSummary, downloadBatchResult, useBatchList, useDiscardBatch } from '../api/batch';
import { quietly } from './preview-result';

/** A preview not submitted yet and not expired: it can be reopened and submitted. */
const reopenable = (row: BatchSummary) =>
  row.status === 0 && row.expires_at != null && Date.parse(row.expires_at) > Date.now();

/**
 * The merchant's batches with what became of each: lines, placed, refused, and of the placed
 * orders how many succeeded, failed or are in progress. A preview is reopened from here.
 */
export function BatchList({
  onOpen,
  onDiscarded,
}: {
  onOpen: (batchId: number) => void;
  onDiscarded: (batchId: number) => void;
}) {
  const { t } = useTranslation();
  const discard = useDiscardBatch();
  const { page, pageSize, onChange } = usePageNumbers(10);
  const list = useBatchList(page, pageSize);
  const count = (
    key: keyof BatchSummary & string,
    title: string,
    extra: Partial<ListColumn<BatchSummary>> = {},
  ): ListColumn<BatchSummary> => ({ key, title, dataIndex: key, align: 'right', width: 72, ...extra });
  const coloured = (colour: string) => (v: number) => <span style={{ color: v ? colour : undefined }}>{v}</span>;
  const columns: ListColumn<BatchSummary>[] = [
    { key: 'batch_id', title: t('batch.batchId'), dataIndex: 'batch_id', width: 64 },
    {
      key: 'file_name',
      title: t('batch.fileName'),
      dataIndex: 'file_name',
      width: 130,
      ellipsis: true,
      phone: true,
      phoneWidth: 90,
      render: (v: string) => v || '-',
    },
    {
      key: 'status',
      title: t('batch.column.status'),
      dataIndex: 'status',
      width: 96,
      phone: true,
      phoneWidth: 84,
      render: (v: number) => <Tag color={v === 1 ? 'success' : 'default'}>{t(`batch.status.${v === 1 ? 1 : 0}`)}</Tag>,
    },
    // Wide enough for each title's longest word (English), together under 1,140 px.
    count('total_rows', t('batch.totalRows'), { width: 64 }),
    count('valid_rows', t('batch.validRows'), { defaultHidden: true }),
    count('invalid_rows', t('batch.invalidRows'), { defaultHidden: true }),
    count('placed_rows', t('batch.placedRows')),
    count('refused_rows', t('batch.refusedRows'), { width: 80 }),
    count('failed_rows', t('batch.failedRows'), { defaultHidden: true }),
    count('succeeded_orders', t('batch.succeededOrders'), { width: 80, render: coloured('var(--ant-color-success)') }),
    count('failed_orders', t('batch.failedOrders'), { width: 76, render: coloured('var(--ant-color-error)') }),
    count('in_progress_orders', t('batch.inProgressOrders'), { width: 104 }),
    {
      key: 'total_fen',
      title: t('batch.totalAmount'),
      dataIndex: 'total_fen',
      align: 'right',
      width: 100,
      // The preview's amount: the preview card shows it; the list is about outcomes.
      defaultHidden: true,
      render: (v: number) => formatFen(v),
    },
    { key: 'created_at', title: t('batch.createdAt'), dataIndex: 'created_at', width: 168, render: formatTime },
    {
      key: 'actions',
      title: t('common.column.actions'),
      fixed: 'right',
      width: 200,
      // On a phone the buttons stack: file name, state and actions fit 390 px.
      phoneWidth: 140,
      phone: true,
      render: (_: unknown, row) => (
        <Space size={4} wrap>
          {reopenable(row) ? (
            <Button size="small" type="primary" data-testid="batch-list-open" onClick={() => onOpen(row.batch_id)}>
              {t('batch.open')}
            </Button>
          ) : null}
          <Button
            size="small"
            icon={<DownloadOutlined />}
            data-testid="batch-result-download"
            onClick={() => quietly(() => downloadBatchResult(row.batch_id))}
          >
            {t('batch.downloadResult')}
          </Button>
          {row.status === 0 && row.placed_rows === 0 ? (
            <Button
              size="small"
              danger
              data-testid="batch-list-discard"
              loading={discard.isPending && discard.variables === row.batch_id}
              onClick={() =>
                discard.mutate(row.batch_id, {
                  onSuccess: () => {
                    showSuccessMessage(t('batch.discarded'));
                    onDiscarded(row.batch_id);
                  },
                })
              }
            >
              {t('batch.discard')}
            </Button>
          ) : null}
        </Space>
      ),
    },
  ];
  return (
    <ListTable<BatchSummary>
      listKey="batches"
      savedViews
      defaultDensity="small"
      title={<span data-testid="batch-list-title">{t('batch.list.title')}</span>}
      columns={columns}
      rowKey="batch_id"
      dataSource={list.data?.list ?? []}
      loading={list.isFetching}
      error={list.isError && !list.data}
      onRetry={() => void list.refetch()}
      tableTestId="batch-list"
      pagination={{
        current: page,
        pageSize,
        total: list.data?.total ?? 0,
        onChange,
        testId: 'batch-pagination',
      }}
    />
  );
}
