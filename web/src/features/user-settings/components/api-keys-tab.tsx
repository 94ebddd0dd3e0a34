import { CopyOutlined, DownloadOutlined, KeyOutlined, PlusOutlined, ReadOutlined } from '@ant-design/icons';
import {
  Alert,
  Button,
  Form,
  Input,
  Modal,
  Popconfirm,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
  type ButtonProps,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSuccessMessage } from '@/lib/feedback';
import { applyServerFieldErrors } from '@/lib/form-errors';
import { formatTime } from '@/lib/platform-time';
import {
  useApiKeys,
  useCreateApiKey,
  useRevokeApiKey,
  useSetApiKeyLegacy,
  type ApiKeyItem,
  type CreatedApiKey,
} from '../api/api-keys';
import { downloadText } from './export-profile';
import '@/locales/api-keys-texts';

/** At most this many active keys per merchant (the server checks it too). */
export const MAX_ACTIVE_KEYS = 2;

interface CreateValues {
  password?: string;
  code?: string;
}

/** The create dialog: current password and, when two-factor is on, a code. */
function CreateKeyDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (key: CreatedApiKey) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<CreateValues>();
  const create = useCreateApiKey();
  const submit = async (values: CreateValues) => {
    try {
      const code = values.code?.trim();
      const created = await create.mutateAsync({ password: values.password ?? '', ...(code ? { code } : {}) });
      form.resetFields();
      onCreated(created);
    } catch (error) {
      applyServerFieldErrors(form, error, { knownFields: ['password', 'code'] });
    }
  };
  return (
    <Modal
      open={open}
      title={t('apiKeys.create.title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('apiKeys.create.ok')}
      confirmLoading={create.isPending}
      okButtonProps={{ 'data-testid': 'api-key-create-ok' } as ButtonProps}
      destroyOnHidden
      data-testid="api-key-create-dialog"
    >
      <Form form={form} layout="vertical" onFinish={(values) => void submit(values)}>
        <Form.Item
          name="password"
          label={t('apiKeys.create.password')}
          rules={[{ required: true, message: t('apiKeys.create.passwordRequired') }]}
        >
          <Input.Password autoComplete="current-password" data-testid="api-key-password" />
        </Form.Item>
        <Form.Item name="code" label={t('apiKeys.create.code')} extra={t('apiKeys.create.codeHint')}>
          <Input inputMode="numeric" maxLength={8} data-testid="api-key-code" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The new secret, shown this once, with copy and download. */
function SecretDialog({ created, onClose }: { created: CreatedApiKey | null; onClose: () => void }) {
  const { t } = useTranslation();
  if (!created) return null;
  const text = `X-Key-Id: ${created.key_id}\nsecret: ${created.secret}\n`;
  const copy = async () => {
    await navigator.clipboard.writeText(created.secret);
    showSuccessMessage(t('apiKeys.secret.copied'));
  };
  return (
    <Modal
      open
      title={t('apiKeys.secret.title')}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('apiKeys.secret.done')}
        </Button>
      }
      data-testid="api-key-secret-dialog"
    >
      <Alert type="warning" showIcon title={t('apiKeys.secret.once')} style={{ marginBottom: 16 }} />
      <Typography.Paragraph>
        {t('apiKeys.column.keyId')}:{' '}
        <Typography.Text code data-testid="api-key-new-id">
          {created.key_id}
        </Typography.Text>
      </Typography.Paragraph>
      <Typography.Paragraph>
        {t('apiKeys.secret.label')}:{' '}
        <Typography.Text code data-testid="api-key-new-secret">
          {created.secret}
        </Typography.Text>
      </Typography.Paragraph>
      <Space>
        <Button icon={<CopyOutlined />} onClick={() => void copy()} data-testid="api-key-copy">
          {t('apiKeys.secret.copy')}
        </Button>
        <Button
          icon={<DownloadOutlined />}
          onClick={() => downloadText(text, `${created.key_id}.txt`, 'text/plain')}
          data-testid="api-key-download"
        >
          {t('apiKeys.secret.download')}
        </Button>
      </Space>
    </Modal>
  );
}

/**
 * The administrator's legacy-signing switch of one active key: switching on asks first,
 * with the warning of why MD5 is weaker; switching off asks too.
 */
function LegacySwitch({ apiKey }: { apiKey: ApiKeyItem }) {
  const { t } = useTranslation();
  const setLegacy = useSetApiKeyLegacy();
  const [modal, contextHolder] = Modal.useModal();
  const confirm = () => {
    const enabled = !apiKey.legacy_md5;
    void modal.confirm({
      title: t(enabled ? 'apiKeys.legacy.enableTitle' : 'apiKeys.legacy.disableTitle', { keyId: apiKey.key_id }),
      content: enabled ? <Alert type="warning" showIcon title={t('apiKeys.legacy.enableWarning')} /> : null,
      okText: t(enabled ? 'apiKeys.legacy.enableOk' : 'apiKeys.legacy.disableOk'),
      okButtonProps: { danger: enabled, 'data-testid': 'api-key-legacy-ok' } as ButtonProps,
      cancelText: t('common.cancel'),
      width: 520,
      onOk: async () => {
        await setLegacy.mutateAsync({ key_id: apiKey.key_id, enabled });
        showSuccessMessage(t(enabled ? 'apiKeys.legacy.enabled' : 'apiKeys.legacy.disabled'));
      },
    });
  };
  return (
    <>
      {contextHolder}
      <Space size={4}>
        <Switch
          size="small"
          checked={apiKey.legacy_md5}
          loading={setLegacy.isPending}
          onChange={confirm}
          aria-label={t('apiKeys.legacy.switch')}
          data-testid={`api-key-legacy-${apiKey.key_id}`}
        />
        <Typography.Text type="secondary">{t('apiKeys.legacy.switch')}</Typography.Text>
      </Space>
    </>
  );
}

/** The API keys tab: a merchant creates, lists and revokes its keys; an administrator sees and revokes every merchant's. */
export function ApiKeysTab({ isAdmin }: { isAdmin: boolean }) {
  const { t, i18n } = useTranslation();
  const keys = useApiKeys();
  const revoke = useRevokeApiKey();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const active = (keys.data ?? []).filter((key) => key.state === 'active').length;
  const columns = [
    ...(isAdmin ? [{ title: t('apiKeys.column.mid'), dataIndex: 'mid', key: 'mid' }] : []),
    {
      title: t('apiKeys.column.keyId'),
      dataIndex: 'key_id',
      key: 'key_id',
      render: (id: string) => <Typography.Text code>{id}</Typography.Text>,
    },
    { title: t('apiKeys.column.createdAt'), dataIndex: 'created_at', key: 'created_at', render: formatTime },
    {
      title: t('apiKeys.column.lastUsed'),
      key: 'last_used',
      render: (_: unknown, key: ApiKeyItem) =>
        key.last_used_at
          ? `${formatTime(key.last_used_at)}${key.last_used_address ? ` (${key.last_used_address})` : ''}`
          : t('apiKeys.neverUsed'),
    },
    {
      title: t('apiKeys.column.state'),
      dataIndex: 'state',
      key: 'state',
      render: (state: ApiKeyItem['state']) =>
        state === 'active' ? (
          <Tag color="green">{t('apiKeys.state.active')}</Tag>
        ) : (
          <Tag>{t('apiKeys.state.revoked')}</Tag>
        ),
    },
    {
      title: t('apiKeys.column.signing'),
      key: 'signing',
      render: (_: unknown, key: ApiKeyItem) =>
        key.legacy_md5 ? (
          <Tag color="orange">{t('apiKeys.signing.legacy')}</Tag>
        ) : (
          <Tag>{t('apiKeys.signing.hmac')}</Tag>
        ),
    },
    {
      title: t('apiKeys.column.actions'),
      key: 'actions',
      render: (_: unknown, key: ApiKeyItem) =>
        key.state === 'active' ? (
          <Space size="middle" wrap>
            {isAdmin && <LegacySwitch apiKey={key} />}
            <Popconfirm
              title={t('apiKeys.revoke.confirm', { keyId: key.key_id })}
              okText={t('apiKeys.revoke.ok')}
              cancelText={t('common.cancel')}
              okButtonProps={{ 'data-testid': 'api-key-revoke-ok' } as ButtonProps}
              onConfirm={async () => {
                await revoke.mutateAsync(key.key_id);
                showSuccessMessage(t('apiKeys.revoke.done'));
              }}
            >
              <Button danger size="small" data-testid={`api-key-revoke-${key.key_id}`}>
                {t('apiKeys.revoke.button')}
              </Button>
            </Popconfirm>
          </Space>
        ) : null,
    },
  ];
  return (
    <div data-testid="api-keys-tab">
      <Typography.Paragraph type="secondary">
        {t(isAdmin ? 'apiKeys.intro.admin' : 'apiKeys.intro')}
      </Typography.Paragraph>
      <Typography.Paragraph>
        <Typography.Link
          href={`/guide/merchant-api?lang=${i18n.language === 'en-US' ? 'en-US' : 'zh-CN'}`}
          target="_blank"
          rel="noopener"
          data-testid="api-guide-link"
        >
          <ReadOutlined /> {t('apiKeys.guide')}
        </Typography.Link>
      </Typography.Paragraph>
      {!isAdmin && (
        <Button
          type="primary"
          icon={<PlusOutlined />}
          disabled={active >= MAX_ACTIVE_KEYS}
          onClick={() => setCreating(true)}
          style={{ marginBottom: 16 }}
          data-testid="api-key-create"
        >
          {t('apiKeys.create.button')}
        </Button>
      )}
      {!isAdmin && (keys.data ?? []).some((key) => key.state === 'active' && key.legacy_md5) && (
        <Alert
          type="warning"
          showIcon
          title={t('apiKeys.legacy.merchantWarning')}
          style={{ marginBottom: 16 }}
          data-testid="api-key-legacy-warning"
        />
      )}
      {!isAdmin && active >= MAX_ACTIVE_KEYS && (
        <Alert
          type="info"
          showIcon
          icon={<KeyOutlined />}
          title={t('apiKeys.limit', { max: MAX_ACTIVE_KEYS })}
          style={{ marginBottom: 16 }}
        />
      )}
      <Table<ApiKeyItem>
        rowKey="key_id"
        size="small"
        loading={keys.isPending}
        dataSource={keys.data ?? []}
        columns={columns}
        pagination={false}
        // Wide enough for its columns: a phone scrolls it sideways, a wide screen fits it.
        scroll={{ x: 760 }}
        data-testid="api-key-table"
      />
      <CreateKeyDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(key) => {
          setCreating(false);
          setCreated(key);
        }}
      />
      <SecretDialog created={created} onClose={() => setCreated(null)} />
    </div>
  );
}
