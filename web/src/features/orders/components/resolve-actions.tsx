import { Button, Form, Input, Modal, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSuccessMessage } from '@/lib/feedback';
import { newIdempotencyKey } from '@/lib/idempotency';
import { useResolveOrder } from '../api/orders';
import type { OrderItem } from '../api/types';

/** Administrators: mark an on-behalf order (awaiting a person or under review) done. */
export function ResolveActions({ order, compact = false }: { order: OrderItem; compact?: boolean }) {
  const { t } = useTranslation();
  const resolve = useResolveOrder();
  const [result, setResult] = useState<'success' | 'failure' | null>(null);
  // One key per opening of the dialog: a retry of the same submission cannot refund twice.
  const [idempotencyKey, setIdempotencyKey] = useState('');
  const open = (chosen: 'success' | 'failure') => {
    setIdempotencyKey(newIdempotencyKey());
    setResult(chosen);
  };
  const [form] = Form.useForm<{ text?: string }>();
  if (order.status !== 0 && order.status !== 4) return null;

  const submit = ({ text }: { text?: string }) => {
    if (!result) return;
    const value = text?.trim() || undefined;
    resolve.mutate(
      { idempotencyKey, order_id: order.id, result, ...(result === 'success' ? { serial_no: value } : { reason: value }) },
      {
        onSuccess: () => {
          showSuccessMessage(t('orderCommon.resolve.done'));
          setResult(null);
          form.resetFields();
        },
      },
    );
  };

  return (
    <>
      <Space size={compact ? 4 : 8}>
        <Button size={compact ? 'small' : 'middle'} type="primary" onClick={() => open('success')} data-testid="resolve-success">
          {t('orderCommon.resolve.success')}
        </Button>
        <Button size={compact ? 'small' : 'middle'} danger onClick={() => open('failure')} data-testid="resolve-failure">
          {t('orderCommon.resolve.failure')}
        </Button>
      </Space>
      <Modal
        open={result !== null}
        title={result === 'success' ? t('orderCommon.resolve.success') : t('orderCommon.resolve.failure')}
        onCancel={() => setResult(null)}
        onOk={() => form.submit()}
        confirmLoading={resolve.isPending}
        destroyOnHidden
        okButtonProps={{ 'data-testid': 'resolve-confirm' } as Record<string, string>}
      >
        <p>{t('orderCommon.resolve.confirm', { orderNo: order.order_no })}</p>
        <Form form={form} layout="vertical" onFinish={submit}>
          <Form.Item
            name="text"
            label={result === 'success' ? t('orderCommon.column.serialNo') : t('orderCommon.detail.failureReason')}
          >
            <Input maxLength={128} data-testid="resolve-text" />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
