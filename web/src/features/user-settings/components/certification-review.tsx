/**
 * Administrators review merchants' enterprise certifications (their own page,
 * /finance/certifications): a status filter and the records (numbers masked). A decision is
 * made only in the review drawer, which shows the evidence first: the full ID number and
 * credit code, each with the result of its check character, and the organisation code.
 * Approve asks for a confirmation naming the enterprise; reject needs a reason. The
 * merchant gets a message-center notice of the decision (server side).
 */
import { ReloadOutlined } from '@ant-design/icons';
import {
  Button,
  Card,
  Descriptions,
  Drawer,
  Form,
  Image,
  Input,
  Modal,
  Popconfirm,
  Result,
  Select,
  Skeleton,
  Space,
  Table,
  Tag,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { formatTime } from '@/lib/platform-time';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CERTIFICATION_STATUS,
  statusName,
  useCertificationDetail,
  useCertificationLicence,
  useCertificationsForReview,
  useReviewCertification,
  type CertificationRecord,
} from '../api/certification';
import { reportSaved, reportSaveFailed } from './form-feedback';
import { isOrganizationCode, isResidentId, isUnifiedSocialCreditCode } from './profile-validation';

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
          <Input.TextArea
            rows={3}
            showCount
            maxLength={MAX_REASON_CHARS + 20}
            data-testid="certification-reject-reason"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** A check character's verdict next to a number: the reviewer sees a mistyped number at once. */
function CheckTag({ valid }: { valid: boolean | null }) {
  const { t } = useTranslation();
  if (valid === null) return null;
  return (
    <Tag color={valid ? 'success' : 'error'} data-testid="certification-check">
      {valid ? t('userSetting.cert.review.checkPassed') : t('userSetting.cert.review.checkFailed')}
    </Tag>
  );
}

/** The licence image of a record, through an object URL (the request carries the session). */
function LicenceImage({ record }: { record: CertificationRecord }) {
  const { t } = useTranslation();
  const licence = useCertificationLicence(record.id, record.has_licence);
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!licence.data) return;
    const objectUrl = URL.createObjectURL(licence.data);
    // The object URL is made and revoked with the blob: an effect's job.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [licence.data]);
  if (!record.has_licence) {
    return (
      <Tag color="orange" data-testid="evidence-licence-missing">
        {t('userSetting.cert.licence.missing')}
      </Tag>
    );
  }
  return url ? (
    <Image src={url} width={240} alt={t('userSetting.cert.licence')} data-testid="evidence-licence" />
  ) : (
    <Skeleton.Image active />
  );
}

