import { ReloadOutlined, UploadOutlined } from '@ant-design/icons';
import {
  Alert,
  Button,
  Card,
  Col,
  Descriptions,
  Drawer,
  Empty,
  Form,
  Input,
  Popconfirm,
  Result,
  Row,
  Select,
  Skeleton,
  Space,
  Table,
  Tag,
  Typography,
  Upload,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { formatTime } from '@/lib/platform-time';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { showSuccessMessage } from '@/lib/feedback';
import {
  canSubmitCertification,
  CERTIFICATION_STATUS,
  currentCertification,
  ENTERPRISE_CERTIFICATE_TYPES,
  LICENCE_TYPES,
  MAX_LICENCE_BYTES,
  PERSON_CERTIFICATE_TYPES,
  uploadCertificationLicence,
  statusName,
  useCertificationDetail,
  useCertifications,
  useSubmitCertification,
  useWithdrawCertification,
  type CertificationRecord,
  type CertificationSubmitRequest,
} from '../api/certification';
import { useUserStore } from '@/stores/user-store';
import { reportSaved, reportSaveFailed } from './form-feedback';
import {
  isOrganizationCode,
  isPlainCertificateNumber,
  isResidentId,
  isUnifiedSocialCreditCode,
} from './profile-validation';

const STATUS_COLORS: Record<string, string> = {
  auditing: 'processing',
  passed: 'success',
  rejected: 'error',
  withdrawn: 'default',
};

export function CertificationStatusTag({ record }: { record: Pick<CertificationRecord, 'status' | 'reject_reason'> }) {
  const { t } = useTranslation();
  const name = statusName(record.status);
  return (
    <Space orientation="vertical" size={2}>
      <Tag color={name ? STATUS_COLORS[name] : 'default'} data-testid="certification-status-tag">
        {name ? t(`userSetting.cert.status.${name}`) : String(record.status)}
      </Tag>
      {record.status === CERTIFICATION_STATUS.rejected && record.reject_reason ? (
        <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="certification-reject-reason">
          {t('userSetting.cert.rejectReason', { reason: record.reject_reason })}
        </Typography.Text>
      ) : null}
    </Space>
  );
}

function useCertificateLabel() {
  const { t } = useTranslation();
  return (type: string) => (type ? t(`userSetting.cert.certificate.${type}`, { defaultValue: type }) : '-');
}

/** The fields of one record, as the status card and the detail drawer show them. */
function RecordDescriptions({ record, column }: { record: CertificationRecord; column: number }) {
  const { t } = useTranslation();
  const certificate = useCertificateLabel();
  return (
    <Descriptions
      column={column}
      size="small"
      bordered
      items={[
        {
          key: 'accountType',
          label: t('userSetting.cert.accountType'),
          children: t(`userSetting.cert.accountType.${record.certification_type}`, {
            defaultValue: record.certification_type,
          }),
        },
        { key: 'status', label: t('userSetting.cert.status'), children: <CertificationStatusTag record={record} /> },
        { key: 'time', label: t('userSetting.cert.time'), children: formatTime(record.decided_at ?? record.time) },
        { key: 'legalPerson', label: t('userSetting.cert.legalPerson'), children: record.legal_person },
        {
          key: 'personCertificate',
          label: t('userSetting.cert.legalPersonCertificate'),
          children: `${certificate(record.legal_person_certificate_type)} ${record.legal_person_certificate_number}`,
        },
        { key: 'enterpriseName', label: t('userSetting.cert.enterpriseName'), children: record.enterprise_name },
        {
          key: 'enterpriseCertificate',
          label: t('userSetting.cert.enterpriseCertificate'),
          children: `${certificate(record.enterprise_certificate_type)} ${record.enterprise_certificate_number}`,
        },
        { key: 'organizationCode', label: t('userSetting.cert.organizationCode'), children: record.organization_code },
      ]}
    />
  );
}

function StatusCard({ records }: { records: CertificationRecord[] }) {
  const { t } = useTranslation();
  const current = currentCertification(records);
  return (
    <Card size="small" title={t('userSetting.cert.current')} data-testid="certification-status-card">
      {current ? (
        <RecordDescriptions record={current} column={2} />
      ) : (
        <Empty description={t('userSetting.cert.none')} data-testid="certification-none" />
      )}
    </Card>
  );
}

type SubmitValues = Omit<CertificationSubmitRequest, 'account_type'>;
const SUBMIT_FIELDS = [
  'account_type',
  'legal_person',
  'legal_person_certificate_type',
  'legal_person_certificate_number',
  'enterprise_name',
  'enterprise_certificate_type',
  'enterprise_certificate_number',
  'organization_code',
] as const;

function SubmitForm() {
  const { t } = useTranslation();
  const [form] = Form.useForm<SubmitValues>();
  const submit = useSubmitCertification();
  const certificate = useCertificateLabel();
  // The licence image: held here, sent after the record exists (it is bound to the record).
  const [licence, setLicence] = useState<File | null>(null);
  const [licenceError, setLicenceError] = useState<string | null>(null);
  const pickLicence = (file: File) => {
    if (!LICENCE_TYPES.includes(file.type)) {
      setLicenceError(t('userSetting.cert.licence.type'));
    } else if (file.size > MAX_LICENCE_BYTES) {
      setLicenceError(t('userSetting.cert.licence.size', { max: MAX_LICENCE_BYTES / 1024 / 1024 }));
    } else {
      setLicenceError(null);
      setLicence(file);
    }
    return false;
  };
  const required = { required: true, whitespace: true, message: t('userSetting.rule.required') };
  const numberRule =
    (typeField: keyof SubmitValues) =>
    ({ getFieldValue }: { getFieldValue: (name: keyof SubmitValues) => string | undefined }) => ({
      validator: (_: unknown, value?: string) => {
        const number = (value ?? '').trim();
        if (!number) return Promise.resolve();
        const type = getFieldValue(typeField);
        if (type === 'unified_social_credit_code') {
          return isUnifiedSocialCreditCode(number)
            ? Promise.resolve()
            : Promise.reject(new Error(t('userSetting.rule.creditCode.invalid')));
        }
        const valid = type === 'id_card' ? isResidentId(number) : isPlainCertificateNumber(number);
        return valid ? Promise.resolve() : Promise.reject(new Error(t('userSetting.rule.certificateNumber.invalid')));
      },
    });

  const onFinish = async (values: SubmitValues) => {
    const trimmed = Object.fromEntries(
      Object.entries(values).map(([key, value]) => [key, typeof value === 'string' ? value.trim() : value]),
    ) as SubmitValues;
    try {
      const record = await submit.mutateAsync({ account_type: 'enterprise', ...trimmed });
      if (licence) await uploadCertificationLicence(record.id, licence);
      form.resetFields();
      setLicence(null);
      reportSaved('common.submit.success');
    } catch (error) {
      // The "already under audit" message comes on account_type, which the form has no field for.
      reportSaveFailed(form, error, { knownFields: SUBMIT_FIELDS });
    }
  };

  return (
    <Card size="small" title={t('userSetting.cert.submit.title')} data-testid="certification-form-card">
      <Form<SubmitValues>
        form={form}
        layout="vertical"
        onFinish={onFinish}
        data-testid="certification-form"
        style={{ maxWidth: 640 }}
      >
        <Form.Item label={t('userSetting.cert.accountType')}>
          <Typography.Text>{t('userSetting.cert.accountType.enterprise')}</Typography.Text>
        </Form.Item>
        <Form.Item name="legal_person" label={t('userSetting.cert.legalPerson')} rules={[required]}>
          <Input data-testid="certification-legal-person" />
        </Form.Item>
        <Row gutter={16}>
          <Col xs={24} sm={10}>
            <Form.Item
              name="legal_person_certificate_type"
              label={t('userSetting.cert.legalPersonCertificateType')}
              rules={[required]}
              initialValue="id_card"
            >
              <Select
                data-testid="certification-person-type"
                options={PERSON_CERTIFICATE_TYPES.map((type) => ({ value: type, label: certificate(type) }))}
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={14}>
            <Form.Item
              name="legal_person_certificate_number"
              label={t('userSetting.cert.legalPersonCertificateNumber')}
              rules={[required, numberRule('legal_person_certificate_type')]}
              dependencies={['legal_person_certificate_type']}
            >
              <Input data-testid="certification-person-number" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="enterprise_name" label={t('userSetting.cert.enterpriseName')} rules={[required]}>
          <Input data-testid="certification-enterprise-name" />
        </Form.Item>
        <Row gutter={16}>
          <Col xs={24} sm={10}>
            <Form.Item
              name="enterprise_certificate_type"
              label={t('userSetting.cert.enterpriseCertificateType')}
              rules={[required]}
              initialValue="unified_social_credit_code"
            >
              <Select
                data-testid="certification-enterprise-type"
                options={ENTERPRISE_CERTIFICATE_TYPES.map((type) => ({ value: type, label: certificate(type) }))}
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={14}>
            <Form.Item
              name="enterprise_certificate_number"
              label={t('userSetting.cert.enterpriseCertificateNumber')}
              rules={[required, numberRule('enterprise_certificate_type')]}
              dependencies={['enterprise_certificate_type']}
            >
              <Input data-testid="certification-enterprise-number" />
            </Form.Item>
          </Col>
        </Row>
        {/* The credit code replaced the organisation code (it holds it): asked only with an old licence. */}
        <Form.Item noStyle dependencies={['enterprise_certificate_type']}>
          {({ getFieldValue }) =>
            getFieldValue('enterprise_certificate_type') === 'unified_social_credit_code' ? null : (
              <Form.Item
                name="organization_code"
                label={t('userSetting.cert.organizationCode')}
                rules={[
                  required,
                  {
                    validator: (_: unknown, value?: string) =>
                      !value?.trim() || isOrganizationCode(value.trim())
                        ? Promise.resolve()
                        : Promise.reject(new Error(t('userSetting.rule.organizationCode.invalid'))),
                  },
                ]}
              >
                <Input data-testid="certification-organization-code" />
              </Form.Item>
            )
          }
        </Form.Item>
        <Form.Item
          label={t('userSetting.cert.licence')}
          extra={t('userSetting.cert.licence.hint', { max: MAX_LICENCE_BYTES / 1024 / 1024 })}
          validateStatus={licenceError ? 'error' : undefined}
          help={licenceError ?? undefined}
        >
          <Upload
            accept={LICENCE_TYPES.join(',')}
            maxCount={1}
            beforeUpload={pickLicence}
            fileList={licence ? [{ uid: 'licence', name: licence.name, status: 'done' }] : []}
            onRemove={() => setLicence(null)}
          >
            <Button icon={<UploadOutlined />} data-testid="certification-licence">
              {t('userSetting.cert.licence.choose')}
            </Button>
          </Upload>
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={submit.isPending} data-testid="certification-submit">
          {t('userSetting.cert.submit')}
        </Button>
      </Form>
    </Card>
  );
}

function DetailDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const detail = useCertificationDetail(id);
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      title={t('userSetting.cert.detail.title')}
      size={560}
      destroyOnHidden
      data-testid="certification-detail"
    >
      {detail.isPending ? (
        <Skeleton active />
      ) : detail.isError ? (
        <Result status="error" title={t('common.loadFailed')} subTitle={detail.error.message} />
      ) : (
        <RecordDescriptions record={detail.data} column={1} />
      )}
    </Drawer>
  );
}

