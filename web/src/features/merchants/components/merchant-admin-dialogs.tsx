import { Alert, Button, Form, Input, Modal, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSuccessMessage } from '@/lib/feedback';
import { applyServerFieldErrors } from '@/lib/form-errors';
import { formatTime } from '@/lib/platform-time';
import {
  addMerchantUser,
  createMerchant,
  type MerchantRow,
  type MerchantUser,
  renameMerchant,
  resetUserPassword,
  type TemporaryCredentials,
  useMerchantAdmin,
  useMerchantUsers,
} from '../api/merchants';
import { ResetTwoFactorDialog } from './reset-two-factor-dialog';
import '@/locales/merchant-admin-texts';

const USERNAME_RULE = /^\S{1,64}$/;

/** A temporary password, shown once with a copy button; closing forgets it. */
export function TemporaryPasswordDialog({
  credentials,
  onClose,
}: {
  credentials: TemporaryCredentials | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={credentials !== null}
      title={t('merchantAdmin.temporary.title')}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose} data-testid="temporary-password-close">
          {t('common.close')}
        </Button>
      }
      destroyOnHidden
    >
      {credentials ? (
        <Space orientation="vertical" style={{ width: '100%' }} data-testid="temporary-password-dialog">
          <Alert
            type="warning"
            showIcon
            title={t('merchantAdmin.temporary.body', { username: credentials.username, mid: credentials.merchant_id })}
          />
          <Typography.Text
            code
            copyable={{ tooltips: [t('merchantAdmin.temporary.copy'), t('merchantAdmin.temporary.copied')] }}
            style={{ fontSize: 18 }}
            data-testid="temporary-password"
          >
            {credentials.temporary_password}
          </Typography.Text>
        </Space>
      ) : null}
    </Modal>
  );
}

/** Create a merchant with its first user; the answer's temporary password is handed on. */
export function CreateMerchantDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (credentials: TemporaryCredentials) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string; username: string }>();
  const create = useMerchantAdmin(createMerchant);
  return (
    <Modal
      open={open}
      title={t('merchantAdmin.create')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('merchantAdmin.create')}
      confirmLoading={create.isPending}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'merchant-create-submit' } as Record<string, string>}
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        onFinish={({ name, username }) =>
          create.mutate(
            { name: name.trim(), username: username.trim() },
            {
              onSuccess: (credentials) => {
                onClose();
                onCreated(credentials);
              },
              onError: (error) => applyServerFieldErrors(form, error),
            },
          )
        }
      >
        <Form.Item
          name="name"
          label={t('merchantAdmin.name')}
          rules={[{ required: true, whitespace: true, message: t('merchantAdmin.nameRequired') }]}
        >
          <Input maxLength={64} data-testid="merchant-create-name" />
        </Form.Item>
        <Form.Item
          name="username"
          label={t('merchantAdmin.username')}
          rules={[{ pattern: USERNAME_RULE, required: true, message: t('merchantAdmin.usernameInvalid') }]}
        >
          <Input maxLength={64} autoComplete="off" data-testid="merchant-create-username" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Rename a merchant. */
export function RenameMerchantDialog({ merchant, onClose }: { merchant: MerchantRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();
  const rename = useMerchantAdmin(renameMerchant);
  return (
    <Modal
      open={merchant !== null}
      title={merchant ? `${t('merchantAdmin.rename')} · ${merchant.merchant_id}` : ''}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={rename.isPending}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'merchant-rename-submit' } as Record<string, string>}
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ name: merchant?.name }}
        onFinish={({ name }) =>
          merchant &&
          rename.mutate(
            { merchant_id: merchant.merchant_id, name: name.trim() },
            {
              onSuccess: () => {
                showSuccessMessage(t('merchantAdmin.saved'));
                onClose();
              },
              onError: (error) => applyServerFieldErrors(form, error),
            },
          )
        }
      >
        <Form.Item
          name="name"
          label={t('merchantAdmin.name')}
          rules={[{ required: true, whitespace: true, message: t('merchantAdmin.nameRequired') }]}
        >
          <Input maxLength={64} data-testid="merchant-rename-name" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * A merchant's users: reset a password or add a user (both answer with a temporary
 * password), or turn off a user's two-factor (a lost phone).
 */
