import {
  Alert,
  Button,
  Card,
  Form,
  Input,
  Modal,
  Popconfirm,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSuccessMessage } from '@/lib/feedback';
import { applyServerFieldErrors } from '@/lib/form-errors';
import { formatTime } from '@/lib/platform-time';
import { useSubmission } from '@/lib/submission';
import { useUserStore } from '@/stores/user-store';
import {
  addStaff,
  type AddStaffRequest,
  disableStaff,
  enableStaff,
  MERCHANT_ROLES,
  type MerchantRole,
  removeStaff,
  requireTwoFactor,
  setStaffRole,
  type StaffMember,
  useStaff,
  useStaffChange,
} from '../api/staff';
import '@/locales/staff-texts';

function RoleSelect(props: {
  value?: MerchantRole;
  onChange?: (role: MerchantRole) => void;
  testId: string;
  label: string;
}) {
  const { t } = useTranslation();
  return (
    <Select<MerchantRole>
      value={props.value}
      onChange={props.onChange}
      style={{ minWidth: 140 }}
      data-testid={props.testId}
      aria-label={props.label}
      popupMatchSelectWidth={false}
      options={MERCHANT_ROLES.map((role) => ({
        value: role,
        label: (
          <span data-testid={`staff-role-option-${role}`} title={t(`staff.roleHelp.${role}`)}>
            {t(`role.merchant.${role}`)}
          </span>
        ),
      }))}
    />
  );
}

function AddStaffDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<AddStaffRequest>();
  const add = useStaffChange(addStaff);
  // A double click submits twice before the first answer: the user is added once (a second
  // call would only be refused as a taken username, after the first succeeded).
  const submission = useSubmission();
  const submit = async () => {
    const values = await form.validateFields();
    submission
      .run(values, () => add.mutateAsync(values))
      ?.then(() => {
        showSuccessMessage(t('staff.added'));
        form.resetFields();
        onClose();
      })
      .catch((error: unknown) =>
        applyServerFieldErrors(form, error, { knownFields: ['username', 'password', 'role', 'name'] }),
      );
  };
  return (
    <Modal
      open={open}
      title={t('staff.add')}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={submission.pending}
      okButtonProps={{ ...({ 'data-testid': 'staff-add-submit' } as Record<string, string>) }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ role: 'operator' }} data-testid="staff-add-form">
        <Form.Item
          name="username"
          label={t('staff.username')}
          rules={[{ required: true, whitespace: true, message: t('staff.usernameRequired') }]}
        >
          <Input autoComplete="off" data-testid="staff-add-username" />
        </Form.Item>
        <Form.Item name="name" label={t('staff.name')}>
          <Input autoComplete="off" data-testid="staff-add-name" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('staff.password')}
          extra={t('staff.passwordHelp')}
          rules={[{ required: true, message: t('staff.passwordRequired') }]}
        >
          <Input.Password autoComplete="new-password" data-testid="staff-add-password" />
        </Form.Item>
        <Form.Item name="role" label={t('staff.role')} rules={[{ required: true }]}>
          <RoleSelect testId="staff-add-role" label={t('staff.role')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The merchant's staff (/user/staff, owners): users, roles, the two-factor requirement. */
export default function StaffPage() {
  const { t } = useTranslation();
  const me = useUserStore((state) => state.info.username);
  const list = useStaff();
  const changeRole = useStaffChange(setStaffRole);
  const disable = useStaffChange(disableStaff);
  const enable = useStaffChange(enableStaff);
  const remove = useStaffChange(removeStaff);
  const requirement = useStaffChange(requireTwoFactor);
  const [adding, setAdding] = useState(false);
  const saved = () => showSuccessMessage(t('staff.saved'));

  const columns = [
    {
      key: 'username',
      title: t('staff.username'),
      render: (_: unknown, member: StaffMember) => (
        <Space size={4}>
          <span>{member.username}</span>
          {member.name && member.name !== member.username ? (
            <Typography.Text type="secondary">({member.name})</Typography.Text>
          ) : null}
          {member.username === me ? <Tag color="blue">{t('staff.you')}</Tag> : null}
        </Space>
      ),
    },
    {
      key: 'role',
      title: t('staff.role'),
      render: (_: unknown, member: StaffMember) => (
        <RoleSelect
          value={member.role}
          testId={`staff-role-${member.username}`}
          label={t('staff.roleOf', { username: member.username })}
          onChange={(role) => changeRole.mutate({ user_id: member.user_id, role }, { onSuccess: saved })}
        />
      ),
    },
    {
      key: 'state',
      title: t('staff.state'),
      render: (_: unknown, member: StaffMember) =>
        member.disabled ? <Tag color="red">{t('staff.disabled')}</Tag> : <Tag color="green">{t('staff.enabled')}</Tag>,
    },
    {
      key: 'twoFactor',
      title: t('staff.twoFactor'),
      render: (_: unknown, member: StaffMember) =>
        member.two_factor_enabled ? <Tag color="green">{t('staff.on')}</Tag> : <Tag>{t('staff.off')}</Tag>,
    },
    {
      key: 'lastSignIn',
      title: t('staff.lastSignIn'),
      render: (_: unknown, member: StaffMember) =>
        member.last_sign_in ? formatTime(member.last_sign_in) : t('staff.never'),
    },
    {
      key: 'actions',
      title: t('staff.actions'),
      render: (_: unknown, member: StaffMember) => (
        <Space size={0}>
          {member.disabled ? (
            <Button
              type="link"
              size="small"
              onClick={() => enable.mutate(member.user_id, { onSuccess: saved })}
              data-testid={`staff-enable-${member.username}`}
            >
              {t('staff.enable')}
            </Button>
          ) : (
            <Popconfirm
              title={t('staff.disableConfirm', { username: member.username })}
              onConfirm={() => disable.mutate(member.user_id, { onSuccess: saved })}
            >
              <Button type="link" size="small" data-testid={`staff-disable-${member.username}`}>
                {t('staff.disable')}
              </Button>
            </Popconfirm>
          )}
          <Popconfirm
            title={t('staff.removeConfirm', { username: member.username })}
            onConfirm={() => remove.mutate(member.user_id, { onSuccess: () => showSuccessMessage(t('staff.removed')) })}
          >
            <Button type="link" size="small" danger data-testid={`staff-remove-${member.username}`}>
              {t('staff.remove')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="staff-page">
      <Card
        title={t('staff.title')}
        extra={
          <Button type="primary" onClick={() => setAdding(true)} data-testid="staff-add">
            {t('staff.add')}
          </Button>
        }
      >
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Alert type="info" showIcon title={t('staff.intro')} />
          <Space>
            <Switch
              checked={list.data?.require_two_factor ?? false}
              loading={requirement.isPending}
              disabled={!list.data}
              onChange={(required) => requirement.mutate(required, { onSuccess: saved })}
              data-testid="staff-require-two-factor"
              aria-label={t('staff.requireTwoFactor')}
            />
            <span>{t('staff.requireTwoFactor')}</span>
            <Typography.Text type="secondary">{t('staff.requireTwoFactorHelp')}</Typography.Text>
          </Space>
          <Table<StaffMember>
            rowKey="user_id"
            columns={columns}
            dataSource={list.data?.items ?? []}
            loading={list.isFetching}
            pagination={false}
            data-testid="staff-table"
            scroll={{ x: 'max-content' }}
          />
        </Space>
      </Card>
      <AddStaffDialog open={adding} onClose={() => setAdding(false)} />
    </Space>
  );
}
