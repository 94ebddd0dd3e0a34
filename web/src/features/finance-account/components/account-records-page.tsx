import {
  Alert,
  Button,
  Card,
  Col,
  DatePicker,
  Empty,
  Form,
  Input,
  InputNumber,
  Pagination,
  Row,
  Select,
  Space,
  Table,
  Typography,
  type TableColumnType,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportButtons } from '@/components/export-buttons/export-buttons';
import { Permission } from '@/components/permission/permission';
import { useCursorPages } from '@/lib/cursor-pages';
import { formatFen, formatSignedFen } from '@/lib/money';
import { formatTime, pickedTimeToIso } from '@/lib/platform-time';
import {
  ACCOUNT_TYPES,
  type AccountFilters,
  type AccountRecord,
  CHANGE_TYPES,
  exportAccountRecords,
  toAccountQuery,
  useAccountRecords,
} from '../api/account-records';
import './account-records.css';

interface FormValues extends Omit<AccountFilters, 'startTime' | 'endTime'> {
  range?: [Dayjs | null, Dayjs | null] | null;
}

/** Account-change records (/finance/account): the merchant's append-only money log. */
/** A right-aligned yuan column of one of a record's before/after figures. */
function moneyColumn(title: string, dataIndex: keyof AccountRecord): TableColumnType<AccountRecord> {
  return { title, dataIndex, align: 'right', render: (v: number) => formatFen(v) };
}

export default function AccountRecordsPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const [filters, setFilters] = useState<AccountFilters>({});
  const pages = useCursorPages(20);
  const { page, pageSize, position, restart, remember } = pages;
  const query = useMemo(() => toAccountQuery(filters), [filters]);
  const list = useAccountRecords({ ...query, ...position, page_size: pageSize });
  const data = list.data;
  useEffect(() => {
    if (data && !list.isPlaceholderData) remember(page, data.next_cursor);
  }, [data, list.isPlaceholderData, page, remember]);

  const col = { xs: 24, sm: 12, lg: 8, xxl: 6 };
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="account-records-page">
      <Card title={t('menu.finance.account')}>
        <Form
          form={form}
          layout="vertical"
          data-testid="account-filters"
          onFinish={({ range, ...rest }) => {
            setFilters({
              ...rest,
              startTime: range?.[0] ? pickedTimeToIso(range[0]) : undefined,
              endTime: range?.[1] ? pickedTimeToIso(range[1]) : undefined,
            });
            restart();
          }}
        >
          <Row gutter={16}>
            <Col {...col}>
              <Form.Item name="accountType" label={t('orderCommon.record.accountType')}>
                <Select
                  allowClear
                  data-testid="account-filter-account-type"
                  placeholder={t('orderCommon.filter.all')}
                  options={ACCOUNT_TYPES.map((v) => ({ value: v, label: t(`orderCommon.accountType.${v}`) }))}
                />
              </Form.Item>
            </Col>
            <Col {...col}>
              <Form.Item name="changeType" label={t('orderCommon.record.changeType')}>
                <Select
                  allowClear
                  data-testid="account-filter-change-type"
                  placeholder={t('orderCommon.filter.all')}
                  options={CHANGE_TYPES.map((v) => ({ value: v, label: t(`orderCommon.changeType.${v}`) }))}
                />
              </Form.Item>
            </Col>
            <Col {...col}>
              <Form.Item name="orderNo" label={t('orderCommon.column.orderNo')}>
                <Input allowClear maxLength={32} data-testid="account-filter-order-no" />
              </Form.Item>
            </Col>
            <Col {...col}>
              <Form.Item name="orderId" label={t('finance.orderId')}>
                <InputNumber min={1} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={24} lg={16} xxl={12}>
              <Form.Item
                name="range"
                label={t('orderCommon.record.time')}
                tooltip={t('orderCommon.filter.beijingTime')}
              >
                <DatePicker.RangePicker showTime allowEmpty={[true, true]} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Permission roles={['admin']}>
              <Col {...col}>
                <Form.Item name="merchantId" label={t('orderCommon.filter.merchantId')}>
                  <InputNumber min={1} precision={0} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
            </Permission>
          </Row>
          <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
            <Button type="primary" htmlType="submit" data-testid="account-search">
              {t('orderCommon.filter.search')}
            </Button>
            <Button
              onClick={() => {
                form.resetFields();
                setFilters({});
                restart();
              }}
            >
              {t('orderCommon.filter.reset')}
            </Button>
          </Space>
        </Form>
      </Card>
      <Card
        title={
          <span data-testid="account-total">
            {t(data?.total_capped ? 'orderCommon.totalCapped' : 'orderCommon.total', { count: data?.total ?? 0 })}
          </span>
        }
        extra={<ExportButtons onExport={(format) => exportAccountRecords(query, format)} />}
      >
        {list.isError && !data ? (
          <Alert
            type="error"
            showIcon
            title={t('orderCommon.loadFailed')}
            action={<Button onClick={() => void list.refetch()}>{t('orderCommon.retry')}</Button>}
          />
        ) : (
          <>
            <Table<AccountRecord>
              rowKey="id"
              className="account-records__table"
              data-testid="account-table"
              loading={list.isFetching}
              dataSource={data?.list ?? []}
              pagination={false}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: <Empty description={t('orderCommon.empty')} /> }}
              columns={[
                { title: t('orderCommon.record.time'), dataIndex: 'created_at', width: 170, render: formatTime },
                {
                  title: t('orderCommon.record.accountType'),
                  dataIndex: 'account_type',
                  render: (v: string) => t(`orderCommon.accountType.${v}`),
                },
                {
                  title: t('orderCommon.record.changeType'),
                  dataIndex: 'change_type',
                  render: (v: string) => t(`orderCommon.changeType.${v}`),
                },
                {
                  title: t('orderCommon.record.amount'),
                  dataIndex: 'amount_fen',
                  align: 'right',
                  render: (v: number) => (
                    <Typography.Text type={v < 0 ? 'danger' : 'success'}>{formatSignedFen(v)}</Typography.Text>
                  ),
                },
                moneyColumn(t('orderCommon.record.balanceBefore'), 'balance_before_fen'),
                moneyColumn(t('orderCommon.record.balanceAfter'), 'balance_after_fen'),
                moneyColumn(t('orderCommon.record.creditBefore'), 'credit_before_fen'),
                moneyColumn(t('orderCommon.record.creditAfter'), 'credit_after_fen'),
                { title: t('orderCommon.record.order'), dataIndex: 'order_no', render: (v: string | null) => v || '-' },
                { title: t('orderCommon.record.operator'), dataIndex: 'actor_name', render: (v: string) => v || '-' },
                {
                  title: t('orderCommon.record.remark'),
                  dataIndex: 'remark',
                  width: 220,
                  ellipsis: true,
                  render: (v: string) => v || '-',
                },
              ]}
            />
            <div style={{ display: 'flex', justifyContent: 'flex-end', marginTop: 16 }}>
              <Pagination
                current={page}
                pageSize={pageSize}
                total={data?.total ?? 0}
                showSizeChanger
                pageSizeOptions={[10, 20, 50, 100]}
                showTotal={(total) => t('orderCommon.total', { count: total })}
                onChange={pages.changePage}
              />
            </div>
          </>
        )}
      </Card>
    </Space>
  );
}
