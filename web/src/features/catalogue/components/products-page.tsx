import { Button, Form, Input, Modal, Popconfirm, Select, Space, Switch, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ListColumn, ListTable } from '@/components/list-page/list-table';
import { showSuccessMessage } from '@/lib/feedback';
import { applyServerFieldErrors } from '@/lib/form-errors';
import { formatFen, parseYuanToFen } from '@/lib/money';
import { carrierKey } from '@/lib/order-labels';
import { PROVINCE_CODES, provinceKey } from '@/lib/provinces';
import { useSubmission } from '@/lib/submission';
import {
  deleteProduct,
  type Product,
  type ProductInput,
  saveProduct,
  useProductAdmin,
  useProducts,
} from '../api/products';
import '@/locales/catalogue-texts';

const KEY_RULE = /^[A-Z0-9_-]{1,64}$/;
const CARRIERS = ['mobile', 'unicom', 'telecom'] as const;

interface ProductForm {
  product_key: string;
  name: string;
  carrier: ProductInput['carrier'];
  product_kind: ProductInput['product_kind'];
  face_value: string;
  status: boolean;
  speed: 'fast' | 'slow';
  provinces: number[];
}

/** A product as the update call takes it, with `changes` applied (the toggle sends the rest as is). */
function asInput(product: Product, changes: Partial<ProductInput> = {}): ProductInput {
  return {
    id: product.id,
    product_key: product.product_key,
    name: product.name,
    carrier: product.carrier,
    product_kind: product.product_kind,
    face_value_fen: product.face_value_fen,
    status: product.status,
    speed: product.speed,
    provinces: product.provinces,
    ...changes,
  };
}

