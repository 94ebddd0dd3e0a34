import { Alert, Button, Modal, Space, Typography } from 'antd';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthCodeInput } from '@/components/auth-code-input/auth-code-input';
import { useAuthCodeField } from '@/components/auth-code-input/use-auth-code-field';
import { showSuccessMessage } from '@/lib/feedback';
import { type MerchantUser, resetUserTwoFactor, useMerchantAdmin, useOwnTwoFactorEnabled } from '../api/merchants';
import { resetRefusal } from './reset-two-factor';
import '@/locales/merchant-admin-texts';

/**
 * An administrator turns off another user's two-factor (a lost phone, issue 16 point 4),
 * after a confirmation that says what follows. An administrator with two-factor on confirms
 * with their own code, so a stolen administrator session alone cannot strip others'
 * protection; the field shows at once when their status says so, or when the server asks.
 */
export function ResetTwoFactorDialog({ user, onClose }: { user: MerchantUser | null; onClose: () => void }) {
  const { t } = useTranslation();
  const formId = useId();
  const own = useOwnTwoFactorEnabled(user !== null);
  const reset = useMerchantAdmin(resetUserTwoFactor);
  const field = useAuthCodeField({ required: true });
  const [askedByServer, setAskedByServer] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const askCode = askedByServer || own.data === true;
  // Until the status is known, a submission might go without the code it needs.
  const waiting = user !== null && own.isLoading;

  const close = () => {
    setAskedByServer(false);
    setRefusal(null);
    field.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!user || reset.isPending || waiting) return;
    let code: string | undefined;
    if (askCode) {
      code = field.validate() ?? undefined;
      if (!code) return;
    }
    setRefusal(null);
    reset.mutate(
      { user_id: user.user_id, ...(code ? { code } : {}) },
      {
        onSuccess: () => {
          showSuccessMessage(t('merchantAdmin.twoFactor.done', { username: user.username }));
          close();
        },
        onError: (error) => {
          const next = resetRefusal(error, code !== undefined, t('merchantAdmin.twoFactor.failed'));
          if (next.askCode) setAskedByServer(true);
          setRefusal(next.message);
          if (code) field.clear();
        },
      },
    );
  };

  return (
    <Modal
      open={user !== null}
      title={user ? `${t('merchantAdmin.users.twoFactor')} · ${user.username}` : ''}
      onCancel={reset.isPending ? undefined : close}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={close} disabled={reset.isPending} data-testid="reset-2fa-cancel">
          {t('common.cancel')}
        </Button>,
        <Button
          key="confirm"
          type="primary"
          danger
          htmlType="submit"
          form={formId}
          loading={reset.isPending || waiting}
          data-testid="reset-2fa-confirm"
        >
          {t('merchantAdmin.twoFactor.submit')}
        </Button>,
      ]}
    >
      <form id={formId} onSubmit={submit} noValidate data-testid="reset-2fa-dialog">
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Alert
            type="warning"
            showIcon
            title={t('merchantAdmin.twoFactor.confirm', { username: user?.username ?? '' })}
          />
          {refusal ? <Alert type="error" showIcon title={refusal} data-testid="reset-2fa-refusal" /> : null}
          {askCode ? (
            <>
              <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
                {t('merchantAdmin.twoFactor.ownCode')}
              </Typography.Paragraph>
              <AuthCodeInput field={field} autoFocus disabled={reset.isPending} testId="reset-2fa-code" />
            </>
          ) : null}
        </Space>
      </form>
    </Modal>
  );
}
