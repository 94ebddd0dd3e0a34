import { Alert, Button, Form, Input, Modal, Typography } from 'antd';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthCodeInput } from '@/components/auth-code-input/auth-code-input';
import { useAuthCodeField } from '@/components/auth-code-input/use-auth-code-field';
import { showSuccessMessage } from '@/lib/feedback';
import '@/locales/card-export-texts';
import { type Submission, useSubmission } from '@/lib/submission';
import {
  type CardExportChoice,
  CARD_EXPORT_FILE_PREFIX,
  cardExportBody,
  cardExportFileName,
  exportCardSecrets,
  isStrongExportPassword,
  MAX_CARD_EXPORT,
  useTwoFactorOn,
} from '../api/card-export';

export interface CardExportDialogProps {
  /** The orders to export; null keeps the dialog closed. */
  choice: CardExportChoice | null;
  /** How many orders the choice holds (ticked rows, or the filter's total). */
  count: number;
  onClose: () => void;
}

interface Problems {
  password?: string;
  confirm?: string;
}

function problemsOf(password: string, confirm: string): Problems {
  const problems: Problems = {};
  if (!isStrongExportPassword(password)) problems.password = 'cardExport.passwordRule';
  else if (confirm !== password) problems.confirm = 'cardExport.confirmMismatch';
  return problems;
}

function ExportForm({
  formId,
  choice,
  count,
  submission,
  onDone,
}: Omit<CardExportDialogProps, 'onClose'> & { formId: string; submission: Submission; onDone: () => void }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [checked, setChecked] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const twoFactor = useTwoFactorOn(true);
  const needsCode = twoFactor.data === true;
  const code = useAuthCodeField({ required: true });
  const tooMany = count > MAX_CARD_EXPORT;
  const problems = checked ? problemsOf(password, confirm) : {};

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!choice || tooMany || submission.pending) return;
    setChecked(true);
    const found = problemsOf(password, confirm);
    const codeValue = needsCode ? code.validate() : undefined;
    if (found.password || found.confirm || codeValue === null) return;
    setRefusal(null);
    const body = cardExportBody(choice, password, codeValue);
    submission
      .run(choice, () => exportCardSecrets(body, cardExportFileName(CARD_EXPORT_FILE_PREFIX)))
      ?.then(() => {
        showSuccessMessage(t('cardExport.done'));
        onDone();
      })
      .catch((error: unknown) => {
        if (needsCode) code.clear();
        setRefusal(error instanceof Error ? error.message : t('request.error'));
      });
  };

  return (
    <form id={formId} onSubmit={submit} noValidate data-testid="card-export-form">
      <Typography.Paragraph data-testid="card-export-count">
        {'orderIds' in (choice ?? {})
          ? t('cardExport.countChosen', { count })
          : t('cardExport.countFiltered', { count })}
      </Typography.Paragraph>
      {tooMany ? (
        <Alert
          type="error"
          showIcon
          title={t('cardExport.tooMany', { max: MAX_CARD_EXPORT })}
          data-testid="card-export-too-many"
        />
      ) : (
        <Typography.Paragraph type="secondary">{t('cardExport.hint')}</Typography.Paragraph>
      )}
      {refusal ? (
        <Alert type="error" showIcon title={refusal} data-testid="card-export-refusal" style={{ marginBottom: 16 }} />
      ) : null}
      <Form layout="vertical" component={false}>
        <Form.Item
          label={t('cardExport.password')}
          htmlFor={`${formId}-password`}
          required
          validateStatus={problems.password ? 'error' : undefined}
          help={problems.password ? t(problems.password) : t('cardExport.passwordRule')}
        >
          <Input.Password
            id={`${formId}-password`}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            autoComplete="new-password"
            maxLength={64}
            disabled={tooMany || submission.pending}
            data-testid="card-export-password"
          />
        </Form.Item>
        <Form.Item
          label={t('cardExport.confirm')}
          htmlFor={`${formId}-confirm`}
          required
          validateStatus={problems.confirm ? 'error' : undefined}
          help={problems.confirm ? t(problems.confirm) : undefined}
        >
          <Input.Password
            id={`${formId}-confirm`}
            value={confirm}
            onChange={(event) => setConfirm(event.target.value)}
            autoComplete="new-password"
            maxLength={64}
            disabled={tooMany || submission.pending}
            data-testid="card-export-confirm"
          />
        </Form.Item>
        {needsCode ? (
          <Form.Item label={t('cardExport.code')} required>
            <AuthCodeInput field={code} disabled={submission.pending} testId="card-export-code" />
          </Form.Item>
        ) : null}
      </Form>
    </form>
  );
}

/**
 * Export card secrets (卡密): the chosen orders' card numbers and secrets in an xlsx that
 * opens only with the password given here. A person with two-factor on also gives a code.
 */
export function CardExportDialog({ choice, count, onClose }: CardExportDialogProps) {
  const { t } = useTranslation();
  const formId = useId();
  const submission = useSubmission();
  const close = () => {
    if (submission.pending) return;
    submission.forget();
    onClose();
  };
  const done = () => {
    submission.forget();
    onClose();
  };
  return (
    <Modal
      open={choice !== null}
      title={t('cardExport.title')}
      onCancel={close}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={close} disabled={submission.pending} data-testid="card-export-cancel">
          {t('common.cancel')}
        </Button>,
        <Button
          key="export"
          type="primary"
          htmlType="submit"
          form={formId}
          disabled={count > MAX_CARD_EXPORT}
          loading={submission.pending}
          data-testid="card-export-submit"
        >
          {t('cardExport.submit')}
        </Button>,
      ]}
    >
      {choice ? (
        <ExportForm formId={formId} choice={choice} count={count} submission={submission} onDone={done} />
      ) : null}
    </Modal>
  );
}
