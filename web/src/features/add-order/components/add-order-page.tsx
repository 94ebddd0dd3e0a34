import {
  Alert,
  Button,
  Card,
  Checkbox,
  Col,
  Descriptions,
  Empty,
  Form,
  Input,
  Row,
  Select,
  Space,
  Table,
  Tag,
} from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActingMerchantGate } from '@/components/acting-merchant/acting-merchant-picker';
import { notify, showSuccessMessage } from '@/lib/feedback';
import { applyServerFieldErrors } from '@/lib/form-errors';
import { formatFen } from '@/lib/money';
import { carrierKey, failureReasonText, FINAL_STATUSES, STATUS_COLORS, statusKey } from '@/lib/order-labels';
import { formatTime } from '@/lib/platform-time';
import { useSubmission } from '@/lib/submission';
import { checkPhone, normalizePhone } from '@/lib/phone';
import { type AddedOrder, type Offer, useAddedOrders, useAddOrder, usePrice } from '../api/add-order';

interface FormValues {
  account?: string;
  productKey?: string;
  merchantOrderId?: string;
  allowPorted?: boolean;
}

const STORAGE_KEY = 'add-order.placed';

function loadPlaced(): number[] {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((id): id is number => Number.isInteger(id)) : [];
  } catch {
    return [];
  }
}

/** Add order (/order/addList): administrators choose the merchant first. */
export default function AddOrderPage() {
  return <ActingMerchantGate>{(merchantId) => <AddOrderForm merchantId={merchantId} />}</ActingMerchantGate>;
}

/**
 * Orders placed on this page that reach a final status while it is open: say so, and
 * refresh the spendable amount (a failure refunds the price). Returns `placedNow`, which
 * records an order as in flight from the placing answer: a fast channel can finish it
 * before the page first fetches it, and that is still news.
 */
function useFinishedOrders(orders: (AddedOrder | undefined)[]) {
  const { t } = useTranslation();
  const client = useQueryClient();
  // Orders already final when first seen (e.g. after a reload) are not news.
  const known = useRef(new Map<number, boolean>());
  useEffect(() => {
    let finished = false;
    for (const order of orders) {
      if (!order) continue;
      const final = FINAL_STATUSES.includes(order.status);
      const before = known.current.get(order.id);
      known.current.set(order.id, final);
      if (final && before === false) {
        finished = true;
        const success = order.status === 2;
        notify(success ? 'success' : 'warning', {
          key: `order-finished-${order.id}`,
          title: t(success ? 'addOrder.finished.success' : 'addOrder.finished.failure', { orderNo: order.order_no }),
          description: `${order.product_name} · ${order.account || '-'}`,
          props: { 'data-testid': 'order-finished-notice', 'data-status': order.status } as Record<string, unknown>,
        });
      }
    }
    if (finished) void client.invalidateQueries({ queryKey: ['order-price'] });
  }, [orders, client, t]);
  return (order: { id: number; status: number }) => {
    if (!known.current.has(order.id)) known.current.set(order.id, FINAL_STATUSES.includes(order.status));
  };
}

