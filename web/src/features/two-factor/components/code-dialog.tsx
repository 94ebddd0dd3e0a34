import { Alert, Button, Modal, Typography } from 'antd';
import { useId, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthCodeInput } from '@/components/auth-code-input/auth-code-input';
import { useAuthCodeField, type AuthCodeField } from '@/components/auth-code-input/use-auth-code-field';
import { DIALOG_CODE_RULES } from './code-rules';

export type CodeDialogKind = 'disable' | 'regenerate';

export interface CodeDialogProps {
  kind: CodeDialogKind;
  open: boolean;
  busy: boolean;
  onCancel: () => void;
  /** Called with a code that passed the rules; `field` lets the caller clear it after a refusal. */
  onSubmit: (code: string, field: AuthCodeField) => void;
}

/** The code form inside the dialog; mounted afresh on each opening, so the field starts empty. */
function CodeForm({
  kind,
  busy,
  onSubmit,
  formId,
}: Pick<CodeDialogProps, 'kind' | 'busy' | 'onSubmit'> & { formId: string }) {
  const { t } = useTranslation();
  const field = useAuthCodeField(DIALOG_CODE_RULES);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const code = field.validate();
    if (code) onSubmit(code, field);
  };
  return (
    <form id={formId} onSubmit={submit} noValidate className="two-factor-dialog__form">
      <Alert
        type="warning"
        showIcon
        title={t(`twoFactor.${kind}.warning`)}
        data-testid={`two-factor-${kind}-warning`}
      />
      <Typography.Paragraph type="secondary" className="two-factor-dialog__prompt">
        {t('twoFactor.dialog.prompt')}
      </Typography.Paragraph>
      <AuthCodeInput field={field} autoFocus disabled={busy} testId={`two-factor-${kind}-code`} />
    </form>
  );
}

/**
 * Disable and regenerate ask for a code: an authenticator code, or after 'Forgot code'
 * a backup code, so someone without the phone can still turn two-factor off.
 */
export function CodeDialog({ kind, open, busy, onCancel, onSubmit }: CodeDialogProps) {
  const { t } = useTranslation();
  const formId = useId();
  return (
    <Modal
      open={open}
      title={t(`twoFactor.${kind}.title`)}
      onCancel={busy ? undefined : onCancel}
      destroyOnHidden
      mask={{ closable: !busy }}
      footer={[
        <Button key="cancel" onClick={onCancel} disabled={busy} data-testid={`two-factor-${kind}-cancel`}>
          {t('common.cancel')}
        </Button>,
        <Button
          key="confirm"
          type="primary"
          danger={kind === 'disable'}
          htmlType="submit"
          form={formId}
          loading={busy}
          data-testid={`two-factor-${kind}-confirm`}
        >
          {t(`twoFactor.${kind}.confirm`)}
        </Button>,
      ]}
    >
      <div data-testid={`two-factor-${kind}-dialog`}>
        <CodeForm kind={kind} busy={busy} onSubmit={onSubmit} formId={formId} />
      </div>
    </Modal>
  );
}
