import { Button, Dropdown, Input, Modal, Space, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage } from '@/components/list-page/list-page';
import type { ListColumn } from '@/components/list-page/list-table';
import type { FilterSchema, FilterValues } from '@/components/list-page/url-filters';
import { useListPage } from '@/components/list-page/use-list-page';
import { showSuccessMessage } from '@/lib/feedback';
import { formatFen } from '@/lib/money';
import { formatTime } from '@/lib/platform-time';
import {
  type MerchantRow,
  merchantsQueryOptions,
  setMerchantEnabled,
  type TemporaryCredentials,
  useMerchantAdmin,
} from '../api/merchants';
import { ActionDialog, type ActionState } from './merchant-action-dialog';
import { MerchantRiskDialog } from './merchant-risk-dialog';
import {
  CreateMerchantDialog,
  MerchantUsersDialog,
  RenameMerchantDialog,
  TemporaryPasswordDialog,
} from './merchant-admin-dialogs';
import '@/locales/merchant-admin-texts';
import '@/locales/risk-texts';

const SCHEMA: FilterSchema = { texts: ['keyword'] };

const toKeyword = (values: FilterValues) => (typeof values.keyword === 'string' ? values.keyword.trim() : '');

/** Merchants (/finance/merchants, administrators): figures and money actions. */
export default function MerchantsPage() {
  const { t, i18n } = useTranslation();
  const state = useListPage({
    schema: SCHEMA,
    paging: 'numbers',
    toQuery: toKeyword,
    queryOptions: (keyword, page) => merchantsQueryOptions(keyword, page.page, page.page_size),
  });
  const [action, setAction] = useState<ActionState | null>(null);
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<MerchantRow | null>(null);
  const [usersOf, setUsersOf] = useState<MerchantRow | null>(null);
  const [riskOf, setRiskOf] = useState<MerchantRow | null>(null);
  const [credentials, setCredentials] = useState<TemporaryCredentials | null>(null);
  const switchEnabled = useMerchantAdmin(({ id, enabled }: { id: number; enabled: boolean }) =>
    setMerchantEnabled(id, enabled),
  );
  const confirmSwitch = (merchant: MerchantRow) => {
    const enabled = merchant.disabled_at !== null;
    Modal.confirm({
      title: t(enabled ? 'merchantAdmin.enable' : 'merchantAdmin.disable') + ` · ${merchant.name}`,
      content: t(enabled ? 'merchantAdmin.enable.confirm' : 'merchantAdmin.disable.confirm', {
        name: merchant.name,
        mid: merchant.merchant_id,
      }),
      okButtonProps: { danger: !enabled, 'data-testid': 'merchant-switch-confirm' } as { danger: boolean },
      onOk: () =>
        switchEnabled
          .mutateAsync({ id: merchant.merchant_id, enabled })
          .then(() => showSuccessMessage(t('merchantAdmin.saved'))),
    });
  };

  const money = (v: number) => formatFen(v);
  const moneyColumn = (key: keyof MerchantRow & string, title: string, phone = false): ListColumn<MerchantRow> => ({
    key,
    title,
    dataIndex: key,
    align: 'right',
    width: 130,
    phone,
    render: money,
  });
  const columns: ListColumn<MerchantRow>[] = [
    // Every column has a width: the table then knows its full width (scroll.x) and scrolls
    // every column out from under the fixed action column.
    { key: 'merchant_id', title: t('common.filter.merchantId'), dataIndex: 'merchant_id', width: 100 },
    {
      key: 'name',
      title: t('merchants.name'),
      dataIndex: 'name',
      width: 180,
      ellipsis: true,
      phone: true,
      phoneWidth: 120,
    },
    // Next to the name, not at the end: the table is wider than a 1440 px screen in
    // English, and the end scrolls under the fixed action column.
    {
      key: 'created_at',
      title: t('merchants.createdAt'),
      dataIndex: 'created_at',
      width: 180,
      render: (value: string) => <span data-testid="merchant-created-at">{formatTime(value)}</span>,
    },
    {
      key: 'status',
      title: t('merchantAdmin.status'),
      dataIndex: 'disabled_at',
      width: 100,
      render: (value: string | null) =>
        value ? (
          <Tag color="red" data-testid="merchant-status">
            {t('merchantAdmin.disabled')}
          </Tag>
        ) : (
          <Tag color="green" data-testid="merchant-status">
            {t('merchantAdmin.enabled')}
          </Tag>
        ),
    },
    moneyColumn('balance_fen', t('workplace.money.balance'), true),
    moneyColumn('credit_available_fen', t('workplace.money.creditAvailable')),
    moneyColumn('credit_used_fen', t('workplace.money.creditUsed')),
    moneyColumn('credit_limit_fen', t('workplace.money.creditLimit')),
    moneyColumn('total_topup_fen', t('workplace.money.totalTopup')),
    {
      key: 'actions',
      title: t('common.column.actions'),
      fixed: 'right',
      // Wide enough for the four buttons on one line: a fixed column that wraps
      // grows over the columns before it (the created time used to hide there).
      width: i18n.language === 'en-US' ? 520 : 400,
      phone: true,
      render: (_: unknown, merchant) => (
        <Space size={4} data-testid="merchant-actions">
          {(['topup', 'credit', 'repay', 'adjust'] as const).map((name) => {
            const nothingToRepay = name === 'repay' && merchant.credit_used_fen === 0;
            const button = (
              <Button
                key={name}
                size="small"
                data-testid={`merchant-${name}`}
                disabled={nothingToRepay}
                onClick={() => setAction({ action: name, merchant })}
              >
                {t(`merchants.action.${name}`)}
              </Button>
            );
            // A disabled button says why (it gets no pointer events: the span does).
            return nothingToRepay ? (
              <Tooltip key={name} title={t('merchants.repayDisabled')}>
                <span data-testid="merchant-repay-why">{button}</span>
              </Tooltip>
            ) : (
              button
            );
          })}
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                { key: 'rename', label: t('merchantAdmin.rename'), onClick: () => setRenaming(merchant) },
                { key: 'users', label: t('merchantAdmin.users'), onClick: () => setUsersOf(merchant) },
                { key: 'risk', label: t('risk.menu'), onClick: () => setRiskOf(merchant) },
                {
                  key: 'switch',
                  danger: merchant.disabled_at === null,
                  label: t(merchant.disabled_at === null ? 'merchantAdmin.disable' : 'merchantAdmin.enable'),
                  onClick: () => confirmSwitch(merchant),
                },
              ],
            }}
          >
            <Button size="small" data-testid="merchant-manage">
              {t('merchantAdmin.manage')}
            </Button>
          </Dropdown>
        </Space>
      ),
    },
  ];

  return (
    <ListPage<MerchantRow, string>
      state={state}
      testId="merchants-page"
      filters={{
        title: t('menu.finance.merchants'),
        fields: [
          {
            name: 'keyword',
            label: t('merchants.search'),
            input: (
              <Input
                allowClear
                maxLength={64}
                placeholder={t('merchants.search')}
                data-testid="merchant-filter-keyword"
              />
            ),
          },
        ],
        testId: 'merchant-filters',
        searchTestId: 'merchant-search',
        resetTestId: 'merchant-reset',
      }}
      total={{
        testId: 'merchant-total',
        extra: (
          <Button type="primary" size="small" onClick={() => setCreating(true)} data-testid="merchant-create">
            {t('merchantAdmin.create')}
          </Button>
        ),
      }}
      listKey="merchants"
      columns={columns}
      rowKey="merchant_id"
      tableTestId="merchant-table"
      paginationTestId="merchant-pagination"
    >
      <ActionDialog state={action} onClose={() => setAction(null)} />
      <CreateMerchantDialog open={creating} onClose={() => setCreating(false)} onCreated={setCredentials} />
      <RenameMerchantDialog merchant={renaming} onClose={() => setRenaming(null)} />
      <MerchantRiskDialog merchant={riskOf} onClose={() => setRiskOf(null)} />
      <MerchantUsersDialog merchant={usersOf} onClose={() => setUsersOf(null)} onCredentials={setCredentials} />
      <TemporaryPasswordDialog credentials={credentials} onClose={() => setCredentials(null)} />
    </ListPage>
  );
}