function RecordsTable({ records }: { records: CertificationRecord[] }) {
  const { t } = useTranslation();
  const withdraw = useWithdrawCertification();
  const [viewing, setViewing] = useState<number | null>(null);

  const columns: ColumnsType<CertificationRecord> = [
    {
      key: 'type',
      title: t('userSetting.cert.column.type'),
      dataIndex: 'certification_type',
      render: (type: string) => t(`userSetting.cert.type.${type}`, { defaultValue: type }),
    },
    { key: 'content', title: t('userSetting.cert.column.content'), dataIndex: 'certification_content' },
    {
      key: 'status',
      title: t('userSetting.cert.column.status'),
      render: (_, record) => <CertificationStatusTag record={record} />,
    },
    { key: 'time', title: t('userSetting.cert.column.time'), dataIndex: 'time', render: formatTime },
    {
      key: 'operation',
      title: t('userSetting.cert.column.operation'),
      render: (_, record) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            onClick={() => setViewing(record.id)}
            data-testid={`certification-view-${record.id}`}
          >
            {t('userSetting.cert.view')}
          </Button>
          {record.status === CERTIFICATION_STATUS.auditing ? (
            <Popconfirm
              title={t('userSetting.cert.withdraw.confirm')}
              okText={t('userSetting.cert.withdraw')}
              cancelText={t('common.cancel')}
              okButtonProps={{ danger: true, 'data-testid': 'certification-withdraw-confirm' }}
              onConfirm={async () => {
                await withdraw.mutateAsync(record.id);
                showSuccessMessage(t('userSetting.cert.withdraw.done'));
              }}
            >
              <Button type="link" size="small" danger data-testid={`certification-withdraw-${record.id}`}>
                {t('userSetting.cert.withdraw')}
              </Button>
            </Popconfirm>
          ) : null}
        </Space>
      ),
    },
  ];

  return (
    <Card size="small" title={t('userSetting.cert.records')} data-testid="certification-records">
      <Table<CertificationRecord>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={records}
        pagination={records.length > 10 ? { pageSize: 10 } : false}
        locale={{ emptyText: <Empty description={t('userSetting.cert.records.empty')} /> }}
        scroll={{ x: 640 }}
      />
      <DetailDrawer id={viewing} onClose={() => setViewing(null)} />
    </Card>
  );
}

