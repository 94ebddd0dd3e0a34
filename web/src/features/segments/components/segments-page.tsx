import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Descriptions, Popconfirm, Space, Table, Tag, Typography, Upload } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSuccessMessage } from '@/lib/feedback';
import { serverFieldErrors } from '@/lib/form-errors';
import { carrierKey } from '@/lib/order-labels';
import { formatTime } from '@/lib/platform-time';
import { provinceKey } from '@/lib/provinces';
import {
  exportSegments,
  type ProvinceCount,
  type SegmentChange,
  type SegmentPlace,
  type SegmentPreview,
  useApplySegments,
  usePreviewSegments,
  useSegmentSummary,
} from '../api/segments';
import '@/locales/segments-texts';

const CHANGE_COLORS: Record<string, string> = { added: 'success', changed: 'warning', removed: 'error' };

/** A segment's place as people read it: 广东 深圳 · 中国移动. */
function PlaceText({ place }: { place: SegmentPlace | null | undefined }) {
  const { t, i18n } = useTranslation();
  if (!place) return <Typography.Text type="secondary">-</Typography.Text>;
  const english = i18n.language === 'en-US';
  const where = english ? `${place.city_en}, ${place.province_en}` : `${place.province} ${place.city}`;
  const carrier = place.carrier ? t(carrierKey(place.carrier)) : t('segments.unknownCarrier');
  return (
    <span>
      {where} · {carrier}
    </span>
  );
}

/** The table in use: its size, where it came from, who replaced it last. */
function CurrentTable({ onUpload, reading }: { onUpload: (file: File) => void; reading: boolean }) {
  const { t } = useTranslation();
  const summary = useSegmentSummary();
  const data = summary.data;
  const source =
    data?.source === 'upload'
      ? t('segments.source.upload', { file: data.file_name ?? '' })
      : t('segments.source.default');
  return (
    <Card
      title={t('segments.current')}
      loading={summary.isPending}
      data-testid="segments-current"
      extra={
        <Space wrap>
          <Button icon={<DownloadOutlined />} onClick={() => void exportSegments()} data-testid="segments-export">
            {t('segments.export')}
          </Button>
          <Upload
            accept=".csv,.txt,.gz,.dat"
            showUploadList={false}
            maxCount={1}
            disabled={reading}
            beforeUpload={(file) => {
              onUpload(file);
              return false;
            }}
          >
            <Button type="primary" icon={<UploadOutlined />} loading={reading} data-testid="segments-upload">
              {t('segments.upload')}
            </Button>
          </Upload>
        </Space>
      }
    >
      <Descriptions column={{ xs: 1, sm: 2, lg: 3 }} size="small">
        <Descriptions.Item label={t('segments.rows')}>
          <span data-testid="segments-rows">{data?.rows.toLocaleString() ?? '-'}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('segments.provinces')}>{data?.provinces ?? '-'}</Descriptions.Item>
        <Descriptions.Item label={t('segments.cities')}>{data?.cities ?? '-'}</Descriptions.Item>
        <Descriptions.Item label={t('segments.source')}>
          <span data-testid="segments-source">{data ? source : '-'}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('segments.appliedBy')}>{data?.applied_by ?? '-'}</Descriptions.Item>
        <Descriptions.Item label={t('segments.appliedAt')}>
          {data?.applied_at ? formatTime(data.applied_at) : '-'}
        </Descriptions.Item>
      </Descriptions>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
        {t('segments.uploadHint')}
      </Typography.Paragraph>
    </Card>
  );
}

