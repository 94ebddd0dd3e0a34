import { Alert, Button, Card, Form, Input, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSuccessMessage } from '@/lib/feedback';
import { applyServerFieldErrors } from '@/lib/form-errors';
import { parseYuanToFen } from '@/lib/money';
import { useFileFunding } from '../api/funding';

interface Values {
  amount: string;
  reference: string;
  payer: string;
  note?: string;
}

/** What the server reads by content anyway; the picker only offers these. */
const ACCEPT = 'image/png,image/jpeg,image/webp';
const MAX_PROOF_BYTES = 5 * 1024 * 1024;

/**
 * The merchant's funding request: amount in yuan (sent in fen), the transfer's reference,
 * the payer, the receipt image and a note. The submit button is disabled while a filing is
 * in flight, so a double click files once; a repeat after an answer is refused by the
 * server as a duplicate reference anyway.
 */
export function FundingForm() {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [proof, setProof] = useState<UploadFile[]>([]);
  const [proofError, setProofError] = useState(false);
  const file = useFileFunding();
  const submit = (values: Values) => {
    if (file.isPending) return;
    const amountFen = parseYuanToFen(values.amount);
    const picked = proof[0]?.originFileObj;
    if (!picked || picked.size > MAX_PROOF_BYTES) {
      setProofError(true);
      return;
    }
    if (amountFen === null || amountFen <= 0) return;
    file
      .mutateAsync({
        amountFen,
        bankReference: values.reference,
        payerName: values.payer,
        note: values.note,
        proof: picked,
      })
      .then(
        () => {
          showSuccessMessage(t('funding.filed'));
          form.resetFields();
          setProof([]);
        },
        (error: unknown) =>
          applyServerFieldErrors(form, error, {
            fieldMap: {
              amount_fen: 'amount',
              bank_reference: 'reference',
              payer_name: 'payer',
              note: 'note',
              file: null,
            },
          }),
      );
  };
  return (
    <Card title={t('funding.form.title')} data-testid="funding-form-card">
      <Alert type="info" showIcon title={t('funding.form.hint')} style={{ marginBottom: 16 }} />
      <Form form={form} layout="vertical" onFinish={submit} data-testid="funding-form" style={{ maxWidth: 560 }}>
        <Form.Item
          name="amount"
          label={t('funding.amount')}
          rules={[
            {
              validator: async (_rule, value: string | undefined) => {
                const fen = parseYuanToFen(value ?? '');
                if (fen === null || fen <= 0) throw new Error(t('funding.amount.invalid'));
              },
            },
          ]}
        >
          <Input inputMode="decimal" prefix="¥" data-testid="funding-amount" />
        </Form.Item>
        <Form.Item
          name="reference"
          label={t('funding.reference')}
          rules={[{ required: true, whitespace: true, max: 64, message: t('funding.reference.required') }]}
        >
          <Input maxLength={64} data-testid="funding-reference" />
        </Form.Item>
        <Form.Item
          name="payer"
          label={t('funding.payer')}
          rules={[{ required: true, whitespace: true, max: 64, message: t('funding.payer.required') }]}
        >
          <Input maxLength={64} data-testid="funding-payer" />
        </Form.Item>
        <Form.Item
          label={t('funding.proof')}
          required
          validateStatus={proofError ? 'error' : undefined}
          help={proofError ? t('funding.proof.required') : undefined}
        >
          <Upload
            accept={ACCEPT}
            maxCount={1}
            listType="picture"
            fileList={proof}
            // Sent with the form, not on its own.
            beforeUpload={() => false}
            onChange={({ fileList }) => {
              setProof(fileList.slice(-1));
              setProofError(false);
            }}
            data-testid="funding-proof"
          >
            <Button data-testid="funding-proof-pick">{t('funding.proof.pick')}</Button>
          </Upload>
        </Form.Item>
        <Form.Item name="note" label={t('funding.note')} rules={[{ max: 200 }]}>
          <Input.TextArea maxLength={200} showCount autoSize={{ minRows: 2, maxRows: 4 }} data-testid="funding-note" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={file.isPending} data-testid="funding-submit">
          {t('funding.submit')}
        </Button>
      </Form>
    </Card>
  );
}
