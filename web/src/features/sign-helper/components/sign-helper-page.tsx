import { Alert, Button, Card, Form, Input, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSignCheck, type SignCheckRequest } from '../api/sign-check';
import '@/locales/api-keys-texts';

const METHODS = ['GET', 'POST'];

/** /user/sign-helper: paste a request, see the string to sign and whether the signature matches. */
export default function SignHelperPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<SignCheckRequest>();
  const check = useSignCheck();
  const required = [{ required: true, message: t('signHelper.required') }];
  const result = check.data;
  return (
    <Card title={t('signHelper.title')} data-testid="sign-helper-page">
      <Typography.Paragraph type="secondary">{t('signHelper.intro')}</Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ method: 'POST', path: '/openapi/v1/orders', body: '' }}
        onFinish={(values) =>
          check.mutate({ ...values, body: values.body ?? '', signature: values.signature || undefined })
        }
      >
        <Form.Item name="key_id" label={t('signHelper.keyId')} rules={required}>
          <Input placeholder="ak_…" data-testid="sign-helper-key-id" />
        </Form.Item>
        <Form.Item name="method" label={t('signHelper.method')} rules={required}>
          <Select options={METHODS.map((method) => ({ value: method, label: method }))} />
        </Form.Item>
        <Form.Item name="path" label={t('signHelper.path')} rules={required}>
          <Input data-testid="sign-helper-path" />
        </Form.Item>
        <Form.Item name="timestamp" label={t('signHelper.timestamp')} rules={required}>
          <Input data-testid="sign-helper-timestamp" />
        </Form.Item>
        <Form.Item name="nonce" label={t('signHelper.nonce')} rules={required}>
          <Input data-testid="sign-helper-nonce" />
        </Form.Item>
        <Form.Item name="body" label={t('signHelper.body')}>
          <Input.TextArea rows={4} data-testid="sign-helper-body" />
        </Form.Item>
        <Form.Item name="signature" label={t('signHelper.signature')}>
          <Input data-testid="sign-helper-signature" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={check.isPending} data-testid="sign-helper-check">
          {t('signHelper.check')}
        </Button>
      </Form>
      {result && (
        <div style={{ marginTop: 24 }} data-testid="sign-helper-result">
          <Typography.Title level={5}>{t('signHelper.stringToSign')}</Typography.Title>
          <Typography.Paragraph>
            <pre data-testid="sign-helper-string">{result.string_to_sign}</pre>
          </Typography.Paragraph>
          <Typography.Paragraph>
            {t('signHelper.bodyHash')}: <Typography.Text code>{result.body_sha256}</Typography.Text>
          </Typography.Paragraph>
          {(result.matches ?? null) === null ? (
            <Alert type="info" showIcon message={t('signHelper.noSignature')} />
          ) : result.matches ? (
            <Alert type="success" showIcon message={t('signHelper.matches')} data-testid="sign-helper-matches" />
          ) : (
            <Alert type="error" showIcon message={t('signHelper.mismatch')} data-testid="sign-helper-mismatch" />
          )}
        </div>
      )}
    </Card>
  );
}
