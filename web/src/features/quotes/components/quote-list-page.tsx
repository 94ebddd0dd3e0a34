import { Alert, Button, Card, Col, Empty, Form, Input, InputNumber, Row, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportButtons } from '@/components/export-buttons/export-buttons';
import { Permission } from '@/components/permission/permission';
import { formatFen } from '@/lib/money';
import { carrierKey } from '@/lib/order-labels';
import { formatTime } from '@/lib/platform-time';
import { exportQuotes, type QuoteFilters, type QuoteItem, toQuoteQuery, useQuoteList } from '../api/quotes';

const FACE_VALUES_FEN = [1000, 2000, 3000, 5000, 10000, 20000, 30000, 50000];

/** Quote list (/qoute/list): the merchant's price list with filters and export. */
export default function QuoteListPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<QuoteFilters>();
  const [filters, setFilters] = useState<QuoteFilters>({});
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const query = toQuoteQuery(filters);
  const list = useQuoteList({ ...query, page, page_size: pageSize });
  const col = { xs: 24, sm: 12, lg: 8, xxl: 6 };

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="quote-list-page">
      <Card title={t('menu.qoute.list')}>
        <Form
          form={form}
          layout="vertical"
          data-testid="quote-filters"
          onFinish={(values) => {
            setFilters(values);
            setPage(1);
          }}
        >
          <Row gutter={16}>
            <Col {...col}>
              <Form.Item name="carrier" label={t('orderCommon.column.carrier')}>
                <Select
                  allowClear
                  data-testid="quote-filter-carrier"
                  placeholder={t('orderCommon.filter.all')}
                  options={['mobile', 'unicom', 'telecom'].map((c) => ({ value: c, label: t(carrierKey(c)) }))}
                />
              </Form.Item>
            </Col>
            <Col {...col}>
              <Form.Item name="faceValueFen" label={t('orderCommon.column.faceValue')}>
                <Select
                  allowClear
                  placeholder={t('orderCommon.filter.all')}
                  options={FACE_VALUES_FEN.map((fen) => ({ value: fen, label: formatFen(fen) }))}
                />
              </Form.Item>
            </Col>
            <Col {...col}>
              <Form.Item name="productKind" label={t('quotes.productKind')}>
                <Select
                  allowClear
                  placeholder={t('orderCommon.filter.all')}
                  options={[
                    { value: 'direct', label: t('quotes.kind.direct') },
                    { value: 'card', label: t('quotes.kind.card') },
                  ]}
                />
              </Form.Item>
            </Col>
            <Col {...col}>
              <Form.Item name="status" label={t('quotes.status')}>
                <Select
                  allowClear
                  placeholder={t('orderCommon.filter.all')}
                  options={[
                    { value: 1, label: t('quotes.status.1') },
                    { value: 0, label: t('quotes.status.0') },
                  ]}
                />
              </Form.Item>
            </Col>
            <Col {...col}>
              <Form.Item name="productKey" label={t('orderCommon.column.productKey')}>
                <Input allowClear maxLength={64} data-testid="quote-filter-product-key" />
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
            <Button type="primary" htmlType="submit" data-testid="quote-search">
              {t('orderCommon.filter.search')}
            </Button>
            <Button
              onClick={() => {
                form.resetFields();
                setFilters({});
                setPage(1);
              }}
            >
              {t('orderCommon.filter.reset')}
            </Button>
          </Space>
        </Form>
      </Card>
      <Card
        title={<span data-testid="quote-total">{t('orderCommon.total', { count: list.data?.total ?? 0 })}</span>}
        extra={<ExportButtons onExport={(format) => exportQuotes(query, format)} />}
      >
        {list.isError && !list.data ? (
          <Alert
            type="error"
            showIcon
            title={t('orderCommon.loadFailed')}
            action={<Button onClick={() => void list.refetch()}>{t('orderCommon.retry')}</Button>}
          />
        ) : (
          <Table<QuoteItem>
            rowKey="id"
            data-testid="quote-table"
            loading={list.isFetching}
            dataSource={list.data?.list ?? []}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: <Empty description={t('orderCommon.empty')} /> }}
            pagination={{
              current: page,
              pageSize,
              total: list.data?.total ?? 0,
              showSizeChanger: true,
              showTotal: (total) => t('orderCommon.total', { count: total }),
              onChange: (next, size) => {
                setPage(size !== pageSize ? 1 : next);
                setPageSize(size);
              },
            }}
            columns={[
              { title: t('quotes.businessName'), dataIndex: 'business_name' },
              { title: t('orderCommon.column.productName'), dataIndex: 'product_name' },
              { title: t('orderCommon.column.productKey'), dataIndex: 'product_key' },
              { title: t('orderCommon.column.carrier'), dataIndex: 'carrier', render: (v: string) => t(carrierKey(v)) },
              { title: t('orderCommon.column.price'), dataIndex: 'price_fen', align: 'right', render: (v: number) => formatFen(v) },
              { title: t('orderCommon.column.faceValue'), dataIndex: 'face_value_fen', align: 'right', render: (v: number) => formatFen(v) },
              {
                title: t('quotes.status'),
                dataIndex: 'status',
                render: (v: number) => <Tag color={v === 1 ? 'success' : 'default'}>{t(`quotes.status.${v === 1 ? 1 : 0}`)}</Tag>,
              },
              { title: t('quotes.createdAt'), dataIndex: 'created_at', render: formatTime },
            ]}
          />
        )}
      </Card>
    </Space>
  );
}
