import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import {
  Alert,
  Button,
  Card,
  Empty,
  Input,
  Modal,
  Progress,
  Space,
  Statistic,
  Row,
  Col,
  Table,
  Tabs,
  Tag,
  Upload,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ListColumn, ListTable } from '@/components/list-page/list-table';
import { usePageNumbers } from '@/components/list-page/use-page-numbers';
import { ActingMerchantGate } from '@/components/acting-merchant/acting-merchant-picker';
import { showSuccessMessage } from '@/lib/feedback';
import { formatFen } from '@/lib/money';
import { formatTime } from '@/lib/platform-time';
import { useSubmission } from '@/lib/submission';
import {
  type BatchPreview,
  type BatchSummary,
  countPastedLines,
  type PreviewInput,
  downloadBatchResult,
  downloadTemplate,
  type PreviewError,
  useBatchList,
  useDiscardBatch,
  usePreviewBatch,
  useSubmitBatch,
} from '../api/batch';

const MAX_FILE_BYTES = 32 * 1024 * 1024;

function quietly(action: () => Promise<void>) {
  // The request client already shows failures.
  action().catch(() => undefined);
}

interface PreviewResultProps {
  preview: BatchPreview;
  onSubmitted: (summary: BatchSummary) => void;
  /** Preview the same input again with carrier-mismatched numbers accepted as ported. */
  onConfirmPorted: (() => void) | null;
  onDiscarded: () => void;
}

function PreviewResult({ preview, onSubmitted, onConfirmPorted, onDiscarded }: PreviewResultProps) {
  const { t } = useTranslation();
  const submit = useSubmitBatch();
  const submission = useSubmission();
  const discard = useDiscardBatch();
  const [confirming, setConfirming] = useState(false);
  const overFunds = preview.errors.some((error) => error.reason_key === 'funds.insufficient');
  const mismatched = preview.errors.filter((error) => error.reason_key === 'order.account.carrier_mismatch').length;
  const amount = formatFen(preview.total_fen);
  const duplicateLines = preview.recent_duplicates
    .slice(0, 10)
    .map((line) => line.line_no)
    .join(', ');
  // A second click while the submission is in flight is dropped; a retry after a failure
  // goes with the same key.
  const place = () =>
    submission
      .run({ batch_id: preview.batch_id }, (idempotencyKey) =>
        submit.mutateAsync({ batchId: preview.batch_id, idempotencyKey }),
      )
      ?.then(
        (summary) => {
          setConfirming(false);
          showSuccessMessage(t('batch.submitted', { placed: summary.placed_rows, failed: summary.failed_rows }));
          onSubmitted(summary);
        },
        // The request layer has shown the server's message; the dialog stays for a retry.
        () => undefined,
      );
  return (
    <Card
      title={t('batch.preview.title', { id: preview.batch_id })}
      data-testid="batch-preview"
      extra={
        <Typography.Text type="secondary">
          {t('batch.expiresAt', { time: formatTime(preview.expires_at) })}
        </Typography.Text>
      }
    >
      <Row gutter={[12, 12]}>
        <Col xs={12} md={4}>
          <Statistic title={t('batch.totalRows')} value={preview.total_rows} data-testid="preview-total" />
        </Col>
        <Col xs={12} md={4}>
          <Statistic
            title={t('batch.validRows')}
            value={preview.valid_rows}
            data-testid="preview-valid"
            styles={{ content: { color: 'var(--ant-color-success)' } }}
          />
        </Col>
        <Col xs={12} md={4}>
          <Statistic
            title={t('batch.invalidRows')}
            value={preview.invalid_rows}
            data-testid="preview-invalid"
            styles={{ content: { color: preview.invalid_rows ? 'var(--ant-color-error)' : undefined } }}
          />
        </Col>
        <Col xs={12} md={6}>
          <Statistic title={t('batch.totalAmount')} value={formatFen(preview.total_fen)} prefix="¥" />
        </Col>
        <Col xs={12} md={6}>
          <Statistic title={t('addOrder.spendable')} value={formatFen(preview.spendable_fen)} prefix="¥" />
        </Col>
      </Row>
      {overFunds ? <Alert style={{ marginTop: 12 }} type="warning" showIcon title={t('batch.overFunds')} /> : null}
      {preview.invalid_rows > preview.errors.length ? (
        <Alert
          style={{ marginTop: 12 }}
          type="info"
          showIcon
          title={t('batch.errorsTruncated', { shown: preview.errors.length })}
        />
      ) : null}
      {mismatched > 0 && onConfirmPorted ? (
        <Alert
          style={{ marginTop: 12 }}
          type="info"
          showIcon
          data-testid="batch-ported"
          title={t('batch.ported.title', { count: mismatched })}
          description={t('batch.ported.body')}
          action={
            <Button size="small" data-testid="batch-ported-confirm" onClick={onConfirmPorted}>
              {t('batch.ported.confirm')}
            </Button>
          }
        />
      ) : null}
      {preview.recent_duplicate_rows > 0 ? (
        <Alert
          style={{ marginTop: 12 }}
          type="warning"
          showIcon
          data-testid="batch-recent-duplicates"
          title={t('batch.duplicates.title', { count: preview.recent_duplicate_rows })}
          description={t('batch.duplicates.body', { lines: duplicateLines })}
        />
      ) : null}
      <Table<PreviewError>
        style={{ marginTop: 16 }}
        size="small"
        rowKey="line_no"
        data-testid="preview-errors"
        dataSource={preview.errors}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('batch.noErrors')} /> }}
        columns={[
          { title: t('batch.lineNo'), dataIndex: 'line_no', width: 80 },
          { title: t('orderCommon.column.account'), dataIndex: 'account', render: (v: string) => v || '-' },
          { title: t('orderCommon.column.productKey'), dataIndex: 'product_key', render: (v: string) => v || '-' },
          {
            title: t('orderCommon.column.merchantOrderId'),
            dataIndex: 'merchant_order_id',
            render: (v: string) => v || '-',
          },
          {
            title: t('batch.reason'),
            dataIndex: 'reason',
            render: (reason: string, row) => (
              <span data-testid="preview-reason" data-reason={row.reason_key}>
                <Typography.Text type="danger">{reason}</Typography.Text>
              </span>
            ),
          },
        ]}
      />
      <Space style={{ marginTop: 16 }}>
        <Button
          type="primary"
          disabled={preview.valid_rows === 0}
          loading={submission.pending}
          data-testid="batch-submit"
          onClick={() => setConfirming(true)}
        >
          {t('batch.submit', { count: preview.valid_rows, amount })}
        </Button>
        <Button
          loading={discard.isPending}
          data-testid="batch-discard"
          onClick={() =>
            discard.mutate(preview.batch_id, {
              onSuccess: () => {
                showSuccessMessage(t('batch.discarded'));
                onDiscarded();
              },
            })
          }
        >
          {t('batch.discard')}
        </Button>
        <Typography.Text type="secondary">{t('batch.submitHint')}</Typography.Text>
      </Space>
      <Modal
        open={confirming}
        title={t('batch.confirm.title')}
        okText={t('batch.confirm.ok', { amount })}
        okButtonProps={{ 'data-testid': 'batch-confirm-ok' } as Record<string, string>}
        confirmLoading={submission.pending}
        onOk={place}
        onCancel={() => setConfirming(false)}
        data-testid="batch-confirm"
      >
        <Typography.Paragraph data-testid="batch-confirm-body">
          {t('batch.confirm.body', { count: preview.valid_rows, amount })}
        </Typography.Paragraph>
      </Modal>
    </Card>
  );
}

