/**
 * Administrators review merchants' enterprise certifications: a status filter, the
 * records (numbers masked), approve with a confirmation, reject with a required reason.
 * The merchant gets a message-center notice of the decision (server side).
 */
import { ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input, Modal, Popconfirm, Result, Select, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { formatTime } from '@/lib/platform-time';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CERTIFICATION_STATUS,
  statusName,
  useCertificationsForReview,
  useReviewCertification,
  type CertificationRecord,
} from '../api/certification';
import { reportSaved, reportSaveFailed } from './form-feedback';

const MAX_REASON_CHARS = 200;
const STATUS_COLORS: Record<string, string> = {
  auditing: 'processing',
  passed: 'success',
  rejected: 'error',
  withdrawn: 'default',
};
const ALL = 'all';

function RejectDialog({ record, onClose }: { record: CertificationRecord | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  const review = useReviewCertification();
  const close = () => {
    form.resetFields();
    onClose();
  };
  const submit = async () => {
    if (!record) return;
    const { reason } = await form.validateFields();
    try {
      await review.mutateAsync({ id: record.id, decision: 'reject', reason: reason.trim() });
      reportSaved('userSetting.cert.review.done');
      close();
    } catch (error) {
      reportSaveFailed(form, error, { knownFields: ['reason'] });
    }
  };
  return (
    <Modal
      open={record !== null}
      title={t('userSetting.cert.review.reject.title')}
      okText={t('userSetting.cert.review.reject')}
      okButtonProps={{ danger: true, loading: review.isPending, ...{ 'data-testid': 'certification-reject-submit' } }}
      cancelText={t('common.cancel')}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={close}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="reason"
          label={t('userSetting.cert.review.reason')}
          rules={[
            { required: true, whitespace: true, message: t('userSetting.cert.review.reason.required') },
            { max: MAX_REASON_CHARS, message: t('userSetting.cert.review.reason.tooLong', { max: MAX_REASON_CHARS }) },
          ]}
        >
          <Input.TextArea rows={3} showCount maxLength={MAX_REASON_CHARS + 20} data-testid="certification-reject-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function CertificationReview() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<number | typeof ALL>(CERTIFICATION_STATUS.auditing);
  const records = useCertificationsForReview(status === ALL ? undefined : status);
  const review = useReviewCertification();
  const [rejecting, setRejecting] = useState<CertificationRecord | null>(null);

  const approve = async (record: CertificationRecord) => {
    try {
      await review.mutateAsync({ id: record.id, decision: 'approve' });
      reportSaved('userSetting.cert.review.done');
    } catch {
      // The request client has shown the server's message.
    }
  };

  const columns: ColumnsType<CertificationRecord> = [
    { key: 'mid', title: t('userSetting.cert.review.merchant'), render: (_, record) => `${record.mid ?? '-'} · ${record.username}` },
    { key: 'enterprise', title: t('userSetting.cert.enterpriseName'), dataIndex: 'enterprise_name' },
    { key: 'legalPerson', title: t('userSetting.cert.legalPerson'), dataIndex: 'legal_person' },
    { key: 'content', title: t('userSetting.cert.column.content'), dataIndex: 'certification_content' },
    {
      key: 'status',
      title: t('userSetting.cert.column.status'),
      render: (_, record) => {
        const name = statusName(record.status);
        return (
          <Space orientation="vertical" size={2}>
            <Tag color={name ? STATUS_COLORS[name] : 'default'}>{name ? t(`userSetting.cert.status.${name}`) : record.status}</Tag>
            {record.reject_reason ? t('userSetting.cert.rejectReason', { reason: record.reject_reason }) : null}
          </Space>
        );
      },
    },
    {
      key: 'time',
      title: t('userSetting.cert.column.time'),
      dataIndex: 'time',
      render: (time: string) => formatTime(time),
    },
    {
      key: 'operation',
      title: t('userSetting.cert.column.operation'),
      render: (_, record) =>
        record.status === CERTIFICATION_STATUS.auditing ? (
          <Space size={0}>
            <Popconfirm
              title={t('userSetting.cert.review.approve.confirm')}
              okText={t('userSetting.cert.review.approve')}
              cancelText={t('common.cancel')}
              onConfirm={() => approve(record)}
            >
              <Button type="link" size="small" data-testid={`certification-approve-${record.id}`}>
                {t('userSetting.cert.review.approve')}
              </Button>
            </Popconfirm>
            <Button
              type="link"
              size="small"
              danger
              onClick={() => setRejecting(record)}
              data-testid={`certification-reject-${record.id}`}
            >
              {t('userSetting.cert.review.reject')}
            </Button>
          </Space>
        ) : null,
    },
  ];

  const statusOptions = [
    ...(['auditing', 'passed', 'rejected', 'withdrawn'] as const).map((name) => ({
      value: CERTIFICATION_STATUS[name] as number | typeof ALL,
      label: t(`userSetting.cert.status.${name}`),
    })),
    { value: ALL as number | typeof ALL, label: t('userSetting.cert.review.all') },
  ];

  return (
    <Card
      title={t('userSetting.cert.review.title')}
      data-testid="certification-review"
      extra={
        <Space>
          {t('userSetting.cert.review.filter')}
          <Select
            style={{ width: 140 }}
            value={status}
            onChange={setStatus}
            options={statusOptions}
            data-testid="certification-review-status"
          />
        </Space>
      }
    >
      {records.isError ? (
        <Result
          status="error"
          title={t('common.loadFailed')}
          subTitle={records.error.message}
          extra={
            <Button icon={<ReloadOutlined />} onClick={() => void records.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      ) : (
        <Table
          rowKey="id"
          size="middle"
          loading={records.isPending}
          columns={columns}
          dataSource={records.data ?? []}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          locale={{ emptyText: t('userSetting.cert.review.empty') }}
          scroll={{ x: 'max-content' }}
          data-testid="certification-review-table"
        />
      )}
      <RejectDialog record={rejecting} onClose={() => setRejecting(null)} />
    </Card>
  );
}
