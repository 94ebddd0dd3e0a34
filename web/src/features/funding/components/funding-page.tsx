import { Button, Modal, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { ListPage } from '@/components/list-page/list-page';
import type { ListColumn } from '@/components/list-page/list-table';
import type { FilterSchema, FilterValues } from '@/components/list-page/url-filters';
import { useListPage } from '@/components/list-page/use-list-page';
import { showSuccessMessage } from '@/lib/feedback';
import { formatFen } from '@/lib/money';
import {
  FUNDING_STATUSES,
  type FundingItem,
  type FundingQuery,
  type FundingStatus,
  ownFundingQueryOptions,
  useWithdrawFunding,
} from '../api/funding';
import { fundingColumns } from './funding-columns';
import { FundingForm } from './funding-form';
import { ProofButton } from './funding-parts';
import '@/locales/funding-texts';

const SCHEMA: FilterSchema = { texts: ['status'] };

/** Address values → the list's query; a status the API would refuse is dropped. */
export function toFundingQuery(values: FilterValues): FundingQuery {
  const status = FUNDING_STATUSES.find((known) => known === values.status);
  return status ? { status: status as FundingStatus } : {};
}

/** Funding requests (/finance/funding, merchants' users): file one, follow and withdraw them. */
export default function FundingPage() {
  const { t } = useTranslation();
  const state = useListPage({
    schema: SCHEMA,
    paging: 'numbers',
    toQuery: toFundingQuery,
    queryOptions: (query, page) => ownFundingQueryOptions(query, page.page, page.page_size),
  });
  const withdraw = useWithdrawFunding();
  const confirmWithdraw = (request: FundingItem) =>
    Modal.confirm({
      title: t('funding.withdraw'),
      content: t('funding.withdraw.confirm', { id: request.id, amount: formatFen(request.amount_fen) }),
      okButtonProps: { danger: true, 'data-testid': 'funding-withdraw-confirm' } as { danger: boolean },
      onOk: () => withdraw.mutateAsync(request.id).then(() => showSuccessMessage(t('funding.withdrawn'))),
    });
  const columns: ListColumn<FundingItem>[] = [
    ...fundingColumns(t),
    {
      key: 'actions',
      title: t('common.column.actions'),
      fixed: 'right',
      width: 190,
      phone: true,
      phoneWidth: 110,
      render: (_: unknown, request) => (
        <Space size={4} wrap>
          <ProofButton request={request} admin={false} />
          {request.status === 'pending' ? (
            <Button size="small" danger onClick={() => confirmWithdraw(request)} data-testid="funding-withdraw">
              {t('funding.withdraw')}
            </Button>
          ) : null}
        </Space>
      ),
    },
  ];
  return (
    <ListPage<FundingItem, FundingQuery>
      state={state}
      testId="funding-page"
      top={<FundingForm />}
      filters={{
        title: t('funding.list.title'),
        fields: [
          {
            name: 'status',
            label: t('funding.filter.status'),
            input: (
              <Select
                allowClear
                placeholder={t('common.filter.all')}
                data-testid="funding-filter-status"
                options={FUNDING_STATUSES.map((value) => ({ value, label: t(`funding.status.${value}`) }))}
              />
            ),
          },
        ],
        testId: 'funding-filters',
        searchTestId: 'funding-search',
        resetTestId: 'funding-reset',
      }}
      total={{ testId: 'funding-total' }}
      listKey="funding"
      columns={columns}
      rowKey="id"
      tableTestId="funding-table"
      paginationTestId="funding-pagination"
    />
  );
}
