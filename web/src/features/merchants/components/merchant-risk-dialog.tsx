import { Form, Input, Modal, Skeleton, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { showSuccessMessage } from '@/lib/feedback';
import { applyServerFieldErrors } from '@/lib/form-errors';
import { useSubmission } from '@/lib/submission';
import { type MerchantRow, useMerchantRisk, useSaveMerchantRisk } from '../api/merchants';
import { parseCount, parseLimitYuan, riskBody, type RiskFormValues, riskFormValues } from './risk-form';
import '@/locales/risk-texts';

/**
 * A merchant's risk controls (administrators): one order in flight per number, the
 * per-number daily limits and the merchant's daily cap. Saved as one change, audited.
 */
export function MerchantRiskDialog({ merchant, onClose }: { merchant: MerchantRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RiskFormValues>();
  const risk = useMerchantRisk(merchant?.merchant_id ?? null);
  const save = useSaveMerchantRisk();
  // A double click submits the form twice before the first answer: saved (and audited) once.
  const submission = useSubmission();
  const countRule = {
    validator: async (_: unknown, value: string | undefined) => {
      if (parseCount(value ?? '') === null) throw new Error(t('risk.countInvalid'));
    },
  };
  const amountRule = {
    validator: async (_: unknown, value: string | undefined) => {
      if (parseLimitYuan(value ?? '') === null) throw new Error(t('risk.amountInvalid'));
    },
  };
  return (
    <Modal
      open={merchant !== null}
      title={merchant ? `${t('risk.title')} · ${merchant.name}（${merchant.merchant_id}）` : ''}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={submission.pending}
      okButtonProps={{ disabled: !risk.data, ...({ 'data-testid': 'merchant-risk-submit' } as Record<string, string>) }}
      destroyOnHidden
    >
      {risk.data && merchant ? (
        <Form
          form={form}
          layout="vertical"
          preserve={false}
          initialValues={riskFormValues(risk.data)}
          data-testid="merchant-risk-form"
          onFinish={(values) => {
            const body = riskBody(merchant.merchant_id, values);
            if (!body) return;
            submission
              .run(body, () => save.mutateAsync(body))
              ?.then(() => {
                showSuccessMessage(t('risk.saved'));
                onClose();
              })
              .catch((error: unknown) =>
                applyServerFieldErrors(form, error, {
                  fieldMap: { number_daily_fen: 'number_daily_yuan', daily_cap_fen: 'daily_cap_yuan' },
                }),
              );
          }}
        >
          <Typography.Paragraph type="secondary">{t('risk.intro')}</Typography.Paragraph>
          <Form.Item
            name="single_flight"
            label={t('risk.singleFlight')}
            valuePropName="checked"
            extra={t('risk.singleFlight.help')}
          >
            <Switch data-testid="merchant-risk-single-flight" />
          </Form.Item>
          <Form.Item name="number_daily_orders" label={t('risk.numberDailyOrders')} rules={[countRule]}>
            <Input inputMode="numeric" placeholder={t('risk.unlimited')} data-testid="merchant-risk-orders" />
          </Form.Item>
          <Form.Item name="number_daily_yuan" label={t('risk.numberDailyYuan')} rules={[amountRule]}>
            <Input prefix="¥" inputMode="decimal" data-testid="merchant-risk-number-amount" />
          </Form.Item>
          <Form.Item name="daily_cap_yuan" label={t('risk.dailyCapYuan')} rules={[amountRule]}>
            <Input prefix="¥" inputMode="decimal" data-testid="merchant-risk-cap" />
          </Form.Item>
        </Form>
      ) : (
        <Skeleton active />
      )}
    </Modal>
  );
}
