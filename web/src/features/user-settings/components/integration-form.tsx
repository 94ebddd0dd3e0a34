import { Alert, Button, Form, Input, Space, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChangeIntegrationRequest } from '../api/change-integration';
import type { Profile } from '../api/get-profile';
import { reportSaved, reportSaveFailed } from './form-feedback';
import { INTEGRATION_FIELDS, useIntegrationRules } from './profile-form';

export interface IntegrationFormValues {
  notify_url?: string;
  ip_whitelist?: string;
}

export function toIntegrationValues(profile: Profile): IntegrationFormValues {
  return { notify_url: profile.notify_url, ip_whitelist: profile.ip_whitelist };
}

export function toChangeIntegrationRequest(values: IntegrationFormValues): ChangeIntegrationRequest {
  return { notify_url: (values.notify_url ?? '').trim(), ip_whitelist: (values.ip_whitelist ?? '').trim() };
}

export interface IntegrationFormProps {
  profile: Profile;
  onSave: (request: ChangeIntegrationRequest) => Promise<Profile>;
  saving?: boolean;
  /** Shown but not changed: only owners and developers save it (identity/permissions.rs). */
  readOnly?: boolean;
}

/**
 * Integration settings: where order results are notified and which addresses may call
 * the API. Saved on their own, without the profile's required fields (issue 15 point 3).
 */
export function IntegrationForm({ profile, onSave, saving = false, readOnly = false }: IntegrationFormProps) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<IntegrationFormValues>();
  const rules = useIntegrationRules();

  const stored = JSON.stringify(toIntegrationValues(profile));
  useEffect(() => {
    form.setFieldsValue(toIntegrationValues(profile));
    // profile: read when `stored` says it changed.
  }, [form, stored]); // eslint-disable-line react-hooks/exhaustive-deps

  const submit = async (values: IntegrationFormValues) => {
    try {
      const saved = await onSave(toChangeIntegrationRequest(values));
      // Show what the server stored (the normalised whitelist).
      form.setFieldsValue(toIntegrationValues(saved));
      reportSaved();
    } catch (error) {
      reportSaveFailed(form, error, { knownFields: INTEGRATION_FIELDS });
    }
  };

  return (
    <Form<IntegrationFormValues>
      form={form}
      layout="horizontal"
      labelCol={{ xs: { span: 24 }, md: { span: 6 } }}
      wrapperCol={{ xs: { span: 24 }, md: { span: 16 } }}
      initialValues={toIntegrationValues(profile)}
      onFinish={submit}
      style={{ maxWidth: 760 }}
      data-testid="integration-form"
      scrollToFirstError
      disabled={readOnly}
    >
      <Form.Item wrapperCol={{ span: 24 }}>
        <Alert
          type="info"
          showIcon
          title={t(readOnly ? 'userSetting.integration.readOnly' : 'userSetting.integration.intro')}
          data-testid="integration-intro"
        />
      </Form.Item>
      <Form.Item
        name="notify_url"
        label={t('userSetting.basic.notifyUrl')}
        rules={rules.notify_url}
        extra={
          <>
            {t('userSetting.basic.notifyUrl.hint')}{' '}
            <Typography.Link
              href={`/guide/merchant-api-callbacks?lang=${i18n.language === 'en-US' ? 'en-US' : 'zh-CN'}`}
              target="_blank"
              rel="noopener"
              data-testid="callbacks-guide-link"
              underline
            >
              {t('userSetting.integration.callbacksGuide')}
            </Typography.Link>
          </>
        }
      >
        <Input data-testid="integration-notify-url" placeholder="https://" />
      </Form.Item>
      <Form.Item
        name="ip_whitelist"
        label={t('userSetting.basic.ipWhitelist')}
        rules={rules.ip_whitelist}
        extra={t('userSetting.basic.ipWhitelist.hint')}
      >
        <Input.TextArea data-testid="integration-ip-whitelist" rows={3} placeholder="192.168.1.10,10.0.0.0/8" />
      </Form.Item>
      <Form.Item wrapperCol={{ xs: { span: 24 }, md: { offset: 6, span: 16 } }} hidden={readOnly}>
        <Space>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="integration-save">
            {t('userSetting.basic.save')}
          </Button>
          <Button
            onClick={() => {
              form.resetFields();
              form.setFieldsValue(toIntegrationValues(profile));
            }}
            data-testid="integration-reset"
          >
            {t('userSetting.basic.reset')}
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
