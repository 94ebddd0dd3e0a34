import { Alert, Button, Card, Checkbox, Col, Descriptions, Form, Input, Radio, Row, Select, Space } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ActingMerchantGate } from '@/components/acting-merchant/acting-merchant-picker';
import { notify, showSuccessMessage } from '@/lib/feedback';
import { applyServerFieldErrors } from '@/lib/form-errors';
import { formatFen } from '@/lib/money';
import { carrierKey, FINAL_STATUSES } from '@/lib/order-labels';
import { useSubmission } from '@/lib/submission';
import { checkPhone, normalizePhone } from '@/lib/phone';
import { inScope } from '@/lib/provinces';
import {
  type AddedOrder,
  type Offer,
  useAddedOrders,
  useAddOrder,
  usePortedFrom,
  usePrice,
  useSegmentLookup,
} from '../api/add-order';
import { PlacedOrdersCard } from './placed-orders-card';
import { SegmentHint, typedPrefix } from './segment-hint';

interface FormValues {
  /** 直充 (a channel tops it up) or 代充 (a person does, for a third party). */
  orderType?: 'direct' | 'behalf';
  /** On-behalf only: the third party's name, kept as the order's remark. */
  remark?: string;
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

  // The last on-behalf order placed here: the page links to the on-behalf list for it.
  const [behalfPlaced, setBehalfPlaced] = useState<string | null>(null);

  const account = Form.useWatch('account', form) ?? '';
  const productKey = Form.useWatch('productKey', form);
  const behalf = Form.useWatch('orderType', form) === 'behalf';
  // The number's province, once its segment is known (the hint asks for the same prefix).
  const segment = useSegmentLookup(typedPrefix(account)).data;
  const province = segment && segment.prefix === typedPrefix(account) ? segment.province_code : null;
  // A person tops up a phone on behalf: only direct products can be ordered so. A product
  // sold only in some provinces is offered for numbers of those (a card goes to the merchant).
  const available = useMemo(
    () =>
      (price.data?.offers ?? []).filter(
        (item) =>
          (!behalf || item.product_kind === 'direct') &&
          (item.product_kind === 'card' || !province || inScope(item.provinces, Number(province))),
      ),
    [price.data, behalf, province],
  );
  const offer: Offer | undefined = available.find((item) => item.product_key === productKey);
  const check = checkPhone(account);
  const needsAccount = behalf || offer?.product_kind !== 'card';
  // A number a supplier reported ported away from a carrier: that carrier's products are
  // refused, the others need no confirmation (the server decides the same).
  const portedFrom = usePortedFrom(check.ok ? normalizePhone(account) : null, merchantId).data ?? null;
  const portedAway = Boolean(offer && needsAccount && check.ok && portedFrom === offer.carrier);
  const mismatch = Boolean(offer && needsAccount && check.ok && !portedFrom && check.carrier !== offer.carrier);
  const overFunds = Boolean(offer && price.data && offer.price_fen > price.data.spendable_fen);

  const offers = useMemo(() => {
    // A recognised number lists its carrier's direct products first.
    if (!check.ok) return available;
    return [...available].sort((a, b) => Number(b.carrier === check.carrier) - Number(a.carrier === check.carrier));
  }, [available, check]);

