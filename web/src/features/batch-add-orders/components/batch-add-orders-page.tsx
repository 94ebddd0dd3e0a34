import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Input, Progress, Space, Tabs, Typography, Upload } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ActingMerchantGate } from '@/components/acting-merchant/acting-merchant-picker';
import {
  batchDetailQueryOptions,
  countPastedLines,
  downloadTemplate,
  isSubmittable,
  type PreviewInput,
  useBatchDetail,
  useDiscardBatch,
  usePreviewBatch,
} from '../api/batch';
import { BatchList } from './batch-list';
import { BatchOutcome, PreviewResult, quietly } from './preview-result';

const MAX_FILE_BYTES = 32 * 1024 * 1024;

/** Batch add orders (/order/allAddList): administrators choose the merchant first. */
export default function BatchAddOrdersPage() {
  return <ActingMerchantGate>{(merchantId) => <BatchAddOrders merchantId={merchantId} />}</ActingMerchantGate>;
}

/** The batch open on the page, kept in the address (`?batch=<id>`): a reload reopens it. */
function useOpenBatch() {
  const [params, setParams] = useSearchParams();
  const raw = params.get('batch');
  const batchId = raw && /^\d{1,15}$/.test(raw) ? Number(raw) : null;
  // Opening a batch is a step of its own (back returns to the page before it); closing one
  // that is gone (discarded, replaced) is not.
  const open = useCallback(
    (next: number | null, replace = false) =>
      setParams(
        (current) => {
          const params = new URLSearchParams(current);
          if (next === null) params.delete('batch');
          else params.set('batch', String(next));
          return params;
        },
        { replace },
      ),
    [setParams],
  );
  return { batchId, open };
}

/** Upload or paste, preview every line, then submit; or reopen a preview from the list. */
function BatchAddOrders({ merchantId }: { merchantId: number | undefined }) {
  const { t } = useTranslation();
  const preview = usePreviewBatch();
  const [progress, setProgress] = useState<number | null>(null);
  const [text, setText] = useState('');
  const [tooBig, setTooBig] = useState(false);
  // What made the open batch, while this page holds it: it can be previewed again with
  // ported numbers accepted (a reopened preview has no file to read again).
  const [lastInput, setLastInput] = useState<{ input: PreviewInput; batchId: number } | null>(null);
  const discard = useDiscardBatch();
  const { batchId, open } = useOpenBatch();

  const run = (input: PreviewInput, replace = false) => {
    preview.mutate(
      { ...input, merchantId },
      {
        onSettled: () => setProgress(null),
        onSuccess: (answer) => {
          setLastInput({ input, batchId: answer.batch_id });
          open(answer.batch_id, replace);
        },
      },
    );
  };
  // The same lines again, ported numbers accepted; the earlier preview is discarded (never
  // left behind as a batch nobody can submit) and replaced in the address.
  const confirmPorted =
    lastInput && lastInput.batchId === batchId && !lastInput.input.allowPorted
      ? () => {
          // The old preview is closed first, so nothing on the page reads it once discarded.
          open(null, true);
          discard.mutate(lastInput.batchId);
          run({ ...lastInput.input, allowPorted: true }, true);
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

      {batchId !== null ? (
        <OpenBatch key={batchId} batchId={batchId} onConfirmPorted={confirmPorted} onClose={() => open(null, true)} />
      ) : null}

      <BatchList
        onOpen={(id) => {
          open(id);
          window.scrollTo({ top: 0 });
        }}
        onDiscarded={(id) => {
          if (id === batchId) open(null, true);
        }}
      />
    </Space>
  );
}

/**
 * The batch in the address, as the server has it: its preview to submit (until it expires),
 * or, once submitted, what became of it. A batch that is gone says so.
 */
function OpenBatch({
  batchId,
  onConfirmPorted,
  onClose,
}: {
  batchId: number;
  onConfirmPorted: (() => void) | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const detail = useBatchDetail(batchId);
  const client = useQueryClient();
  const [now] = useState(() => Date.now());
  if (detail.isError) {
    return (
      <Alert
        type="error"
        showIcon
        data-testid="batch-gone"
        title={detail.error instanceof Error && detail.error.message ? detail.error.message : t('batch.gone')}
        action={
          <Button size="small" onClick={onClose}>
            {t('batch.close')}
          </Button>
        }
      />
    );
  }
  if (!detail.data) return <Card loading data-testid="batch-loading" />;
  const { batch, preview } = detail.data;
  if (batch.status === 1) return <BatchOutcome summary={batch} />;
  return (
    <PreviewResult
      preview={preview}
      submittable={isSubmittable(detail.data, now)}
      // Shown submitted at once (the list refetches on its own).
      onSubmitted={(summary) =>
        client.setQueryData(batchDetailQueryOptions(batchId).queryKey, { batch: summary, preview })
      }
      onConfirmPorted={onConfirmPorted}
      onDiscarded={onClose}
    />
  );
}
