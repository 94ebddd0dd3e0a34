import { Button, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStepUp } from '@/components/step-up/use-step-up';
import { showSuccessMessage } from '@/lib/feedback';
import { applyServerFieldErrors } from '@/lib/form-errors';
import { formatFen } from '@/lib/money';
import { useReverseOrder } from '../api/orders';
import type { OrderItem } from '../api/types';

/** The server's bound on the reason (`order.reversal.reason_invalid`). */
export const MAX_REVERSAL_REASON = 200;

interface ReverseForm {
  reason: string;
}

/**
 * Administrators: reverse (冲正) a successful order whose top-up did not stand. The dialog
 * says it refunds the price and tells the merchant; the reason is required (the merchant
 * sees it). A refund moves money: with two-factor on, the step-up code first.
 */
export function ReverseAction({ order }: { order: OrderItem }) {
  const { t } = useTranslation();
  const reverse = useReverseOrder();
  const stepUp = useStepUp();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<ReverseForm>();
  if (order.status !== 2) return null;

  const submit = ({ reason }: ReverseForm) => {
    const request = { order_id: order.id, reason: reason.trim() };
    stepUp
      .guard(() => reverse.mutateAsync(request))
      .then(
        () => {
          showSuccessMessage(t('common.reverse.done'));
          setOpen(false);
          form.resetFields();
        },
        (error: unknown) => applyServerFieldErrors(form, error, { knownFields: ['reason'] }),
      );
  };

  return (
    <>
      <Button danger onClick={() => setOpen(true)} data-testid="reverse-order">
        {t('common.reverse.action')}
      </Button>
      <Modal
        open={open}
        title={t('common.reverse.action')}
        onCancel={() => setOpen(false)}
        onOk={() => form.submit()}
        confirmLoading={reverse.isPending}
        destroyOnHidden
        okButtonProps={{ danger: true, ...({ 'data-testid': 'reverse-confirm' } as Record<string, string>) }}
      >
        <p data-testid="reverse-explanation">
          {t('common.reverse.confirm', { orderNo: order.order_no, amount: formatFen(order.price_fen) })}
        </p>
        <Form form={form} layout="vertical" onFinish={submit}>
          <Form.Item
            name="reason"
            label={t('common.reverse.reason')}
            rules={[{ required: true, whitespace: true, message: t('common.reverse.reasonRequired') }]}
          >
            <Input maxLength={MAX_REVERSAL_REASON} data-testid="reverse-reason" />
          </Form.Item>
        </Form>
      </Modal>
      {stepUp.element}
    </>
  );
}
