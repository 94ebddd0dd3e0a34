import { Alert, Button, Modal, Typography } from 'antd';
import { type FormEvent, type ReactNode, useCallback, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthCodeInput } from '@/components/auth-code-input/auth-code-input';
import { useAuthCodeField } from '@/components/auth-code-input/use-auth-code-field';
import '@/locales/step-up-texts';
import { confirmStepUp, isStepUpRequired } from './step-up';

/** A money action refused for want of a step-up, waiting for the code. */
interface Pending {
  retry: () => void;
  cancel: () => void;
}

function StepUpForm({ formId, busy, onCode }: { formId: string; busy: boolean; onCode: (code: string) => void }) {
  const { t } = useTranslation();
  const field = useAuthCodeField({ required: true });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const code = field.validate();
    if (code) onCode(code);
  };
  return (
    <form id={formId} onSubmit={submit} noValidate>
      <Typography.Paragraph type="secondary">{t('stepUp.prompt')}</Typography.Paragraph>
      <AuthCodeInput field={field} autoFocus disabled={busy} testId="step-up-code" />
    </form>
  );
}

function StepUpDialog({ pending, onClose }: { pending: Pending | null; onClose: () => void }) {
  const { t } = useTranslation();
  const formId = useId();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const close = (then: (() => void) | undefined) => {
    setRefusal(null);
    onClose();
    then?.();
  };
  const onCode = (code: string) => {
    setBusy(true);
    setRefusal(null);
    confirmStepUp(code)
      .then(() => close(pending?.retry))
      .catch((error: unknown) => setRefusal(error instanceof Error ? error.message : t('request.error')))
      .finally(() => setBusy(false));
  };
  return (
    <Modal
      open={pending !== null}
      title={t('stepUp.title')}
      onCancel={busy ? undefined : () => close(pending?.cancel)}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={() => close(pending?.cancel)} disabled={busy} data-testid="step-up-cancel">
          {t('common.cancel')}
        </Button>,
        <Button
          key="confirm"
          type="primary"
          htmlType="submit"
          form={formId}
          loading={busy}
          data-testid="step-up-confirm"
        >
          {t('stepUp.confirm')}
        </Button>,
      ]}
    >
      {refusal ? <Alert type="error" showIcon title={refusal} data-testid="step-up-refusal" /> : null}
      <StepUpForm formId={formId} busy={busy} onCode={onCode} />
    </Modal>
  );
}

/**
 * Wraps money actions: `guard(action)` runs the action; if the server asks for a step-up,
 * the code dialog (`element`, to be rendered by the caller) opens, and once the code is
 * accepted the same action (same idempotency key) runs again and its result is returned.
 * Cancelling rejects with the original refusal.
 */
export function useStepUp(): { guard: <T>(action: () => Promise<T>) => Promise<T>; element: ReactNode } {
  const [pending, setPending] = useState<Pending | null>(null);
  const guard = useCallback(
    <T,>(action: () => Promise<T>): Promise<T> =>
      action().catch((error: unknown) => {
        if (!isStepUpRequired(error)) throw error;
        return new Promise<T>((resolve, reject) =>
          setPending({ retry: () => void action().then(resolve, reject), cancel: () => reject(error) }),
        );
      }),
    [],
  );
  const element = <StepUpDialog pending={pending} onClose={() => setPending(null)} />;
  return { guard, element };
}