  const submit = (values: FormValues) => {
    if (!offer) return;
    const body = {
      account: normalizePhone(values.account ?? ''),
      product_key: offer.product_key,
      ...(values.merchantOrderId?.trim() ? { merchant_order_id: values.merchantOrderId.trim() } : {}),
      ...(mismatch && values.allowPorted ? { allow_ported: true } : {}),
      ...(merchantId ? { merchant_id: merchantId } : {}),
      ...(behalf ? { behalf: true, ...(values.remark?.trim() ? { remark: values.remark.trim() } : {}) } : {}),
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
          showSuccessMessage(t(behalf ? 'addOrder.behalf.placed' : 'addOrder.placed', { orderNo: order.order_no }));
          setBehalfPlaced(behalf ? order.order_no : null);
          const next = [order.id, ...placed].slice(0, 50);
          setPlaced(next);
          sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next));
          form.setFieldsValue({ merchantOrderId: undefined, allowPorted: false, remark: undefined });
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
            title={t('common.loadFailed')}
            action={<Button onClick={() => void price.refetch()}>{t('common.retry')}</Button>}
          />
        ) : null}
        {price.data && price.data.offers.length === 0 ? (
          <Alert type="warning" showIcon title={t('addOrder.noOffers')} data-testid="add-order-no-offers" />
        ) : null}
        <Row gutter={24}>
          <Col xs={24} lg={14}>
            {behalfPlaced ? (
              <Alert
                type="success"
                showIcon
                closable={{ onClose: () => setBehalfPlaced(null) }}
                style={{ marginBottom: 16 }}
                data-testid="add-order-behalf-placed"
                title={t('addOrder.behalf.placed', { orderNo: behalfPlaced })}
                description={
                  <Link to="/order/behalfList" data-testid="add-order-behalf-link">
                    {t('addOrder.behalf.viewList')}
                  </Link>
                }
              />
            ) : null}
            {/* Open while the quotes load: a number typed before they arrive is kept (a
                disabled form dropped those keys); the submit waits for a price anyway. */}
            <Form
              form={form}
              layout="vertical"
              onFinish={submit}
              data-testid="add-order-form"
              initialValues={{ orderType: 'direct' }}
            >
              <Form.Item name="orderType" label={t('addOrder.orderType')}>
                <Radio.Group
                  data-testid="add-order-type"
                  onChange={() => form.setFieldsValue({ productKey: undefined })}
                >
                  <Radio.Button value="direct" data-testid="add-order-type-direct">
                    {t('addOrder.type.direct')}
                  </Radio.Button>
                  <Radio.Button value="behalf" data-testid="add-order-type-behalf">
                    {t('addOrder.type.behalf')}
                  </Radio.Button>
                </Radio.Group>
              </Form.Item>
              {behalf ? (
                <>
                  <Alert
                    type="info"
                    showIcon
                    style={{ marginBottom: 16 }}
                    data-testid="add-order-behalf-hint"
                    title={t('addOrder.behalf.hint')}
                  />
                  <Form.Item
                    name="remark"
                    label={t('addOrder.behalf.thirdParty')}
                    extra={t('addOrder.behalf.thirdPartyHelp')}
                  >
                    <Input maxLength={200} allowClear data-testid="add-order-remark" />
                  </Form.Item>
                </>
              ) : null}
              <Form.Item
                name="account"
                label={t('common.column.account')}
                extra={<SegmentHint account={account} />}
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
                    label: `${item.product_name} · ${item.product_key} · ${t(`common.speed.${item.speed}`)} · ¥${formatFen(item.price_fen)}`,
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
              {portedAway && offer ? (
                <Alert
                  type="error"
                  showIcon
                  style={{ marginBottom: 12 }}
                  data-testid="add-order-ported-away"
                  title={t('addOrder.portedAway', { carrier: t(carrierKey(offer.carrier)) })}
                />
              ) : null}
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
                disabled={!offer || overFunds || portedAway}
                data-testid="add-order-submit"
              >
                {offer
                  ? t(behalf ? 'addOrder.behalf.submitWithPrice' : 'addOrder.submitWithPrice', {
                      price: formatFen(offer.price_fen),
                    })
                  : t(behalf ? 'addOrder.behalf.submit' : 'addOrder.submit')}
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
              <Descriptions.Item label={t('addOrder.orderType')}>
                <span data-testid="add-order-summary-type">
                  {t(behalf ? 'addOrder.type.behalf' : 'addOrder.type.direct')}
                </span>
              </Descriptions.Item>
              <Descriptions.Item label={t('common.column.productName')}>{offer?.product_name ?? '-'}</Descriptions.Item>
              <Descriptions.Item label={t('common.column.carrier')}>
                {offer ? t(carrierKey(offer.carrier)) : '-'}
              </Descriptions.Item>
              <Descriptions.Item label={t('common.column.faceValue')}>
                {offer ? formatFen(offer.face_value_fen) : '-'}
              </Descriptions.Item>
              <Descriptions.Item label={t('common.column.price')}>
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

      <PlacedOrdersCard
        rows={rows}
        onClear={() => {
          setPlaced([]);
          sessionStorage.removeItem(STORAGE_KEY);
        }}
      />
    </Space>
  );
}
