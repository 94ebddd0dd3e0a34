import { Button, Col, DatePicker, Form, Input, InputNumber, Row, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Permission } from '@/components/permission/permission';
import { formatFen } from '@/lib/money';
import { carrierKey, ORDER_STATUSES, statusKey } from '@/lib/order-labels';
import { pickedTimeToIso } from '@/lib/platform-time';
import { DURATION_RANGES, type DurationRange, type OrderFilters } from '../api/order-query';

export const FACE_VALUES_FEN = [1000, 2000, 3000, 5000, 10000, 20000, 30000, 50000];
const CARRIER_OPTIONS = ['mobile', 'unicom', 'telecom'];

interface FormValues extends Omit<OrderFilters, 'startTime' | 'endTime'> {
  range?: [Dayjs | null, Dayjs | null] | null;
}

export interface OrderFilterFormProps {
  onSearch: (filters: OrderFilters) => void;
}

/** Every §3 order filter plus status, ids, account and order time. */
export function OrderFilterForm({ onSearch }: OrderFilterFormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();

  const submit = (values: FormValues) => {
    const { range, ...rest } = values;
    const filters: OrderFilters = { ...rest };
    if (range?.[0]) filters.startTime = pickedTimeToIso(range[0]);
    if (range?.[1]) filters.endTime = pickedTimeToIso(range[1]);
    for (const key of Object.keys(filters) as (keyof OrderFilters)[]) {
      if (filters[key] === null || filters[key] === '') delete filters[key];
    }
    onSearch(filters);
  };

  const col = { xs: 24, sm: 12, lg: 8, xxl: 6 };
  return (
    <Form form={form} layout="vertical" onFinish={submit} data-testid="order-filters" className="orders__filters">
      <Row gutter={16}>
        <Col {...col}>
          <Form.Item name="orderType" label={t('orderCommon.filter.orderType')}>
            <Select
              allowClear
              data-testid="filter-order-type"
              placeholder={t('orderCommon.filter.all')}
              options={[
                { value: 'today', label: t('orderCommon.orderType.today') },
                { value: 'history', label: t('orderCommon.orderType.history') },
              ]}
            />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="status" label={t('orderCommon.column.status')}>
            <Select
              allowClear
              data-testid="filter-status"
              placeholder={t('orderCommon.filter.all')}
              options={ORDER_STATUSES.map((status) => ({ value: status, label: t(statusKey(status)) }))}
            />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="carrier" label={t('orderCommon.column.carrier')}>
            <Select
              allowClear
              data-testid="filter-carrier"
              placeholder={t('orderCommon.filter.all')}
              options={CARRIER_OPTIONS.map((carrier) => ({ value: carrier, label: t(carrierKey(carrier)) }))}
            />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="faceValueFen" label={t('orderCommon.column.faceValue')}>
            <Select
              allowClear
              data-testid="filter-face-value"
              placeholder={t('orderCommon.filter.all')}
              options={FACE_VALUES_FEN.map((fen) => ({
                value: fen,
                label: t('orderCommon.yuanAmount', { amount: formatFen(fen) }),
              }))}
            />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="duration" label={t('orderCommon.filter.duration')}>
            <Select
              allowClear
              data-testid="filter-duration"
              placeholder={t('orderCommon.filter.all')}
              options={(Object.keys(DURATION_RANGES) as DurationRange[]).map((range) => ({
                value: range,
                label: t(`orderCommon.duration.${range}`),
              }))}
            />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="hasSerial" label={t('orderCommon.filter.hasSerial')}>
            <Select
              allowClear
              data-testid="filter-has-serial"
              placeholder={t('orderCommon.filter.all')}
              options={[
                { value: 'yes', label: t('orderCommon.filter.hasSerial.yes') },
                { value: 'no', label: t('orderCommon.filter.hasSerial.no') },
              ]}
            />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="buyback" label={t('orderCommon.filter.buyback')}>
            <Select
              allowClear
              data-testid="filter-buyback"
              placeholder={t('orderCommon.filter.all')}
              options={[
                { value: 'normal', label: t('orderCommon.buyback.normal') },
                { value: 'buyback', label: t('orderCommon.buyback.buyback') },
              ]}
            />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="account" label={t('orderCommon.column.account')}>
            <Input allowClear data-testid="filter-account" maxLength={20} />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="merchantOrderId" label={t('orderCommon.column.merchantOrderId')}>
            <Input allowClear data-testid="filter-merchant-order-id" maxLength={64} />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="orderNo" label={t('orderCommon.column.orderNo')}>
            <Input allowClear data-testid="filter-order-no" maxLength={32} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={24} lg={16} xxl={12}>
          <Form.Item
            name="range"
            label={t('orderCommon.column.createdAt')}
            tooltip={t('orderCommon.filter.beijingTime')}
          >
            <DatePicker.RangePicker showTime allowEmpty={[true, true]} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Permission roles={['admin']}>
          <Col {...col}>
            <Form.Item name="merchantId" label={t('orderCommon.filter.merchantId')}>
              <InputNumber min={1} precision={0} style={{ width: '100%' }} data-testid="filter-merchant-id" />
            </Form.Item>
          </Col>
        </Permission>
      </Row>
      <div className="orders__filter-actions">
        <Button type="primary" htmlType="submit" data-testid="filter-search">
          {t('orderCommon.filter.search')}
        </Button>
        <Button
          data-testid="filter-reset"
          onClick={() => {
            form.resetFields();
            onSearch({});
          }}
        >
          {t('orderCommon.filter.reset')}
        </Button>
      </div>
    </Form>
  );
}