function BatchList() {
  const { t } = useTranslation();
  const discard = useDiscardBatch();
  const { page, pageSize, onChange } = usePageNumbers(10);
  const list = useBatchList(page, pageSize);
  const count = (key: keyof BatchSummary & string, title: string): ListColumn<BatchSummary> => ({
    key,
    title,
    dataIndex: key,
    align: 'right',
  });
  const columns: ListColumn<BatchSummary>[] = [
    { key: 'batch_id', title: t('batch.batchId'), dataIndex: 'batch_id', phone: true },
    {
      key: 'file_name',
      title: t('batch.fileName'),
      dataIndex: 'file_name',
      width: 200,
      ellipsis: true,
      phone: true,
      phoneWidth: 130,
      render: (v: string) => v || '-',
    },
    {
      key: 'status',
      title: t('orderCommon.column.status'),
      dataIndex: 'status',
      phone: true,
      render: (v: number) => <Tag color={v === 1 ? 'success' : 'default'}>{t(`batch.status.${v === 1 ? 1 : 0}`)}</Tag>,
    },
    count('total_rows', t('batch.totalRows')),
    count('valid_rows', t('batch.validRows')),
    count('invalid_rows', t('batch.invalidRows')),
    count('placed_rows', t('batch.placedRows')),
    count('failed_rows', t('batch.failedRows')),
    {
      key: 'total_fen',
      title: t('batch.totalAmount'),
      dataIndex: 'total_fen',
      align: 'right',
      render: (v: number) => formatFen(v),
    },
    { key: 'created_at', title: t('batch.createdAt'), dataIndex: 'created_at', render: formatTime },
    {
      key: 'actions',
      title: t('orderCommon.column.actions'),
      fixed: 'right',
      width: 190,
      phone: true,
      render: (_: unknown, row) => (
        <Space size={4}>
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
                discard.mutate(row.batch_id, { onSuccess: () => showSuccessMessage(t('batch.discarded')) })
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

/** Batch add orders (/order/allAddList): administrators choose the merchant first. */
export default function BatchAddOrdersPage() {
  return <ActingMerchantGate>{(merchantId) => <BatchAddOrders merchantId={merchantId} />}</ActingMerchantGate>;
}

/** Upload or paste, preview every line, then submit. */
function BatchAddOrders({ merchantId }: { merchantId: number | undefined }) {
  const { t } = useTranslation();
  const preview = usePreviewBatch();
  const [progress, setProgress] = useState<number | null>(null);
  const [text, setText] = useState('');
  const [tooBig, setTooBig] = useState(false);
  const [submitted, setSubmitted] = useState<BatchSummary | null>(null);
  const [lastInput, setLastInput] = useState<PreviewInput | null>(null);
  const discard = useDiscardBatch();

  const run = (input: PreviewInput) => {
    setSubmitted(null);
    setLastInput(input);
    preview.mutate({ ...input, merchantId }, { onSettled: () => setProgress(null) });
  };
  // The same lines again, ported numbers accepted; the earlier preview is discarded (never
  // left behind as a batch nobody can submit).
  const current = preview.data;
  const confirmPorted =
    lastInput && !lastInput.allowPorted && current
      ? () => {
          discard.mutate(current.batch_id);
          run({ ...lastInput, allowPorted: true });
        }
      : null;

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="batch-add-page">
      <Card
        title={t('menu.order.allAddList')}
        extra={
          <Space>
            <Button
              icon={<DownloadOutlined />}
              data-testid="template-csv"
              onClick={() => quietly(() => downloadTemplate('csv'))}
            >
              {t('batch.template.csv')}
            </Button>
            <Button
              icon={<DownloadOutlined />}
              data-testid="template-xlsx"
              onClick={() => quietly(() => downloadTemplate('xlsx'))}
            >
              {t('batch.template.xlsx')}
            </Button>
          </Space>
        }
      >
        <Typography.Paragraph type="secondary">{t('batch.help')}</Typography.Paragraph>
        <Tabs
          items={[
            {
              key: 'file',
              label: t('batch.tab.file'),
              children: (
                <>
                  <Upload.Dragger
                    accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                    multiple={false}
                    showUploadList={false}
                    disabled={preview.isPending}
                    data-testid="batch-upload"
                    beforeUpload={(file) => {
                      setTooBig(file.size > MAX_FILE_BYTES);
                      if (file.size <= MAX_FILE_BYTES) {
                        setProgress(0);
                        run({ file, onProgress: setProgress });
                      }
                      return false;
                    }}
                  >
                    <p className="ant-upload-drag-icon">
                      <InboxOutlined />
                    </p>
                    <p className="ant-upload-text">{t('batch.upload.text')}</p>
                    <p className="ant-upload-hint">{t('batch.upload.hint')}</p>
                  </Upload.Dragger>
                  {tooBig ? (
                    <Alert style={{ marginTop: 12 }} type="error" showIcon title={t('batch.upload.tooBig')} />
                  ) : null}
                  {progress !== null ? (
                    <Progress
                      style={{ marginTop: 12 }}
                      percent={progress}
                      status={progress < 100 ? 'active' : 'normal'}
                      format={(percent) => (percent === 100 ? t('batch.upload.checking') : `${percent}%`)}
                      data-testid="batch-upload-progress"
                    />
                  ) : null}
                </>
              ),
            },
            {
              key: 'paste',
              label: t('batch.tab.paste'),
              children: (
                <Space orientation="vertical" style={{ width: '100%' }}>
                  <Input.TextArea
                    rows={8}
                    value={text}
                    onChange={(event) => setText(event.target.value)}
                    placeholder={'13800138000,MOBILE-DIRECT-10,ORDER-0001\n13000000000,UNICOM-DIRECT-50'}
                    data-testid="batch-paste"
                  />
                  <Space>
                    <Button
                      type="primary"
                      disabled={countPastedLines(text) === 0}
                      loading={preview.isPending}
                      data-testid="batch-paste-preview"
                      onClick={() => run({ text, fileName: 'pasted.txt' })}
                    >
                      {t('batch.paste.preview')}
                    </Button>
                    <Typography.Text type="secondary">
                      {t('batch.paste.lines', { count: countPastedLines(text) })}
                    </Typography.Text>
                  </Space>
                </Space>
              ),
            },
          ]}
        />
      </Card>

      {submitted ? (
        <Alert
          type={submitted.failed_rows ? 'warning' : 'success'}
          showIcon
          data-testid="batch-submitted"
          title={t('batch.submitted', { placed: submitted.placed_rows, failed: submitted.failed_rows })}
          action={
            <Button size="small" onClick={() => quietly(() => downloadBatchResult(submitted.batch_id))}>
              {t('batch.downloadResult')}
            </Button>
          }
        />
      ) : preview.data ? (
        <PreviewResult
          key={preview.data.batch_id}
          preview={preview.data}
          onSubmitted={(summary) => {
            setSubmitted(summary);
            preview.reset();
          }}
          onConfirmPorted={confirmPorted}
          onDiscarded={() => preview.reset()}
        />
      ) : null}

      <BatchList />
    </Space>
  );
}
