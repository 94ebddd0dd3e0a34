import { Input, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { DateRangeFilter, type FilterField } from '@/components/list-page/filter-card';
import { usePermission } from '@/components/permission/use-permission';
import { formatFen } from '@/lib/money';
import { carrierKey, ORDER_STATUSES, type OrderKind, statusKey } from '@/lib/order-labels';
import { PROVINCE_CODES, provinceKey } from '@/lib/provinces';
import { DURATION_RANGES, type DurationRange } from '../api/order-query';

export const FACE_VALUES_FEN = [1000, 2000, 3000, 5000, 10000, 20000, 30000, 50000];
const CARRIER_OPTIONS = ['mobile', 'unicom', 'telecom'];

/**
 * Every order filter plus status, ids, account and order time, most used first: order
 * time and status stay in the collapsed card's first row, the rest behind "expand".
 */
export function useOrderFilterFields(kind: OrderKind): FilterField[] {
  const { t } = useTranslation();
  const isAdmin = usePermission(['admin']);
  const all = t('common.filter.all');
  const fields: FilterField[] = [
    {
      name: 'range',
      label: t('common.column.createdAt'),
      tooltip: t('listPage.rangeTooltip'),
      wide: true,
      input: <DateRangeFilter data-testid="filter-range" />,
    },
    {
      name: 'status',
      label: t('common.column.status'),
      input: (
        <Select
          allowClear
          data-testid="filter-status"
          placeholder={all}
          options={ORDER_STATUSES.map((status) => ({ value: status, label: t(statusKey(status)) }))}
        />
      ),
    },
    {
      name: 'orderType',
      label: t('common.filter.orderType'),
      input: (
        <Select
          allowClear
          data-testid="filter-order-type"
          placeholder={all}
          options={[
            { value: 'today', label: t('common.orderType.today') },
            { value: 'history', label: t('common.orderType.history') },
          ]}
        />
      ),
    },
    {
      name: 'progress',
      label: t('common.filter.progress'),
      input: (
        <Select
          allowClear
          data-testid="filter-progress"
          placeholder={all}
          options={[
            { value: 'inFlight', label: t('common.filter.progress.inFlight') },
            { value: 'finished', label: t('common.filter.progress.finished') },
          ]}
        />
      ),
    },
    {
      name: 'orderNo',
      label: t('common.column.orderNo'),
      input: <Input allowClear data-testid="filter-order-no" maxLength={32} />,
    },
    {
      name: 'merchantOrderId',
      label: t('common.column.merchantOrderId'),
      input: <Input allowClear data-testid="filter-merchant-order-id" maxLength={64} />,
    },
    {
      name: 'account',
      label: t('common.column.account'),
      input: <Input allowClear data-testid="filter-account" maxLength={20} />,
    },
    {
      name: 'carrier',
      label: t('common.column.carrier'),
      input: (
        <Select
          allowClear
          data-testid="filter-carrier"
          placeholder={all}
          options={CARRIER_OPTIONS.map((carrier) => ({ value: carrier, label: t(carrierKey(carrier)) }))}
        />
      ),
    },
    {
      name: 'province',
      label: t('common.column.province'),
      input: (
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          data-testid="filter-province"
          placeholder={all}
          options={PROVINCE_CODES.map((code) => ({ value: code, label: t(provinceKey(code)) }))}
        />
      ),
    },
    {
      name: 'faceValueFen',
      label: t('common.column.faceValue'),
      input: (
        <Select
          allowClear
          data-testid="filter-face-value"
          placeholder={all}
          options={FACE_VALUES_FEN.map((fen) => ({
            value: fen,
            label: t('common.yuanAmount', { amount: formatFen(fen) }),
          }))}
        />
      ),
    },
    {
      name: 'duration',
      label: t('common.filter.duration'),
      input: (
        <Select
          allowClear
          data-testid="filter-duration"
          placeholder={all}
          options={(Object.keys(DURATION_RANGES) as DurationRange[]).map((range) => ({
            value: range,
            label: t(`common.duration.${range}`),
          }))}
        />
      ),
    },
    {
      name: 'hasSerial',
      label: t('common.filter.hasSerial'),
      input: (
        <Select
          allowClear
          data-testid="filter-has-serial"
          placeholder={all}
          options={[
            { value: 'yes', label: t('common.filter.hasSerial.yes') },
            { value: 'no', label: t('common.filter.hasSerial.no') },
          ]}
        />
      ),
    },
    {
      name: 'buyback',
      label: t('common.filter.buyback'),
      input: (
        <Select
          allowClear
          data-testid="filter-buyback"
          placeholder={all}
          options={[
            { value: 'normal', label: t('common.buyback.normal') },
            { value: 'buyback', label: t('common.buyback.buyback') },
          ]}
        />
      ),
    },
  ];
  // The ordinary list opens on its own kind; the workplace's figures count every kind and
  // link here with "all".
  if (kind === 'ordinary') {
    fields.push({
      name: 'kind',
      label: t('listPage.orderKind'),
      input: (
        <Select
          allowClear
          data-testid="filter-kind"
          placeholder={t('listPage.orderKind.ordinary')}
          options={(['all', 'ordinary', 'card', 'behalf'] as const).map((value) => ({
            value,
            label: t(`listPage.orderKind.${value}`),
          }))}
        />
      ),
    });
  }
  if (isAdmin) {
    fields.push({
      name: 'merchantId',
      label: t('common.filter.merchantId'),
      input: <InputNumber min={1} precision={0} style={{ width: '100%' }} data-testid="filter-merchant-id" />,
    });
  }
  return fields;
}