/**
 * Real-name (enterprise) certification: status, the submit form when allowed, the records.
 * `username`: whose records to show (an administrator's list holds every merchant's).
 */
export function CertificationTab({ username }: { username: string }) {
  const role = useUserStore((state) => state.role);
  // Administrators have no enterprise of their own to certify: they review merchants', on
  // a page of their own (with a menu entry and a badge); this tab points there.
  return role === 'admin' ? <ReviewElsewhere /> : <OwnCertification username={username} />;
}

function ReviewElsewhere() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Card size="small" data-testid="certification-review-elsewhere">
      <Typography.Paragraph>{t('userSetting.cert.review.elsewhere')}</Typography.Paragraph>
      <Button
        type="primary"
        onClick={() => navigate('/finance/certifications')}
        data-testid="certification-review-goto"
      >
        {t('userSetting.cert.review.goto')}
      </Button>
    </Card>
  );
}

/** The signed-in user's own certification: status, submission and records. */
function OwnCertification({ username }: { username: string }) {
  const { t } = useTranslation();
  const records = useCertifications();

  if (records.isPending) return <Skeleton active paragraph={{ rows: 8 }} data-testid="certification-loading" />;
  if (records.isError) {
    return (
      <Result
        status="error"
        title={t('common.loadFailed')}
        subTitle={records.error.message}
        data-testid="certification-error"
        extra={
          <Button icon={<ReloadOutlined />} onClick={() => void records.refetch()}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  }
  const list = records.data.filter((record) => record.username === username);
  const auditing = list.some((record) => record.status === CERTIFICATION_STATUS.auditing);
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="certification-tab">
      <StatusCard records={list} />
      {canSubmitCertification(list) ? (
        <SubmitForm />
      ) : auditing ? (
        <Alert
          type="info"
          showIcon
          title={t('userSetting.cert.submit.blockedAuditing')}
          data-testid="certification-blocked"
        />
      ) : null}
      <RecordsTable records={list} />
    </Space>
  );
}
