import { Alert, Button, Card, Empty, Form, Input, Modal, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSuccessMessage } from '@/lib/feedback';
import { formatFen, parseYuanToFen } from '@/lib/money';
import { formatTime } from '@/lib/platform-time';
import { type MerchantAction, type MerchantRow, useMerchantAction, useMerchants } from '../api/merchants';

interface ActionState {
  action: MerchantAction;
  merchant: MerchantRow;
}

function ActionDialog({ state, onClose }: { state: ActionState | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ amount: string; remark?: string }>();
  const run = useMerchantAction();
  const action = state?.action;
  const merchant = state?.merchant;

  return (
    <Modal
      open={state !== null}
      title={action && merchant ? t(`merchants.action.${action}`) + ` · ${merchant.name}` : ''}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={run.isPending}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'merchant-action-confirm' } as Record<string, string>}
    >
      {merchant ? (
        <Typography.Paragraph type="secondary">
          {t('merchants.current', {
            balance: formatFen(merchant.balance_fen),
            limit: formatFen(merchant.credit_limit_fen),
            used: formatFen(merchant.credit_used_fen),
          })}
        </Typography.Paragraph>
      ) : null}
      <Form
        form={form}
        layout="vertical"
        initialValues={action === 'credit' && merchant ? { amount: formatFen(merchant.credit_limit_fen, { grouping: false }) } : {}}
        onFinish={({ amount, remark }) => {
          if (!state) return;
          const amountFen = parseYuanToFen(amount, { allowNegative: state.action === 'adjust' });
          if (amountFen === null) return;
          run.mutate(
            { action: state.action, merchantId: state.merchant.merchant_id, amountFen, remark },
            {
              onSuccess: () => {
                showSuccessMessage(t('merchants.done'));
                onClose();
              },
            },
          );
        }}
      >
        <Form.Item
          name="amount"
          label={action === 'credit' ? t('merchants.newLimit') : t('merchants.amount')}
          rules={[
            {
              validator: async (_rule, value: string | undefined) => {
                const fen = parseYuanToFen(value ?? '', { allowNegative: action === 'adjust' });
                if (fen === null) throw new Error(t('merchants.amountInvalid'));
                if (action !== 'credit' && fen === 0) throw new Error(t('merchants.amountInvalid'));
              },
            },
          ]}
        >
          <Input prefix="¥" inputMode="decimal" data-testid="merchant-action-amount" />
        </Form.Item>
        <Form.Item name="remark" label={t('orderCommon.record.remark')}>
          <Input maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Merchants (/finance/merchants, administrators): figures and money actions. */
export default function MerchantsPage() {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const list = useMerchants(keyword, page, pageSize);
  const [action, setAction] = useState<ActionState | null>(null);

  const money = (v: number) => formatFen(v);
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="merchants-page">
      <Card
        title={t('menu.finance.merchants')}
        extra={
          <Input.Search
            allowClear
            placeholder={t('merchants.search')}
            style={{ width: 260 }}
            onSearch={(value) => {
              setKeyword(value.trim());
              setPage(1);
            }}
          />
        }
      >
        {list.isError && !list.data ? (
          <Alert
            type="error"
            showIcon
            title={t('orderCommon.loadFailed')}
            action={<Button onClick={() => void list.refetch()}>{t('orderCommon.retry')}</Button>}
          />
        ) : (
          <Table<MerchantRow>
            rowKey="merchant_id"
            data-testid="merchant-table"
            loading={list.isFetching}
            dataSource={list.data?.list ?? []}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: <Empty description={t('orderCommon.empty')} /> }}
            pagination={{
              current: page,
              pageSize,
              total: list.data?.total ?? 0,
              showTotal: (total) => t('orderCommon.total', { count: total }),
              onChange: (next, size) => {
                setPage(size !== pageSize ? 1 : next);
                setPageSize(size);
              },
            }}
            columns={[
              { title: t('orderCommon.filter.merchantId'), dataIndex: 'merchant_id' },
              { title: t('merchants.name'), dataIndex: 'name' },
              { title: t('workplace.money.balance'), dataIndex: 'balance_fen', align: 'right', render: money },
              { title: t('workplace.money.creditAvailable'), dataIndex: 'credit_available_fen', align: 'right', render: money },
              { title: t('workplace.money.creditUsed'), dataIndex: 'credit_used_fen', align: 'right', render: money },
              { title: t('workplace.money.creditLimit'), dataIndex: 'credit_limit_fen', align: 'right', render: money },
              { title: t('workplace.money.totalTopup'), dataIndex: 'total_topup_fen', align: 'right', render: money },
              { title: t('merchants.createdAt'), dataIndex: 'created_at', render: formatTime },
              {
                title: t('orderCommon.column.actions'),
                key: 'actions',
                fixed: 'right',
                render: (_: unknown, merchant) => (
                  <Space size={4} wrap>
                    {(['topup', 'credit', 'repay', 'adjust'] as const).map((name) => (
                      <Button
                        key={name}
                        size="small"
                        data-testid={`merchant-${name}`}
                        disabled={name === 'repay' && merchant.credit_used_fen === 0}
                        onClick={() => setAction({ action: name, merchant })}
                      >
                        {t(`merchants.action.${name}`)}
                      </Button>
                    ))}
                  </Space>
                ),
              },
            ]}
          />
        )}
      </Card>
      <ActionDialog state={action} onClose={() => setAction(null)} />
    </Space>
  );
}
