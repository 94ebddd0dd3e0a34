import { Button, Form, Input } from 'antd';
import type { Rule } from 'antd/es/form';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { showSuccessMessage } from '@/lib/feedback';
import type { ChangePasswordRequest, PasswordChanged } from '../api/change-password';
import { reportSaveFailed } from './form-feedback';
import { checkNewPassword, PASSWORD_MAX, PASSWORD_MIN, type PasswordProblem } from './profile-validation';

export interface PasswordFormValues {
  current_password?: string;
  new_password?: string;
  confirm_password?: string;
}

const PASSWORD_FIELDS = ['current_password', 'new_password', 'confirm_password'] as const;

const PROBLEM_KEYS: Record<PasswordProblem, string> = {
  too_short: 'userSetting.rule.password.tooShort',
  too_long: 'userSetting.rule.password.tooLong',
  invalid_character: 'userSetting.rule.password.invalidCharacter',
  weak: 'userSetting.rule.password.weak',
};

/** The password rules as antd rules (blank new password: no change). */
export function usePasswordRules() {
  const { t, i18n } = useTranslation();
  return useMemo(() => {
    const rules: Record<(typeof PASSWORD_FIELDS)[number], Rule[]> = {
      current_password: [
        ({ getFieldValue }) => ({
          validator: (_, value?: string) =>
            getFieldValue('new_password') && !value
              ? Promise.reject(new Error(t('userSetting.rule.password.currentRequired')))
              : Promise.resolve(),
        }),
      ],
      new_password: [
        {
          validator: (_, value?: string) => {
            const problem = checkNewPassword(value);
            return problem
              ? Promise.reject(new Error(t(PROBLEM_KEYS[problem], { min: PASSWORD_MIN, max: PASSWORD_MAX })))
              : Promise.resolve();
          },
        },
      ],
      confirm_password: [
        ({ getFieldValue }) => ({
          validator: (_, value?: string) =>
            (value ?? '') === (getFieldValue('new_password') ?? '')
              ? Promise.resolve()
              : Promise.reject(new Error(t('userSetting.rule.password.confirmMismatch'))),
        }),
      ],
    };
    return rules;
    // i18n.language: the messages follow the console language.
  }, [t, i18n.language]);
}

export interface PasswordFormProps {
  onChange: (request: ChangePasswordRequest) => Promise<PasswordChanged>;
  saving?: boolean;
  /** A temporary password must be replaced: a blank new password is refused here. */
  requireNew?: boolean;
}

/** Change the sign-in password; the user is told how many other sessions it ended. */
export function PasswordForm({ onChange, saving = false, requireNew = false }: PasswordFormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PasswordFormValues>();
  const rules = usePasswordRules();

  const submit = async (values: PasswordFormValues) => {
    try {
      const result = await onChange({
        current_password: values.current_password ?? '',
        new_password: values.new_password ?? '',
      });
      form.resetFields();
      if (!result.changed) {
        showSuccessMessage(t('userSetting.security.password.unchanged'));
      } else if (result.other_sessions_ended > 0) {
        showSuccessMessage(t('userSetting.security.password.changed', { count: result.other_sessions_ended }));
      } else {
        showSuccessMessage(t('userSetting.security.password.changedNoOthers'));
      }
    } catch (error) {
      reportSaveFailed(form, error, { knownFields: PASSWORD_FIELDS });
    }
  };

  return (
    <Form<PasswordFormValues>
      form={form}
      layout="vertical"
      onFinish={submit}
      style={{ maxWidth: 420 }}
      data-testid="password-form"
      autoComplete="off"
    >
      <Form.Item
        name="current_password"
        label={t('userSetting.security.currentPassword')}
        rules={rules.current_password}
        dependencies={['new_password']}
      >
        <Input.Password data-testid="password-current" autoComplete="current-password" />
      </Form.Item>
      <Form.Item
        name="new_password"
        label={t('userSetting.security.newPassword')}
        rules={
          requireNew
            ? [
                { required: true, message: t('userSetting.rule.password.tooShort', { min: PASSWORD_MIN }) },
                ...rules.new_password,
              ]
            : rules.new_password
        }
        // The hint says a blank password keeps the current one: not so for a temporary one.
        extra={requireNew ? undefined : t('userSetting.security.newPassword.hint')}
      >
        <Input.Password data-testid="password-new" autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirm_password"
        label={t('userSetting.security.confirmPassword')}
        rules={rules.confirm_password}
        dependencies={['new_password']}
      >
        <Input.Password data-testid="password-confirm" autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving} data-testid="password-submit">
        {t('userSetting.security.password.submit')}
      </Button>
    </Form>
  );
}
