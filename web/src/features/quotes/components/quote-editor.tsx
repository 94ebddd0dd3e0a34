import { Descriptions, Form, Input, Modal, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { showSuccessMessage } from '@/lib/feedback';
import { applyServerFieldErrors } from '@/lib/form-errors';
import { formatFen, parseYuanToFen } from '@/lib/money';
import { type QuoteItem, useSaveQuote } from '../api/quotes';

interface EditForm {
  price: string;
  on: boolean;
}

/**
 * One merchant's quote, edited by an administrator: the supply price (typed in yuan, sent
 * as whole fen) and whether it is on. The server keeps the change in the price history
 * and the audit trail.
 */
export function QuoteEditor({ quote, onClose }: { quote: QuoteItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<EditForm>();
  const save = useSaveQuote();
  const submit = (values: EditForm) => {
    const price = parseYuanToFen(values.price);
    if (!quote || price === null) return;
    save.mutate(
      { merchant_id: quote.merchant_id, product_key: quote.product_key, price_fen: price, status: values.on ? 1 : 0 },
      {
        onSuccess: () => {
          showSuccessMessage(t('quotes.edit.saved'));
          onClose();
        },
        onError: (error) =>
          applyServerFieldErrors(form, error, {
            fieldMap: { price_fen: 'price', status: 'on' },
            knownFields: ['price', 'on'],
          }),
      },
    );
  };
  return (
    <Modal
      open={quote !== null}
      title={t('quotes.edit.title')}
      okText={t('quotes.edit.save')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'quote-edit-save' } as Record<string, string>}
      destroyOnHidden
      data-testid="quote-editor"
    >
      {quote ? (
        <>
          <Descriptions
            size="small"
            column={1}
            style={{ marginBottom: 16 }}
            items={[
              {
                key: 'merchant',
                label: t('listPage.merchant'),
                children: `${quote.merchant_name} (${quote.merchant_id})`,
              },
              {
                key: 'product',
                label: t('common.column.productName'),
                children: `${quote.product_name} · ${quote.product_key}`,
              },
              { key: 'face', label: t('common.column.faceValue'), children: formatFen(quote.face_value_fen) },
            ]}
          />
          <Form<EditForm>
            key={quote.id}
            form={form}
            layout="vertical"
            onFinish={submit}
            initialValues={{ price: formatFen(quote.price_fen, { grouping: false }), on: quote.status === 1 }}
          >
            <Form.Item
              name="price"
              label={t('quotes.edit.price')}
              extra={t('quotes.edit.priceHelp')}
              rules={[
                {
                  validator: (_, value: string | undefined) => {
                    const fen = parseYuanToFen(value ?? '');
                    return fen !== null && fen > 0
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('quotes.edit.priceInvalid')));
                  },
                },
              ]}
            >
              <Input inputMode="decimal" suffix={t('quotes.edit.yuan')} maxLength={16} data-testid="quote-edit-price" />
            </Form.Item>
            <Form.Item name="on" label={t('quotes.status')} valuePropName="checked">
              <Switch
                checkedChildren={t('quotes.status.1')}
                unCheckedChildren={t('quotes.status.0')}
                data-testid="quote-edit-status"
              />
            </Form.Item>
          </Form>
        </>
      ) : null}
    </Modal>
  );
}