/** What a file would change, and the button that applies it. */
function PreviewCard({ preview, onDone }: { preview: SegmentPreview; onDone: () => void }) {
  const { t } = useTranslation();
  const apply = useApplySegments();
  // A second press before the first answer's render would apply again (then be told the
  // preview is gone): the first press holds until it is answered.
  const applying = useRef(false);
  const nothing = preview.added + preview.changed + preview.removed === 0;
  const provinceColumns: ColumnsType<ProvinceCount> = [
    {
      key: 'province',
      title: t('segments.provinces'),
      dataIndex: 'province_code',
      render: (code: string) => t(provinceKey(Number(code)), { defaultValue: code }),
    },
    {
      key: 'before',
      title: t('segments.before'),
      dataIndex: 'before',
      align: 'right',
      render: (count: number) => count.toLocaleString(),
    },
    {
      key: 'after',
      title: t('segments.after'),
      dataIndex: 'after',
      align: 'right',
      render: (count: number) => count.toLocaleString(),
    },
    {
      key: 'difference',
      title: t('segments.difference'),
      align: 'right',
      render: (_: unknown, row: ProvinceCount) => {
        const difference = row.after - row.before;
        return (
          <Typography.Text type={difference < 0 ? 'danger' : 'success'}>
            {difference > 0 ? `+${difference}` : difference}
          </Typography.Text>
        );
      },
    },
  ];
  const changeColumns: ColumnsType<SegmentChange> = [
    { key: 'prefix', title: t('segments.prefix'), dataIndex: 'prefix', width: 110 },
    {
      key: 'change',
      title: t('segments.change'),
      dataIndex: 'change',
      width: 90,
      render: (change: string) => <Tag color={CHANGE_COLORS[change]}>{t(`segments.change.${change}`)}</Tag>,
    },
    {
      key: 'before',
      title: t('segments.before'),
      render: (_: unknown, row: SegmentChange) => <PlaceText place={row.before} />,
    },
    {
      key: 'after',
      title: t('segments.after'),
      render: (_: unknown, row: SegmentChange) => <PlaceText place={row.after} />,
    },
  ];
  const submit = () => {
    if (applying.current) return;
    applying.current = true;
    apply.mutate(preview.upload_id, {
      onSettled: () => {
        applying.current = false;
      },
      onSuccess: (result) => {
        showSuccessMessage(t('segments.applied', { rows: result.rows.toLocaleString() }));
        onDone();
      },
    });
  };
  return (
    <Card
      title={t('segments.preview', { file: preview.file_name })}
      data-testid="segments-preview"
      extra={<Tag>{t(`segments.format.${preview.format}`)}</Tag>}
    >
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Alert
          type={nothing ? 'info' : 'warning'}
          showIcon
          data-testid="segments-summary"
          title={t('segments.summary', {
            rows: preview.rows.toLocaleString(),
            added: preview.added.toLocaleString(),
            changed: preview.changed.toLocaleString(),
            removed: preview.removed.toLocaleString(),
            unchanged: preview.unchanged.toLocaleString(),
          })}
          description={nothing ? t('segments.noChange') : undefined}
        />
        {preview.provinces.length > 0 ? (
          <Table<ProvinceCount>
            title={() => t('segments.byProvince')}
            size="small"
            rowKey="province_code"
            columns={provinceColumns}
            dataSource={preview.provinces}
            pagination={false}
            scroll={{ x: 'max-content' }}
            data-testid="segments-provinces"
          />
        ) : null}
        {preview.samples.length > 0 ? (
          <Table<SegmentChange>
            title={() => t('segments.samples', { count: preview.samples.length })}
            size="small"
            rowKey="prefix"
            columns={changeColumns}
            dataSource={preview.samples}
            pagination={{ pageSize: 20, showSizeChanger: false, hideOnSinglePage: true }}
            scroll={{ x: 'max-content' }}
            data-testid="segments-samples"
          />
        ) : null}
        <Space wrap>
          <Popconfirm title={t('segments.applyConfirm')} onConfirm={submit} disabled={nothing}>
            <Button type="primary" danger disabled={nothing} loading={apply.isPending} data-testid="segments-apply">
              {t('segments.apply')}
            </Button>
          </Popconfirm>
          <Button onClick={onDone} disabled={apply.isPending} data-testid="segments-discard">
            {t('segments.discard')}
          </Button>
        </Space>
      </Space>
    </Card>
  );
}

/** Number segments (/qoute/segments, administrators): the table in use, refreshed by upload with a preview. */
export default function SegmentsPage() {
  const { t } = useTranslation();
  const read = usePreviewSegments();
  const [problems, setProblems] = useState<string[]>([]);
  const [preview, setPreview] = useState<SegmentPreview | null>(null);
  const upload = (file: File) => {
    if (read.isPending) return;
    setProblems([]);
    setPreview(null);
    read.mutate(file, {
      onSuccess: setPreview,
      onError: (error) => setProblems(serverFieldErrors(error).map(({ message }) => message)),
    });
  };
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="segments-page">
      <CurrentTable onUpload={upload} reading={read.isPending} />
      {read.isPending ? <Alert type="info" showIcon title={t('segments.reading')} /> : null}
      {problems.length > 0 ? (
        <Alert
          type="error"
          showIcon
          title={t('segments.refused')}
          data-testid="segments-errors"
          description={
            <ul style={{ margin: 0, paddingInlineStart: 20 }}>
              {problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          }
        />
      ) : null}
      {preview ? <PreviewCard key={preview.upload_id} preview={preview} onDone={() => setPreview(null)} /> : null}
    </Space>
  );
}