export function MerchantUsersDialog({
  merchant,
  onClose,
  onCredentials,
}: {
  merchant: MerchantRow | null;
  onClose: () => void;
  onCredentials: (credentials: TemporaryCredentials) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ username: string; name?: string }>();
  const users = useMerchantUsers(merchant?.merchant_id ?? null);
  const reset = useMerchantAdmin(resetUserPassword);
  const add = useMerchantAdmin(addMerchantUser);
  const [adding, setAdding] = useState(false);
  const [resettingTwoFactor, setResettingTwoFactor] = useState<MerchantUser | null>(null);
  const columns = [
    { key: 'username', title: t('merchantAdmin.userUsername'), dataIndex: 'username' },
    { key: 'name', title: t('merchantAdmin.userName'), dataIndex: 'name' },
    {
      key: 'role',
      title: t('merchantAdmin.users.role'),
      dataIndex: 'role',
      render: (role: MerchantUser['role'], user: MerchantUser) => (
        <Space size={4} wrap data-testid={`merchant-user-role-${user.username}`}>
          {t(`role.merchant.${role}`)}
          {user.removed ? (
            <Tag>{t('merchantAdmin.users.removed')}</Tag>
          ) : user.disabled ? (
            <Tag color="red">{t('merchantAdmin.users.disabled')}</Tag>
          ) : null}
        </Space>
      ),
    },
    {
      key: 'last_sign_in',
      title: t('merchantAdmin.users.lastSignIn'),
      dataIndex: 'last_sign_in',
      render: (value: string | null, user: MerchantUser) => (
        <Space size={4} wrap>
          {value ? formatTime(value) : t('merchantAdmin.users.never')}
          {user.must_change_password ? <Tag color="orange">{t('merchantAdmin.users.mustChange')}</Tag> : null}
        </Space>
      ),
    },
    {
      key: 'actions',
      title: t('common.column.actions'),
      render: (_: unknown, user: MerchantUser) => (
        <Space size={4}>
          <Popconfirm
            title={t('merchantAdmin.users.reset.confirm', { username: user.username })}
            onConfirm={() => reset.mutate(user.user_id, { onSuccess: onCredentials })}
          >
            <Button size="small" danger data-testid={`merchant-user-reset-${user.username}`}>
              {t('merchantAdmin.users.reset')}
            </Button>
          </Popconfirm>
          {/* Only for a user with two-factor on (if another administrator reset it meanwhile, the dialog says "not on"). */}
          {user.two_factor_enabled ? (
            <Button
              size="small"
              onClick={() => setResettingTwoFactor(user)}
              data-testid={`merchant-user-reset-2fa-${user.username}`}
            >
              {t('merchantAdmin.users.twoFactor')}
            </Button>
          ) : null}
        </Space>
      ),
    },
  ];
  return (
    <Modal
      open={merchant !== null}
      title={merchant ? t('merchantAdmin.users.title', { name: merchant.name, mid: merchant.merchant_id }) : ''}
      onCancel={onClose}
      footer={null}
      width={760}
      destroyOnHidden
    >
      <Space orientation="vertical" style={{ width: '100%' }} data-testid="merchant-users-dialog">
        <Table<MerchantUser>
          size="small"
          rowKey="user_id"
          columns={columns}
          dataSource={users.data ?? []}
          loading={users.isFetching}
          pagination={false}
          data-testid="merchant-users-table"
        />
        {adding ? (
          <Form
            form={form}
            layout="inline"
            onFinish={({ username, name }) =>
              merchant &&
              add.mutate(
                { merchant_id: merchant.merchant_id, username: username.trim(), name: name?.trim() || undefined },
                {
                  onSuccess: (credentials) => {
                    form.resetFields();
                    setAdding(false);
                    onCredentials(credentials);
                  },
                  onError: (error) => applyServerFieldErrors(form, error),
                },
              )
            }
          >
            <Form.Item
              name="username"
              rules={[{ pattern: USERNAME_RULE, required: true, message: t('merchantAdmin.usernameInvalid') }]}
            >
              <Input
                placeholder={t('merchantAdmin.userUsername')}
                maxLength={64}
                autoComplete="off"
                data-testid="merchant-user-add-username"
              />
            </Form.Item>
            <Form.Item name="name">
              <Input placeholder={t('merchantAdmin.userName')} maxLength={64} />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={add.isPending} data-testid="merchant-user-add-submit">
              {t('merchantAdmin.users.add')}
            </Button>
          </Form>
        ) : (
          <Button onClick={() => setAdding(true)} data-testid="merchant-user-add">
            {t('merchantAdmin.users.add')}
          </Button>
        )}
      </Space>
      <ResetTwoFactorDialog user={resettingTwoFactor} onClose={() => setResettingTwoFactor(null)} />
    </Modal>
  );
}
