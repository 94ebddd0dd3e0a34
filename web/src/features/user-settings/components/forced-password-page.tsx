import { Alert, Button, Card, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUserStore } from '@/stores/user-store';
import { useChangePassword } from '../api/change-password';
import { PasswordForm } from './password-form';
import '@/locales/merchant-admin-texts';

/**
 * A user holding a temporary password (a new merchant's first user, or after an
 * administrator's reset) chooses their own here before anything else; the server refuses
 * every other call until then.
 */
export function ForcedPasswordPage({ onChanged, onSignOut }: { onChanged: () => void; onSignOut: () => void }) {
  const { t } = useTranslation();
  const change = useChangePassword();
  return (
    <Card title={t('forcedPassword.title')} style={{ width: 480, maxWidth: '100%' }} data-testid="forced-password-page">
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Alert type="warning" showIcon title={t('forcedPassword.description')} />
        <PasswordForm
          requireNew
          saving={change.isPending}
          onChange={async (request) => {
            const result = await change.mutateAsync(request);
            if (result.changed) {
              useUserStore.getState().setUserInfo({ mustChangePassword: false });
              onChanged();
            }
            return result;
          }}
        />
        <Button type="link" onClick={onSignOut} data-testid="forced-password-logout">
          {t('forcedPassword.logout')}
        </Button>
      </Space>
    </Card>
  );
}