/** One order with a client-side number check and the price shown first. */
function AddOrderForm({ merchantId }: { merchantId: number | undefined }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const price = usePrice(merchantId);
  const add = useAddOrder();
  const submission = useSubmission();
  // Orders whose placement was announced: a repeat's answer (the same order) is not again.
  const shown = useRef(new Set<number>());
  const [placed, setPlaced] = useState<number[]>(loadPlaced);
  const added = useAddedOrders(placed);
  const rows = placed.map((id, index) => ({ id, data: added[index]?.data, isLoading: added[index]?.isLoading }));
  const placedNow = useFinishedOrders(rows.map((row) => row.data));

  const account = Form.useWatch('account', form) ?? '';
  const productKey = Form.useWatch('productKey', form);
  const offer: Offer | undefined = price.data?.offers.find((item) => item.product_key === productKey);
  const check = checkPhone(account);
  const needsAccount = offer?.product_kind !== 'card';
  const mismatch = Boolean(offer && needsAccount && check.ok && check.carrier !== offer.carrier);
  const overFunds = Boolean(offer && price.data && offer.price_fen > price.data.spendable_fen);

  const offers = useMemo(() => {
    const all = price.data?.offers ?? [];
    // A recognised number lists its carrier's direct products first.
    if (!check.ok) return all;
    return [...all].sort((a, b) => Number(b.carrier === check.carrier) - Number(a.carrier === check.carrier));
  }, [price.data, check]);

  const submit = (values: FormValues) => {
    if (!offer) return;
    const body = {
      account: normalizePhone(values.account ?? ''),
      product_key: offer.product_key,
      ...(values.merchantOrderId?.trim() ? { merchant_order_id: values.merchantOrderId.trim() } : {}),
      ...(mismatch && values.allowPorted ? { allow_ported: true } : {}),
      ...(merchantId ? { merchant_id: merchantId } : {}),
    };
    // A second submission while the first is in flight (a double click, Enter twice) is
    // dropped; a retry of the same order after a failure goes with the same key.
    submission
      .run(body, (idempotencyKey) => add.mutateAsync({ ...body, idempotencyKey }))
      ?.then(
        ({ order }) => {
          // The same submission again (a second click after the answer) is answered with the
          // order it placed: shown once.
          if (shown.current.has(order.id)) return;
          shown.current.add(order.id);
          placedNow(order);
          showSuccessMessage(t('addOrder.placed', { orderNo: order.order_no }));
          const next = [order.id, ...placed].slice(0, 50);
          setPlaced(next);
          sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next));
          form.setFieldsValue({ merchantOrderId: undefined, allowPorted: false });
        },
        (error: unknown) =>
          applyServerFieldErrors(form, error, {
            fieldMap: { account: 'account', product_key: 'productKey', merchant_order_id: 'merchantOrderId' },
            knownFields: ['account', 'productKey', 'merchantOrderId'],
          }),
      );
  };

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="add-order-page">
      <Card title={t('menu.order.addList')}>
        {price.isError && !price.data ? (
          <Alert
            type="error"
            showIcon
            title={t('orderCommon.loadFailed')}
            action={<Button onClick={() => void price.refetch()}>{t('orderCommon.retry')}</Button>}
          />
        ) : null}
        {price.data && price.data.offers.length === 0 ? (
          <Alert type="warning" showIcon title={t('addOrder.noOffers')} data-testid="add-order-no-offers" />
        ) : null}
        <Row gutter={24}>
          <Col xs={24} lg={14}>
            <Form form={form} layout="vertical" onFinish={submit} data-testid="add-order-form" disabled={!price.data}>
              <Form.Item
                name="account"
                label={t('orderCommon.column.account')}
                extra={check.ok ? t('addOrder.segmentCarrier', { carrier: t(carrierKey(check.carrier)) }) : undefined}
                // The rule is a custom validator (card products need no account): mark it by hand.
                required={needsAccount}
                rules={[
                  {
                    validator: async (_rule, value: string | undefined) => {
                      if (!needsAccount && !value) return;
                      const result = checkPhone(value ?? '');
                      if (!result.ok) throw new Error(t(`addOrder.account.${result.reason}`));
                    },
                  },
                ]}
              >
                <Input maxLength={20} placeholder="13800138000" data-testid="add-order-account" inputMode="numeric" />
              </Form.Item>
              <Form.Item
                name="productKey"
                label={t('addOrder.product')}
                rules={[{ required: true, message: t('addOrder.productRequired') }]}
              >
                <Select
                  showSearch
                  optionFilterProp="label"
                  loading={price.isLoading}
                  data-testid="add-order-product"
                  placeholder={t('addOrder.productPlaceholder')}
                  options={offers.map((item) => ({
                    value: item.product_key,
                    label: `${item.product_name} · ${item.product_key} · ¥${formatFen(item.price_fen)}`,
                  }))}
                />
              </Form.Item>
              <Form.Item
                name="merchantOrderId"
                label={t('addOrder.merchantOrderId')}
                rules={[{ pattern: /^[A-Za-z0-9._-]{1,64}$/, message: t('addOrder.merchantOrderIdInvalid') }]}
              >
                <Input maxLength={64} allowClear data-testid="add-order-merchant-order-id" />
              </Form.Item>
              {mismatch && offer && check.ok ? (
                <>
                  <Alert
                    type="warning"
                    showIcon
                    style={{ marginBottom: 12 }}
                    data-testid="add-order-carrier-mismatch"
                    title={t('addOrder.carrierMismatch', {
                      segment: t(carrierKey(check.carrier)),
                      product: t(carrierKey(offer.carrier)),
                    })}
                  />
                  <Form.Item
                    name="allowPorted"
                    valuePropName="checked"
                    rules={[
                      {
                        validator: async (_rule, value: boolean | undefined) => {
                          if (!value) throw new Error(t('addOrder.confirmPortedRequired'));
                        },
                      },
                    ]}
                  >
                    <Checkbox data-testid="add-order-allow-ported">{t('addOrder.confirmPorted')}</Checkbox>
                  </Form.Item>
                </>
              ) : null}
              <Button
                type="primary"
                htmlType="submit"
                loading={submission.pending}
                disabled={!offer || overFunds}
                data-testid="add-order-submit"
              >
                {offer ? t('addOrder.submitWithPrice', { price: formatFen(offer.price_fen) }) : t('addOrder.submit')}
              </Button>
            </Form>
          </Col>
          <Col xs={24} lg={10}>
            <Descriptions
              bordered
              size="small"
              column={1}
              title={t('addOrder.summary')}
              data-testid="add-order-summary"
            >
              <Descriptions.Item label={t('orderCommon.column.productName')}>
                {offer?.product_name ?? '-'}
              </Descriptions.Item>
              <Descriptions.Item label={t('orderCommon.column.carrier')}>
                {offer ? t(carrierKey(offer.carrier)) : '-'}
              </Descriptions.Item>
              <Descriptions.Item label={t('orderCommon.column.faceValue')}>
                {offer ? formatFen(offer.face_value_fen) : '-'}
              </Descriptions.Item>
              <Descriptions.Item label={t('orderCommon.column.price')}>
                <strong data-testid="add-order-price">{offer ? formatFen(offer.price_fen) : '-'}</strong>
              </Descriptions.Item>
              <Descriptions.Item label={t('addOrder.spendable')}>
                <span data-testid="add-order-spendable">{price.data ? formatFen(price.data.spendable_fen) : '-'}</span>
              </Descriptions.Item>
            </Descriptions>
            {overFunds ? (
              <Alert style={{ marginTop: 12 }} type="error" showIcon title={t('addOrder.overFunds')} />
            ) : null}
          </Col>
        </Row>
      </Card>

      <Card
        title={t('addOrder.placedTitle')}
        extra={
          placed.length ? (
            <Button
              size="small"
              onClick={() => {
                setPlaced([]);
                sessionStorage.removeItem(STORAGE_KEY);
              }}
            >
              {t('addOrder.clear')}
            </Button>
          ) : null
        }
      >
        <Table
          rowKey="id"
          size="small"
          pagination={false}
          data-testid="added-orders"
          dataSource={rows}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty description={t('addOrder.placedEmpty')} /> }}
          columns={[
            {
              title: t('orderCommon.column.orderNo'),
              key: 'no',
              render: (_: unknown, row) => row.data?.order_no ?? row.id,
            },
            {
              title: t('orderCommon.column.merchantOrderId'),
              key: 'mid',
              render: (_: unknown, row) => row.data?.merchant_order_id ?? '-',
            },
            {
              title: t('orderCommon.column.productName'),
              key: 'product',
              render: (_: unknown, row) => row.data?.product_name ?? '-',
            },
            {
              title: t('orderCommon.column.account'),
              key: 'account',
              render: (_: unknown, row) => row.data?.account || '-',
            },
            {
              title: t('orderCommon.column.price'),
              key: 'price',
              align: 'right',
              render: (_: unknown, row) => (row.data ? formatFen(row.data.price_fen) : '-'),
            },
            {
              title: t('orderCommon.column.status'),
              key: 'status',
              render: (_: unknown, row) =>
                row.data ? (
                  <Tag
                    color={STATUS_COLORS[row.data.status]}
                    data-testid="added-order-status"
                    data-status={row.data.status}
                  >
                    {t(statusKey(row.data.status))}
                  </Tag>
                ) : (
                  '-'
                ),
            },
            {
              title: t('orderCommon.column.serialNo'),
              key: 'serial',
              render: (_: unknown, row) => row.data?.serial_no || '-',
            },
            {
              title: t('orderCommon.column.failureReason'),
              key: 'failure',
              render: (_: unknown, row) => (
                <span data-testid="added-order-failure">{(row.data && failureReasonText(row.data, t)) || '-'}</span>
              ),
            },
            {
              title: t('orderCommon.column.createdAt'),
              key: 'time',
              render: (_: unknown, row) => formatTime(row.data?.created_at),
            },
          ]}
        />
      </Card>
    </Space>
  );
}