/** The evidence of one record in full, and the decision: approve (confirmed) or reject. */
function ReviewDrawer({
  id,
  onClose,
  onReject,
}: {
  id: number | null;
  onClose: () => void;
  onReject: (record: CertificationRecord) => void;
}) {
  const { t } = useTranslation();
  const detail = useCertificationDetail(id);
  const review = useReviewCertification();
  const record = detail.data;
  const certificate = (type: string) =>
    type ? t(`userSetting.cert.certificate.${type}`, { defaultValue: type }) : '-';
  const approve = async (target: CertificationRecord) => {
    try {
      await review.mutateAsync({ id: target.id, decision: 'approve' });
      reportSaved('userSetting.cert.review.done');
      onClose();
    } catch {
      // The request client has shown the server's message.
    }
  };
  const personValid =
    record && record.legal_person_certificate_type === 'id_card'
      ? isResidentId(record.legal_person_certificate_number)
      : null;
  const enterpriseValid =
    record && record.enterprise_certificate_type === 'unified_social_credit_code'
      ? isUnifiedSocialCreditCode(record.enterprise_certificate_number)
      : null;
  const auditing = record?.status === CERTIFICATION_STATUS.auditing;
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      title={t('userSetting.cert.review.evidence')}
      size={600}
      destroyOnHidden
      data-testid="certification-evidence"
      extra={
        record && auditing ? (
          <Space>
            <Button danger onClick={() => onReject(record)} data-testid={`certification-reject-${record.id}`}>
              {t('userSetting.cert.review.reject')}
            </Button>
            <Popconfirm
              title={t('userSetting.cert.review.approve.confirmNamed', { enterprise: record.enterprise_name })}
              okText={t('userSetting.cert.review.approve')}
              cancelText={t('common.cancel')}
              onConfirm={() => approve(record)}
              okButtonProps={{ 'data-testid': 'certification-approve-confirm' } as Record<string, string>}
            >
              <Button type="primary" loading={review.isPending} data-testid={`certification-approve-${record.id}`}>
                {t('userSetting.cert.review.approve')}
              </Button>
            </Popconfirm>
          </Space>
        ) : null
      }
    >
      {detail.isLoading ? <Skeleton active /> : null}
      {record ? (
        <Descriptions column={1} size="small" bordered data-testid="certification-evidence-fields">
          <Descriptions.Item
            label={t('userSetting.cert.review.merchant')}
          >{`${record.mid ?? '-'} · ${record.username}`}</Descriptions.Item>
          <Descriptions.Item label={t('userSetting.cert.column.time')}>{formatTime(record.time)}</Descriptions.Item>
          <Descriptions.Item label={t('userSetting.cert.enterpriseName')}>{record.enterprise_name}</Descriptions.Item>
          <Descriptions.Item label={t('userSetting.cert.enterpriseCertificate')}>
            <Space wrap>
              {certificate(record.enterprise_certificate_type)}
              <span data-testid="evidence-enterprise-number">{record.enterprise_certificate_number}</span>
              <CheckTag valid={enterpriseValid} />
            </Space>
          </Descriptions.Item>
          <Descriptions.Item label={t('userSetting.cert.organizationCode')}>
            <Space wrap>
              {record.organization_code || t('userSetting.cert.review.inCreditCode')}
              {record.organization_code ? <CheckTag valid={isOrganizationCode(record.organization_code)} /> : null}
            </Space>
          </Descriptions.Item>
          <Descriptions.Item label={t('userSetting.cert.legalPerson')}>{record.legal_person}</Descriptions.Item>
          <Descriptions.Item label={t('userSetting.cert.legalPersonCertificateNumber')}>
            <Space wrap>
              {certificate(record.legal_person_certificate_type)}
              <span data-testid="evidence-person-number">{record.legal_person_certificate_number}</span>
              <CheckTag valid={personValid} />
            </Space>
          </Descriptions.Item>
          <Descriptions.Item label={t('userSetting.cert.licence')}>
            <LicenceImage record={record} />
          </Descriptions.Item>
        </Descriptions>
      ) : null}
    </Drawer>
  );
}

export function CertificationReview() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<number | typeof ALL>(CERTIFICATION_STATUS.auditing);
  const records = useCertificationsForReview(status === ALL ? undefined : status);
  const [rejecting, setRejecting] = useState<CertificationRecord | null>(null);
  const [reviewing, setReviewing] = useState<number | null>(null);

  const columns: ColumnsType<CertificationRecord> = [
    {
      key: 'mid',
      title: t('userSetting.cert.review.merchant'),
      render: (_, record) => `${record.mid ?? '-'} · ${record.username}`,
    },
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
            <Tag color={name ? STATUS_COLORS[name] : 'default'}>
              {name ? t(`userSetting.cert.status.${name}`) : record.status}
            </Tag>
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
      render: (_, record) => (
        <Button
          type="link"
          size="small"
          onClick={() => setReviewing(record.id)}
          data-testid={`certification-open-${record.id}`}
        >
          {record.status === CERTIFICATION_STATUS.auditing
            ? t('userSetting.cert.review.open')
            : t('userSetting.cert.view')}
        </Button>
      ),
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
            aria-label={t('userSetting.cert.review.filter')}
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
      <ReviewDrawer
        id={reviewing}
        onClose={() => setReviewing(null)}
        onReject={(record) => {
          setReviewing(null);
          setRejecting(record);
        }}
      />
      <RejectDialog record={rejecting} onClose={() => setRejecting(null)} />
    </Card>
  );
}
