import { Button, Form, Input, Modal, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSuccessMessage } from '@/lib/feedback';
import { applyServerFieldErrors } from '@/lib/form-errors';
import { formatFen } from '@/lib/money';
import { useSubmission } from '@/lib/submission';
import { useResolveOrder } from '../api/orders';
import type { OrderItem } from '../api/types';
import { useStepUp } from '@/components/step-up/use-step-up';

interface ResolveForm {
  serial_no?: string;
  reason?: string;
}

/**
 * Administrators: mark an on-behalf order (awaiting a person or under review) done. Each
 * dialog says exactly what it does: a success records the serial number that proves the
 * top-up (required) and refunds nothing; a failure refunds the price to the merchant and
 * needs a reason. Both go on the order's timeline with the administrator's name.
 */
export function ResolveActions({ order, compact = false }: { order: OrderItem; compact?: boolean }) {
  const { t } = useTranslation();
  const resolve = useResolveOrder();
  const stepUp = useStepUp();
  const [result, setResult] = useState<'success' | 'failure' | null>(null);
  const [form] = Form.useForm<ResolveForm>();
  // A retry of the same submission goes with the same key: it cannot refund twice.
  const submission = useSubmission();
  const open = (chosen: 'success' | 'failure') => {
    submission.forget();
    setResult(chosen);
  };
  if (order.status !== 0 && order.status !== 4) return null;

  const submit = ({ serial_no, reason }: ResolveForm) => {
    if (!result) return;
    const note = reason?.trim() || undefined;
    const request = {
      order_id: order.id,
      result,
      reason: note,
      ...(result === 'success' ? { serial_no: serial_no?.trim() } : {}),
    };
    // A refund moves money: with two-factor on, the code first (step-up), then this again.
    submission
      .run(request, (idempotencyKey) => stepUp.guard(() => resolve.mutateAsync({ ...request, idempotencyKey })))
      ?.then(
        () => {
          showSuccessMessage(t('common.resolve.done'));
          setResult(null);
          form.resetFields();
        },
        (error: unknown) => applyServerFieldErrors(form, error, { knownFields: ['serial_no', 'reason'] }),
      );
  };
  const success = result === 'success';
  const required = (message: string) => ({ required: true, whitespace: true, message });

  return (
    <>
      <Space size={compact ? 4 : 8}>
        <Button
          size={compact ? 'small' : 'middle'}
          type="primary"
          onClick={() => open('success')}
          data-testid="resolve-success"
        >
          {t('common.resolve.success')}
        </Button>
        <Button
          size={compact ? 'small' : 'middle'}
          danger
          onClick={() => open('failure')}
          data-testid="resolve-failure"
        >
          {t('common.resolve.failure')}
        </Button>
      </Space>
      <Modal
        open={result !== null}
        title={success ? t('common.resolve.success') : t('common.resolve.failure')}
        onCancel={() => setResult(null)}
        onOk={() => form.submit()}
        confirmLoading={submission.pending}
        destroyOnHidden
        okButtonProps={{ danger: !success, ...({ 'data-testid': 'resolve-confirm' } as Record<string, string>) }}
      >
        <p data-testid="resolve-explanation">
          {success
            ? t('common.resolve.confirmSuccess', { orderNo: order.order_no })
            : t('common.resolve.confirmFailure', { orderNo: order.order_no, amount: formatFen(order.price_fen) })}
        </p>
        <Form form={form} layout="vertical" onFinish={submit}>
          {success ? (
            <Form.Item
              name="serial_no"
              label={t('common.column.serialNo')}
              rules={[required(t('common.resolve.serialRequired'))]}
            >
              <Input maxLength={128} data-testid="resolve-text" />
            </Form.Item>
          ) : null}
          <Form.Item
            name="reason"
            label={success ? t('common.resolve.note') : t('common.detail.failureReason')}
            rules={success ? [] : [required(t('common.resolve.reasonRequired'))]}
          >
            <Input maxLength={200} data-testid={success ? 'resolve-note' : 'resolve-text'} />
          </Form.Item>
        </Form>
      </Modal>
      {stepUp.element}
    </>
  );
}
