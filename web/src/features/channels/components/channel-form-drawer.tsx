import { Button, Drawer, Form, Input, InputNumber, Select, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { showSuccessMessage } from '@/lib/feedback';
import { applyServerFieldErrors } from '@/lib/form-errors';
import { parseYuanToFen } from '@/lib/money';
import {
  CHANNEL_FIELD_MAP,
  type ChannelFormValues,
  channelFormInitial,
  channelSaveRequest,
  CODE_RULE,
  TIMEOUT_RANGE_MS,
} from '../api/channel-form';
import { type Channel, saveChannel, useChannelChange } from '../api/channels';

const FIELDS: (keyof ChannelFormValues)[] = [
  'code',
  'name',
  'adapter',
  'base_url',
  'secret',
  'timeout_ms',
  'low_balance',
  'enabled',
];

/**
 * Create (channel null) or edit a channel. The secret is write-only: the field starts
 * blank, and blank on an edit keeps the stored secret. The code names the callback URL,
 * so it is fixed once created. The sandbox keeps its protocol and has no address.
 */
export function ChannelFormDrawer({
  open,
  channel,
  onClose,
}: {
  open: boolean;
  channel: Channel | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ChannelFormValues>();
  const save = useChannelChange(saveChannel);
  const adapter = Form.useWatch('adapter', form);
  const sandbox = (adapter ?? channel?.adapter) === 'sandbox';
  const [min, max] = TIMEOUT_RANGE_MS;

  const submit = (values: ChannelFormValues) => {
    const request = channelSaveRequest(values);
    if (!request) return;
    save.mutate(request, {
      onSuccess: () => {
        showSuccessMessage(t('channels.saved'));
        onClose();
      },
      onError: (error) =>
        applyServerFieldErrors(form, error, { fieldMap: CHANNEL_FIELD_MAP, knownFields: FIELDS as string[] }),
    });
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={520}
      destroyOnHidden
      title={channel ? t('channels.form.editTitle', { code: channel.code }) : t('channels.form.createTitle')}
      data-testid="channel-form"
      extra={
        <Space>
          <Button onClick={onClose}>{t('channels.form.cancel')}</Button>
          <Button type="primary" loading={save.isPending} onClick={() => form.submit()} data-testid="channel-submit">
            {t('channels.form.submit')}
          </Button>
        </Space>
      }
    >
      <Form<ChannelFormValues>
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={channelFormInitial(channel)}
        onFinish={submit}
      >
        <Form.Item
          name="code"
          label={t('channels.form.code')}
          extra={t('channels.form.codeHelp')}
          rules={[{ required: true, pattern: CODE_RULE, message: t('channels.form.codeRule') }]}
        >
          <Input maxLength={32} disabled={channel !== null} data-testid="channel-code" />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('channels.form.name')}
          rules={[{ required: true, whitespace: true, message: t('channels.form.nameRequired') }]}
        >
          <Input maxLength={64} data-testid="channel-name" />
        </Form.Item>
        <Form.Item name="adapter" label={t('channels.form.adapter')} rules={[{ required: true }]}>
          <Select
            disabled={channel !== null}
            data-testid="channel-adapter"
            options={(channel?.adapter === 'sandbox' ? ['sandbox'] : ['http-json']).map((value) => ({
              value,
              label: t(`channels.form.adapter.${value}`),
            }))}
          />
        </Form.Item>
        {sandbox ? null : (
          <>
            <Form.Item
              name="base_url"
              label={t('channels.form.baseUrl')}
              rules={[{ required: true, whitespace: true, message: t('channels.form.baseUrlRequired') }]}
            >
              <Input maxLength={500} inputMode="url" data-testid="channel-base-url" />
            </Form.Item>
            <Form.Item
              name="secret"
              label={t('channels.form.secret')}
              extra={t('channels.form.secretHelp')}
              rules={
                channel?.has_secret ? [] : [{ required: true, whitespace: true, message: t('channels.form.secretNew') }]
              }
            >
              <Input.Password
                autoComplete="new-password"
                visibilityToggle={false}
                placeholder={t(channel?.has_secret ? 'channels.form.secretKeep' : 'channels.form.secretNew')}
                data-testid="channel-secret"
              />
            </Form.Item>
          </>
        )}
        <Space size={16} wrap align="start">
          <Form.Item
            name="timeout_ms"
            label={t('channels.form.timeout')}
            rules={[
              { required: true, type: 'integer', min, max, message: t('channels.form.timeoutRule', { min, max }) },
            ]}
          >
            <InputNumber
              min={min}
              max={max}
              step={500}
              precision={0}
              style={{ width: 200 }}
              data-testid="channel-timeout"
            />
          </Form.Item>
          <Form.Item
            name="low_balance"
            label={t('channels.form.lowBalance')}
            rules={[
              {
                validator: (_, value: string | undefined) =>
                  parseYuanToFen(value ?? '') !== null
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('channels.form.lowBalanceRule'))),
              },
            ]}
          >
            <Input inputMode="decimal" style={{ width: 200 }} data-testid="channel-low-balance" />
          </Form.Item>
        </Space>
        <Form.Item name="enabled" label={t('channels.form.enabled')} valuePropName="checked">
          <Switch data-testid="channel-enabled" />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
