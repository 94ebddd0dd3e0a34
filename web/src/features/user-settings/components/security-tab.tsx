import { LockOutlined, SafetyCertificateOutlined, SafetyOutlined } from '@ant-design/icons';
import { Button, Card, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useChangePassword } from '../api/change-password';
import type { Profile } from '../api/get-profile';
import { useSaveSecurity } from '../api/save-security';
import { PasswordForm } from './password-form';
import { SecurityForm } from './security-form';

const TWO_FACTOR_PATH = '/user/google-auth';

function SectionTitle({ icon, title, description }: { icon: ReactNode; title: string; description: string }) {
  return (
    <Space orientation="vertical" size={0}>
      <Space>
        {icon}
        <span>{title}</span>
      </Space>
      <Typography.Text type="secondary" style={{ fontSize: 13, fontWeight: 'normal' }}>
        {description}
      </Typography.Text>
    </Space>
  );
}

/** The password: its own tab, so that the menu's "Password" and "Account settings" differ. */
export function PasswordTab() {
  const { t } = useTranslation();
  const changePassword = useChangePassword();
  return (
    <Card
      id="user-setting-password"
      size="small"
      title={
        <SectionTitle
          icon={<LockOutlined />}
          title={t('userSetting.security.password.title')}
          description={t('userSetting.security.password.description')}
        />
      }
      data-testid="security-password-card"
    >
      <PasswordForm onChange={changePassword.mutateAsync} saving={changePassword.isPending} />
    </Card>
  );
}

/** Security settings: security question / email / phone, and the two-factor entry. */
export function SecurityTab({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const saveSecurity = useSaveSecurity();
  const navigate = useNavigate();

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="security-tab">
      <Card
        size="small"
        title={
          <SectionTitle
            icon={<SafetyOutlined />}
            title={t('userSetting.security.question.title')}
            description={t('userSetting.security.question.description')}
          />
        }
        data-testid="security-question-card"
      >
        <SecurityForm profile={profile} onSave={saveSecurity.mutateAsync} saving={saveSecurity.isPending} />
      </Card>
      <Card
        size="small"
        title={
          <Space>
            <SafetyCertificateOutlined />
            <span>{t('userSetting.security.twoFactor.title')}</span>
          </Space>
        }
        data-testid="security-two-factor-card"
      >
        <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
          <Typography.Text type="secondary">{t('userSetting.security.twoFactor.description')}</Typography.Text>
          <Button type="primary" ghost onClick={() => navigate(TWO_FACTOR_PATH)} data-testid="security-two-factor-link">
            {t('userSetting.security.twoFactor.open')}
          </Button>
        </Space>
      </Card>
    </Space>
  );
}
