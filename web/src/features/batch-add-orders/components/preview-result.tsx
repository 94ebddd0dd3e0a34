import { DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, Empty, Modal, Row, Space, Statistic, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSuccessMessage } from '@/lib/feedback';
import { formatFen } from '@/lib/money';
import { formatTime } from '@/lib/platform-time';
import { useSubmission } from '@/lib/submission';
import {
  type BatchPreview,
  type BatchSummary,
  downloadBatchResult,
  type PreviewError,
  useDiscardBatch,
  useSubmitBatch,
} from '../api/batch';

export function quietly(action: () => Promise<void>) {
  // The request client already shows failures.
  action().catch(() => undefined);
}

interface PreviewResultProps {
  preview: BatchPreview;
  /** False once the preview has expired: shown, but no longer submitted or discarded. */
  submittable: boolean;
  onSubmitted: (summary: BatchSummary) => void;
  /** Preview the same input again with carrier-mismatched numbers accepted as ported. */
  onConfirmPorted: (() => void) | null;
  onDiscarded: () => void;
}

/** A preview (just uploaded or reopened): its totals, its flagged lines, submit and discard. */
export function PreviewResult({ preview, submittable, onSubmitted, onConfirmPorted, onDiscarded }: PreviewResultProps) {
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
    >
      {/* In the body, not beside the title: on a phone the title would be squeezed out. */}
      <Typography.Paragraph type="secondary" data-testid="batch-expires">
        {t('batch.expiresAt', { time: formatTime(preview.expires_at) })}
      </Typography.Paragraph>
      {submittable ? null : (
        <Alert
          style={{ marginBottom: 12 }}
          type="error"
          showIcon
          data-testid="batch-expired"
          title={t('batch.expired')}
        />
      )}
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
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('batch.noErrors')} /> }}
        columns={[
          { title: t('batch.lineNo'), dataIndex: 'line_no', width: 80 },
          { title: t('common.column.account'), dataIndex: 'account', render: (v: string) => v || '-' },
          { title: t('common.column.productKey'), dataIndex: 'product_key', render: (v: string) => v || '-' },
          {
            title: t('common.column.merchantOrderId'),
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
      {submittable ? (
        <Space style={{ marginTop: 16 }} wrap>
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
      ) : null}
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

/** A submitted batch: what became of its lines and orders, and the per-line result. */
export function BatchOutcome({ summary }: { summary: BatchSummary }) {
  const { t } = useTranslation();
  const unfinished = summary.in_progress_orders > 0;
  return (
    <Alert
      type={summary.refused_rows || summary.failed_orders ? 'warning' : 'success'}
      showIcon
      data-testid="batch-submitted"
      title={t('batch.submitted', { placed: summary.placed_rows, failed: summary.failed_rows })}
      description={
        <span data-testid="batch-outcome">
          {t('batch.outcome', {
            id: summary.batch_id,
            succeeded: summary.succeeded_orders,
            failed: summary.failed_orders,
            inProgress: summary.in_progress_orders,
          })}
          {unfinished ? ` ${t('batch.outcomeLater')}` : ''}
        </span>
      }
      action={
        <Button
          size="small"
          icon={<DownloadOutlined />}
          onClick={() => quietly(() => downloadBatchResult(summary.batch_id))}
        >
          {t('batch.downloadResult')}
        </Button>
      }
    />
  );
}