/** Create (product null) or edit a product. */
function ProductDialog({ open, product, onClose }: { open: boolean; product: Product | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ProductForm>();
  const save = useProductAdmin(saveProduct);
  // A double click submits twice before the first answer: one product saved, once.
  const submission = useSubmission();
  const initial: Partial<ProductForm> = product
    ? {
        product_key: product.product_key,
        name: product.name,
        carrier: product.carrier,
        product_kind: product.product_kind,
        face_value: formatFen(product.face_value_fen),
        status: product.status === 1,
        speed: product.speed,
        provinces: product.provinces,
      }
    : { carrier: 'mobile', product_kind: 'direct', status: true, speed: 'fast', provinces: [] };
  return (
    <Modal
      open={open}
      title={t(product ? 'catalogue.editTitle' : 'catalogue.create')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={submission.pending}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'product-submit' } as Record<string, string>}
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={initial}
        onFinish={(values) => {
          const request = {
            ...(product ? { id: product.id } : {}),
            product_key: values.product_key.trim(),
            name: values.name.trim(),
            carrier: values.carrier,
            product_kind: values.product_kind,
            face_value_fen: parseYuanToFen(values.face_value) ?? 0,
            status: values.status ? 1 : 0,
            speed: values.speed,
            provinces: values.provinces ?? [],
          };
          submission
            .run(request, () => save.mutateAsync(request))
            ?.then(() => {
              showSuccessMessage(t('catalogue.saved'));
              onClose();
            })
            .catch((error: unknown) =>
              applyServerFieldErrors(form, error, { fieldMap: { face_value_fen: 'face_value' } }),
            );
        }}
      >
        <Form.Item
          name="product_key"
          label={t('catalogue.productKey')}
          rules={[{ required: true, pattern: KEY_RULE, message: t('catalogue.productKeyRule') }]}
        >
          <Input maxLength={64} data-testid="product-key" />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('catalogue.name')}
          rules={[{ required: true, whitespace: true, message: t('catalogue.nameRequired') }]}
        >
          <Input maxLength={64} data-testid="product-name" />
        </Form.Item>
        <Space size={16} wrap align="start">
          <Form.Item name="carrier" label={t('common.column.carrier')} rules={[{ required: true }]}>
            <Select
              style={{ width: 200 }}
              options={CARRIERS.map((carrier) => ({ value: carrier, label: t(carrierKey(carrier)) }))}
            />
          </Form.Item>
          <Form.Item name="product_kind" label={t('quotes.productKind')} rules={[{ required: true }]}>
            <Select
              style={{ width: 200 }}
              options={[
                { value: 'direct', label: t('quotes.kind.direct') },
                { value: 'card', label: t('quotes.kind.card') },
              ]}
            />
          </Form.Item>
          <Form.Item
            name="face_value"
            label={t('catalogue.faceValue')}
            required
            rules={[
              {
                validator: (_, value: string | undefined) =>
                  (parseYuanToFen(value ?? '') ?? 0) > 0
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('catalogue.faceValueInvalid'))),
              },
            ]}
          >
            <Input style={{ width: 160 }} inputMode="decimal" data-testid="product-face-value" />
          </Form.Item>
        </Space>
        <Space size={16} wrap align="start">
          <Form.Item name="speed" label={t('catalogue.speed')} extra={t('catalogue.speedHint')}>
            <Select
              style={{ width: 200 }}
              data-testid="product-speed"
              options={(['fast', 'slow'] as const).map((speed) => ({
                value: speed,
                label: t(`common.speed.${speed}`),
              }))}
            />
          </Form.Item>
          <Form.Item name="provinces" label={t('catalogue.area')} extra={t('catalogue.areaHint')}>
            <Select
              mode="multiple"
              allowClear
              style={{ width: 260 }}
              placeholder={t('common.national')}
              optionFilterProp="label"
              data-testid="product-provinces"
              options={PROVINCE_CODES.map((code) => ({ value: code, label: t(provinceKey(code)) }))}
            />
          </Form.Item>
        </Space>
        <Form.Item name="status" label={t('quotes.status')} valuePropName="checked">
          <Switch checkedChildren={t('quotes.status.1')} unCheckedChildren={t('quotes.status.0')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Products (/qoute/products, administrators): the catalogue with create, edit, on/off, delete. */
export default function ProductsPage() {
  const { t } = useTranslation();
  const products = useProducts();
  const [editing, setEditing] = useState<Product | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const toggle = useProductAdmin(saveProduct);
  const remove = useProductAdmin(deleteProduct);
  const open = (product: Product | null) => {
    setEditing(product);
    setDialogOpen(true);
  };

  const columns: ListColumn<Product>[] = [
    { key: 'product_key', title: t('catalogue.productKey'), dataIndex: 'product_key', phone: true, phoneWidth: 150 },
    { key: 'name', title: t('catalogue.name'), dataIndex: 'name', ellipsis: true },
    {
      key: 'carrier',
      title: t('common.column.carrier'),
      dataIndex: 'carrier',
      render: (value: string) => t(carrierKey(value)),
    },
    {
      key: 'product_kind',
      title: t('quotes.productKind'),
      dataIndex: 'product_kind',
      render: (value: string) => t(`quotes.kind.${value === 'card' ? 'card' : 'direct'}`),
    },
    {
      key: 'face_value_fen',
      title: t('common.column.faceValue'),
      dataIndex: 'face_value_fen',
      align: 'right',
      render: (value: number) => formatFen(value),
    },
    {
      key: 'speed',
      title: t('catalogue.speed'),
      dataIndex: 'speed',
      render: (value: string) => (
        <Tag color={value === 'slow' ? 'orange' : 'blue'}>
          {t(`common.speed.${value === 'slow' ? 'slow' : 'fast'}`)}
        </Tag>
      ),
    },
    {
      key: 'provinces',
      title: t('catalogue.area'),
      dataIndex: 'provinces',
      ellipsis: true,
      render: (value: number[]) =>
        value.length === 0
          ? t('common.national')
          : value.map((code) => t(provinceKey(code))).join(t('catalogue.areaSeparator')),
    },
    {
      key: 'status',
      title: t('quotes.status'),
      dataIndex: 'status',
      phone: true,
      phoneWidth: 80,
      render: (value: number) => (
        <Tag color={value === 1 ? 'success' : 'default'}>{t(`quotes.status.${value === 1 ? 1 : 0}`)}</Tag>
      ),
    },
    {
      key: 'actions',
      title: t('catalogue.actions'),
      render: (_: unknown, product: Product) => (
        <Space size={4} wrap>
          <Button
            type="link"
            size="small"
            onClick={() => open(product)}
            data-testid={`product-edit-${product.product_key}`}
          >
            {t('catalogue.edit')}
          </Button>
          <Button
            type="link"
            size="small"
            data-testid={`product-toggle-${product.product_key}`}
            onClick={() =>
              toggle.mutate(asInput(product, { status: product.status === 1 ? 0 : 1 }), {
                onSuccess: () => showSuccessMessage(t('catalogue.saved')),
              })
            }
          >
            {t(product.status === 1 ? 'catalogue.switchOff' : 'catalogue.switchOn')}
          </Button>
          <Popconfirm
            title={t('catalogue.deleteConfirm', { key: product.product_key })}
            description={t('catalogue.deleteConfirmNote')}
            styles={{ root: { maxWidth: 400 } }}
            onConfirm={() => remove.mutate(product.id, { onSuccess: () => showSuccessMessage(t('catalogue.deleted')) })}
          >
            <Button type="link" size="small" danger data-testid={`product-delete-${product.product_key}`}>
              {t('catalogue.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="products-page">
      <ListTable<Product>
        listKey="products"
        savedViews
        title={<span data-testid="product-total">{t('catalogue.total', { count: products.data?.length ?? 0 })}</span>}
        columns={columns}
        rowKey="id"
        dataSource={products.data ?? []}
        loading={products.isFetching}
        error={products.isError && !products.data}
        onRetry={() => void products.refetch()}
        tableTestId="product-table"
        extra={
          <Button type="primary" onClick={() => open(null)} data-testid="product-create">
            {t('catalogue.create')}
          </Button>
        }
      />
      <ProductDialog open={dialogOpen} product={editing} onClose={() => setDialogOpen(false)} />
    </Space>
  );
}
