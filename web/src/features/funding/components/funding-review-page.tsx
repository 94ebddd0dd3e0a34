import { Button, Form, Input, InputNumber, Modal, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { rangeToIso } from '@/components/list-page/date-presets';
import { DateRangeFilter } from '@/components/list-page/filter-card';
import { ListPage } from '@/components/list-page/list-page';
import type { ListColumn } from '@/components/list-page/list-table';
import type { FilterSchema, FilterValues } from '@/components/list-page/url-filters';
import { useListPage } from '@/components/list-page/use-list-page';
import { useStepUp } from '@/components/step-up/use-step-up';
import { showSuccessMessage } from '@/lib/feedback';
import { formatFen } from '@/lib/money';
import { useSubmission } from '@/lib/submission';
import {
  FUNDING_STATUSES,
  type FundingItem,
  type FundingQuery,
  type FundingStatus,
  fundingQueueQueryOptions,
  useApproveFunding,
  useRejectFunding,
} from '../api/funding';
import { fundingColumns } from './funding-columns';
import { ProofButton } from './funding-parts';
import '@/locales/funding-texts';

const SCHEMA: FilterSchema = { texts: ['status'], numbers: ['merchantId'], ranges: ['range'] };

/** Address values → the queue's query: pending first by default, as the queue to work. */
export function toQueueQuery(values: FilterValues): FundingQuery {
  const status = FUNDING_STATUSES.find((known) => known === values.status) as FundingStatus | undefined;
  const merchant = typeof values.merchantId === 'number' && values.merchantId > 0 ? values.merchantId : undefined;
  return {
    ...(status ? { status } : {}),
    ...(merchant ? { merchant_id: merchant } : {}),
    ...rangeToIso(Array.isArray(values.range) ? values.range : null),
  };
}

function RejectDialog({ request, onClose }: { request: FundingItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  const reject = useRejectFunding();
  const submit = ({ reason }: { reason: string }) => {
    if (!request || reject.isPending) return;
    reject.mutateAsync({ id: request.id, reason }).then(() => {
      showSuccessMessage(t('funding.review.rejected'));
      onClose();
    });
  };
  return (
    <Modal
      open={request !== null}
      title={request ? t('funding.review.rejectTitle', { id: request.id }) : ''}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('funding.review.reject')}
      okButtonProps={
        { danger: true, loading: reject.isPending, 'data-testid': 'funding-reject-confirm' } as {
          danger: boolean;
          loading: boolean;
        }
      }
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit} preserve={false}>
        <Form.Item
          name="reason"
          label={t('funding.reason')}
          rules={[{ required: true, whitespace: true, max: 200, message: t('funding.review.reasonRequired') }]}
        >
          <Input.TextArea maxLength={200} showCount autoSize={{ minRows: 2 }} data-testid="funding-reject-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Funding review (/finance/fundingReview, administrators): the queue, approve with step-up, reject with a reason. */
export default function FundingReviewPage() {
  const { t, i18n } = useTranslation();
  const state = useListPage({
    schema: SCHEMA,
    paging: 'numbers',
    toQuery: toQueueQuery,
    queryOptions: (query, page) => fundingQueueQueryOptions(query, page.page, page.page_size),
  });
  const approve = useApproveFunding();
  const stepUp = useStepUp();
  const submission = useSubmission();
  const [rejecting, setRejecting] = useState<FundingItem | null>(null);
  const confirmApprove = (request: FundingItem) =>
    Modal.confirm({
      title: t('funding.review.approve'),
      content: t('funding.review.approve.confirm', {
        id: request.id,
        merchant: request.merchant_name,
        mid: request.merchant_id,
        amount: formatFen(request.amount_fen),
        reference: request.bank_reference,
      }),
      okButtonProps: { type: 'primary', 'data-testid': 'funding-approve-confirm' } as { type: 'primary' },
      // One key per request approved: a second click, or the retry after the step-up code,
      // repeats the same approval, which credits once.
      onOk: () =>
        submission
          .run({ approve: request.id }, (idempotencyKey) =>
            stepUp.guard(() => approve.mutateAsync({ id: request.id, idempotencyKey })),
          )
          ?.then(() => showSuccessMessage(t('funding.review.approved'))),
    });
  const columns: ListColumn<FundingItem>[] = [
    fundingColumns(t)[0],
    {
      key: 'merchant',
      title: t('funding.merchant'),
      dataIndex: 'merchant_name',
      width: 160,
      ellipsis: true,
      // Not on a phone: the approval's confirmation names the merchant with the amount.
      render: (name: string, row) => `${name} (${row.merchant_id})`,
    },
    ...fundingColumns(t).slice(1),
    { key: 'created_by_name', title: t('funding.filedBy'), dataIndex: 'created_by_name', width: 110 },
    {
      key: 'actions',
      title: t('common.column.actions'),
      fixed: 'right',
      // Wide enough for the three buttons on one line in either language.
      width: i18n.language === 'en-US' ? 270 : 230,
      phone: true,
      phoneWidth: 110,
      render: (_: unknown, request) => (
        <Space size={4} wrap>
          <ProofButton request={request} admin />
          {request.status === 'pending' ? (
            <>
              <Button size="small" type="primary" onClick={() => confirmApprove(request)} data-testid="funding-approve">
                {t('funding.review.approve')}
              </Button>
              <Button size="small" danger onClick={() => setRejecting(request)} data-testid="funding-reject">
                {t('funding.review.reject')}
              </Button>
            </>
          ) : null}
        </Space>
      ),
    },
  ];
  return (
    <ListPage<FundingItem, FundingQuery>
      state={state}
      testId="funding-review-page"
      filters={{
        title: t('menu.finance.fundingReview'),
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
          {
            name: 'merchantId',
            label: t('common.filter.merchantId'),
            input: (
              <InputNumber min={1} precision={0} style={{ width: '100%' }} data-testid="funding-filter-merchant" />
            ),
          },
          {
            name: 'range',
            label: t('funding.filter.time'),
            wide: true,
            input: <DateRangeFilter data-testid="funding-filter-range" />,
          },
        ],
        testId: 'funding-filters',
        searchTestId: 'funding-search',
        resetTestId: 'funding-reset',
      }}
      total={{ testId: 'funding-total' }}
      listKey="funding-review"
      columns={columns}
      rowKey="id"
      tableTestId="funding-table"
      paginationTestId="funding-pagination"
    >
      {stepUp.element}
      <RejectDialog request={rejecting} onClose={() => setRejecting(null)} />
    </ListPage>
  );
}
