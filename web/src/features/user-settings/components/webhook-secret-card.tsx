import { Alert, Button, Card, Form, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/request';
import { formatTime } from '@/lib/platform-time';
import { type RotatedWebhookSecret, useRotateWebhookSecret } from '../api/rotate-webhook-secret';
import { downloadText } from './export-profile';
import '@/locales/notify-texts';

interface RotateValues {
  password: string;
  code?: string;
}

/** The server's message for a field, from a 40000 answer's `data.fields`. */
function fieldMessage(error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError) || typeof error.data !== 'object' || error.data === null) return undefined;
  const fields = (error.data as { fields?: Record<string, string> }).fields;
  return fields?.[field];
}

/**
 * The callback signing secret (Standard Webhooks `whsec_…`): rotated with the current
 * password (and a two-factor code when it is on); the new secret is shown this once.
 */
export function WebhookSecretCard() {
  const { t } = useTranslation();
  const [form] = Form.useForm<RotateValues>();
  const rotate = useRotateWebhookSecret();
  const [rotated, setRotated] = useState<RotatedWebhookSecret | null>(null);

  const submit = async (values: RotateValues) => {
    try {
      const answer = await rotate.mutateAsync({
        password: values.password,
        ...(values.code?.trim() ? { code: values.code.trim() } : {}),
      });
      setRotated(answer);
      form.resetFields();
    } catch (error) {
      const password = fieldMessage(error, 'password');
      const message = error instanceof Error ? error.message : String(error);
      form.setFields([password ? { name: 'password', errors: [password] } : { name: 'code', errors: [message] }]);
    }
  };

  return (
    <Card title={t('notify.secret.title')} style={{ maxWidth: 760, marginTop: 24 }} data-testid="webhook-secret-card">
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary">{t('notify.secret.intro')}</Typography.Paragraph>
        {rotated ? (
          <Alert
            type="warning"
            showIcon
            data-testid="webhook-secret-shown"
            title={t('notify.secret.shownOnce')}
            description={
              <Space orientation="vertical">
                <Typography.Text code copyable data-testid="webhook-secret-value">
                  {rotated.webhook_secret}
                </Typography.Text>
                {rotated.previous_valid_until ? (
                  <Typography.Text type="secondary">
                    {t('notify.secret.previousUntil', { time: formatTime(rotated.previous_valid_until) })}
                  </Typography.Text>
                ) : null}
                <Button
                  size="small"
                  onClick={() => downloadText(rotated.webhook_secret, 'webhook-secret.txt', 'text/plain')}
                >
                  {t('notify.secret.download')}
                </Button>
              </Space>
            }
          />
        ) : null}
        <Form<RotateValues> form={form} layout="inline" onFinish={submit} data-testid="webhook-secret-form">
          <Form.Item
            name="password"
            label={t('notify.secret.password')}
            rules={[{ required: true, message: t('notify.secret.password') }]}
          >
            <Input.Password autoComplete="current-password" data-testid="webhook-secret-password" />
          </Form.Item>
          <Form.Item name="code" label={t('notify.secret.code')} tooltip={t('notify.secret.code.hint')}>
            <Input maxLength={8} inputMode="numeric" autoComplete="one-time-code" style={{ width: 120 }} />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" loading={rotate.isPending} data-testid="webhook-secret-rotate">
              {t('notify.secret.rotate')}
            </Button>
          </Form.Item>
        </Form>
      </Space>
    </Card>
  );
}
