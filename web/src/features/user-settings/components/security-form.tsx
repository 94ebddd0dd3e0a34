import { Button, Form, Input } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { Profile } from '../api/get-profile';
import type { SecurityRequest } from '../api/save-security';
import { reportSaved, reportSaveFailed } from './form-feedback';
import { isEmail, isPhone } from './profile-validation';

type SecurityFormValues = Partial<SecurityRequest>;

const SECURITY_FIELDS = ['security_question', 'security_answer', 'security_email', 'security_phone'] as const;

export interface SecurityFormProps {
  profile: Profile;
  onSave: (request: SecurityRequest) => Promise<Profile>;
  saving?: boolean;
}

/** Security question and answer, security email and phone (one call saves them all). */
export function SecurityForm({ profile, onSave, saving = false }: SecurityFormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<SecurityFormValues>();
  const stored = `${profile.security_question}\n${profile.security_email}\n${profile.security_phone}`;

  useEffect(() => {
    form.setFieldsValue({
      security_question: profile.security_question,
      security_answer: '',
      security_email: profile.security_email,
      security_phone: profile.security_phone,
    });
    // profile: read when `stored` says it changed.
  }, [form, stored]); // eslint-disable-line react-hooks/exhaustive-deps

  const submit = async (values: SecurityFormValues) => {
    try {
      await onSave({
        security_question: (values.security_question ?? '').trim(),
        security_answer: (values.security_answer ?? '').trim(),
        security_email: (values.security_email ?? '').trim(),
        security_phone: (values.security_phone ?? '').trim(),
      });
      form.setFieldValue('security_answer', '');
      reportSaved();
    } catch (error) {
      reportSaveFailed(form, error, { knownFields: SECURITY_FIELDS });
    }
  };

  const textCheck = (test: (value: string) => boolean, messageKey: string) => ({
    validator: (_: unknown, value?: string) =>
      value && value.trim() && !test(value.trim()) ? Promise.reject(new Error(t(messageKey))) : Promise.resolve(),
  });

  return (
    <Form<SecurityFormValues>
      form={form}
      layout="vertical"
      onFinish={submit}
      style={{ maxWidth: 420 }}
      data-testid="security-form"
      autoComplete="off"
    >
      <Form.Item
        name="security_question"
        label={t('userSetting.security.question')}
        rules={[{ max: 100, message: t('userSetting.rule.tooLong', { max: 100 }) }]}
      >
        <Input data-testid="security-question" placeholder={t('userSetting.security.question.placeholder')} />
      </Form.Item>
      <Form.Item
        name="security_answer"
        label={t('userSetting.security.answer')}
        dependencies={['security_question']}
        extra={profile.security_answer_set ? t('userSetting.security.answer.setHint') : undefined}
        rules={[
          ({ getFieldValue }) => ({
            validator: (_, value?: string) => {
              const question = (getFieldValue('security_question') ?? '').trim();
              const changed = question !== profile.security_question;
              return question && changed && !(value ?? '').trim()
                ? Promise.reject(new Error(t('userSetting.rule.securityAnswer.required')))
                : Promise.resolve();
            },
          }),
        ]}
      >
        <Input.Password data-testid="security-answer" autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="security_email"
        label={t('userSetting.security.email')}
        rules={[textCheck(isEmail, 'userSetting.rule.email.invalid')]}
      >
        <Input data-testid="security-email" placeholder="name@example.com" />
      </Form.Item>
      <Form.Item
        name="security_phone"
        label={t('userSetting.security.phone')}
        rules={[textCheck(isPhone, 'userSetting.rule.phone.invalid')]}
      >
        <Input data-testid="security-phone" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving} data-testid="security-save">
        {t('userSetting.security.save')}
      </Button>
    </Form>
  );
}
