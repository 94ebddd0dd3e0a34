import { Alert, Button, Form, Input, Modal, Typography } from 'antd';
import { type MouseEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStepUp } from '@/components/step-up/use-step-up';
import { showSuccessMessage } from '@/lib/feedback';
import { applyServerFieldErrors } from '@/lib/form-errors';
import { formatFen, parseYuanToFen } from '@/lib/money';
import { useSubmission } from '@/lib/submission';
import { type MerchantAction, type MerchantRow, useMerchantAction } from '../api/merchants';

export interface ActionState {
  action: MerchantAction;
  merchant: MerchantRow;
}

/** A money action checked and waiting for the administrator's second look. */
interface Checked {
  amountFen: number;
  remark?: string;
}

/**
 * One money action on a merchant, in two steps: the form (amount; a remark, required for an
 * adjustment, which must say what it corrects), then a confirmation that echoes the amount
 * and the merchant, so a mistyped amount is caught before money moves.
 */
export function ActionDialog({ state, onClose }: { state: ActionState | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ amount: string; remark?: string }>();
  const run = useMerchantAction();
  const stepUp = useStepUp();
  const submission = useSubmission();
  const [checked, setChecked] = useState<Checked | null>(null);
  const action = state?.action;
  const merchant = state?.merchant;
  const close = () => {
    setChecked(null);
    // Opening the dialog again is a new action, with a new key.
    submission.forget();
    onClose();
  };
  const execute = () => {
    if (!state || !checked) return;
    const request = { action: state.action, merchantId: state.merchant.merchant_id, ...checked };
    // With two-factor on, the server may first ask for a code (step-up); the same request,
    // with the same idempotency key, is sent again once it is given. A retry of the same
    // amount after a failure keeps the key too; a confirm while one is in flight is dropped.
    submission
      .run(request, (idempotencyKey) => stepUp.guard(() => run.mutateAsync({ ...request, idempotencyKey })))
      ?.then(
        () => {
          showSuccessMessage(t('merchants.done'));
          close();
        },
        (error: unknown) => {
          // Back to the form, with the server's message under its field.
          setChecked(null);
          setTimeout(() =>
            applyServerFieldErrors(form, error, { fieldMap: { amount_fen: 'amount', credit_limit_fen: 'amount' } }),
          );
        },
      );
  };

  return (
    <>
      <Modal
        open={state !== null}
        title={action && merchant ? t(`merchants.action.${action}`) + ` · ${merchant.name}` : ''}
        // The corner X abandons the action at either step. A click beside the dialog does not:
        // the review step is shorter than the form, so the second click of a double click on
        // 下一步 can land on the mask below it, and that closed the dialog.
        onCancel={close}
        mask={{ closable: false }}
        footer={
          checked && action ? (
            <ReviewFooter
              confirmText={t(`merchants.action.${action}`)}
              backText={t('merchants.back')}
              pending={submission.pending}
              onBack={() => setChecked(null)}
              onConfirm={execute}
            />
          ) : (
            <>
              <Button key="cancel" onClick={close} data-testid="merchant-action-cancel">
                {t('common.cancel')}
              </Button>
              {/* Only ever advances to the review step: the money moves from another button there. */}
              <Button key="next" type="primary" onClick={() => form.submit()} data-testid="merchant-action-next">
                {t('merchants.next')}
              </Button>
            </>
          )
        }
        destroyOnHidden
      >
        {merchant ? (
          <Typography.Paragraph type="secondary">
            {t('merchants.current', {
              balance: formatFen(merchant.balance_fen),
              limit: formatFen(merchant.credit_limit_fen),
              used: formatFen(merchant.credit_used_fen),
            })}
          </Typography.Paragraph>
        ) : null}
        {checked && action && merchant ? (
          <Alert
            type="warning"
            showIcon
            data-testid="merchant-action-echo"
            title={t(`merchants.confirm.${action}`, {
              name: merchant.name,
              mid: merchant.merchant_id,
              amount: formatFen(checked.amountFen),
            })}
            description={checked.remark ? t('merchants.confirm.remark', { remark: checked.remark }) : undefined}
          />
        ) : null}
        <Form
          form={form}
          layout="vertical"
          hidden={checked !== null}
          initialValues={
            action === 'credit' && merchant ? { amount: formatFen(merchant.credit_limit_fen, { grouping: false }) } : {}
          }
          onFinish={({ amount, remark }) => {
            if (!state) return;
            const amountFen = parseYuanToFen(amount, { allowNegative: state.action === 'adjust' });
            if (amountFen === null) return;
            setChecked({ amountFen, remark: remark?.trim() || undefined });
          }}
        >
          <Form.Item
            name="amount"
            label={action === 'credit' ? t('merchants.newLimit') : t('merchants.amount')}
            rules={[
              {
                validator: async (_rule, value: string | undefined) => {
                  const fen = parseYuanToFen(value ?? '', { allowNegative: action === 'adjust' });
                  if (fen === null) throw new Error(t('merchants.amountInvalid'));
                  if (action !== 'credit' && fen === 0) throw new Error(t('merchants.amountInvalid'));
                },
              },
            ]}
          >
            <Input prefix="¥" inputMode="decimal" data-testid="merchant-action-amount" />
          </Form.Item>
          <Form.Item
            name="remark"
            label={t('common.record.remark')}
            rules={
              action === 'adjust' ? [{ required: true, whitespace: true, message: t('merchants.remarkRequired') }] : []
            }
          >
            <Input maxLength={200} data-testid="merchant-action-remark" />
          </Form.Item>
        </Form>
      </Modal>
      {stepUp.element}
    </>
  );
}

/**
 * The review step's buttons, at the footer's start: none of them stands where 下一步 stood
 * (the footer's end), so the second click of a double click on 下一步 lands on no button.
 * The confirm button also counts only a click on itself once it has been drawn: a press
 * that began before (on 下一步) is no confirmation. A keyboard press (no pointer) counts.
 */
function ReviewFooter({
  confirmText,
  backText,
  pending,
  onBack,
  onConfirm,
}: {
  confirmText: string;
  backText: string;
  pending: boolean;
  onBack: () => void;
  onConfirm: () => void;
}) {
  const shown = useRef(false);
  const pressed = useRef(false);
  useEffect(() => {
    shown.current = true;
  }, []);
  const confirm = (event: MouseEvent) => {
    const keyboard = event.detail === 0;
    if (!shown.current || (!keyboard && !pressed.current)) return;
    pressed.current = false;
    onConfirm();
  };
  return (
    <div style={{ display: 'flex', justifyContent: 'flex-start', gap: 8 }} data-testid="merchant-action-review">
      <Button onClick={onBack} disabled={pending} data-testid="merchant-action-back">
        {backText}
      </Button>
      <Button
        type="primary"
        loading={pending}
        onPointerDown={() => {
          if (shown.current) pressed.current = true;
        }}
        onClick={confirm}
        data-testid="merchant-action-confirm"
      >
        {confirmText}
      </Button>
    </div>
  );
}
