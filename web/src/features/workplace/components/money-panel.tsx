import { Alert, Button, Card, Col, Empty, Row, Select, Skeleton, Statistic } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { presetRange } from '@/components/list-page/date-presets';
import { type FilterSchema, listLink } from '@/components/list-page/url-filters';
import { useActingMerchantStore } from '@/components/acting-merchant/acting-merchant-store';
import { usePermission } from '@/components/permission/use-permission';
import { formatFen } from '@/lib/money';
import { useUserStore } from '@/stores/user-store';
import { useMerchantOptions, useOverview } from '../api/overview';

function Money({ title, fen, testId }: { title: string; fen: number; testId: string }) {
  return (
    <Col xs={24} sm={12} lg={8} xl={6}>
      <Card size="small" className="workplace__stat">
        <Statistic title={title} value={formatFen(fen)} prefix="¥" data-testid={testId} />
      </Card>
    </Col>
  );
}

function Count({
  title,
  value,
  testId,
  color,
  to,
}: {
  title: string;
  value: number;
  testId: string;
  color?: string;
  /** The filtered order list this figure counts. */
  to?: string;
}) {
  const card = (
    <Card size="small" className="workplace__stat" hoverable={Boolean(to)}>
      <Statistic title={title} value={value} styles={{ content: color ? { color } : undefined }} data-testid={testId} />
    </Card>
  );
  return (
    <Col xs={24} sm={12} lg={8} xl={6}>
      {to ? (
        <Link to={to} data-testid={`${testId}-link`}>
          {card}
        </Link>
      ) : (
        card
      )}
    </Col>
  );
}

// ECharts comes with the chart only, after the figures have painted.
const OrderBarChart = lazy(() => import('./order-bar-chart'));

const ORDER_LINK_SCHEMA: FilterSchema = {
  texts: ['kind', 'progress'],
  numbers: ['status', 'merchantId'],
  ranges: ['range'],
};

/**
 * The order list showing what a "today" figure counts: every kind (the counters do not
 * split kinds), today in Beijing time, one status (or every status not final yet: the
 * in-flight figure), the picked merchant if any.
 */
export function todayOrdersLink(status: number | 'inFlight', merchantId?: number): string {
  const which = status === 'inFlight' ? { progress: 'inFlight' } : { status };
  return listLink('/order/list', { kind: 'all', ...which, merchantId, range: presetRange('today') }, ORDER_LINK_SCHEMA);
}

/** The workplace figures: balance, credit, cumulative top-up, today's orders and the last days' chart. */
export function MoneyPanel() {
  const { t } = useTranslation();
  const isAdmin = usePermission(['admin']);
  const previewing = useUserStore((state) => state.previewing);
  const previewMerchant = useActingMerchantStore((state) => state.merchant);
  const [pickedMerchantId, setMerchantId] = useState<number | undefined>(undefined);
  // Previewing the merchant view shows one merchant's figures (the banner's choice), as that
  // merchant would see them, never the platform's sums under a merchant's title.
  const merchantId = previewing ? previewMerchant?.merchantId : pickedMerchantId;
  const overview = useOverview(merchantId, !previewing || Boolean(merchantId));
  const merchants = useMerchantOptions(isAdmin);
  const data = previewing && !merchantId ? undefined : overview.data;

  return (
    <>
      <Card
        title={isAdmin && !merchantId ? t('workplace.money.platformTitle') : t('workplace.money.title')}
        data-testid="workplace-money-panel"
        extra={
          isAdmin ? (
            <Select
              allowClear
              showSearch
              optionFilterProp="label"
              style={{ width: 220 }}
              placeholder={t('workplace.money.allMerchants')}
              aria-label={t('listPage.merchant')}
              value={merchantId}
              onChange={setMerchantId}
              loading={merchants.isLoading}
              data-testid="workplace-merchant-picker"
              options={(merchants.data?.list ?? []).map((m) => ({
                value: m.merchant_id,
                label: `${m.name} (${m.merchant_id})`,
              }))}
            />
          ) : null
        }
      >
        {previewing && !merchantId ? (
          <Alert type="info" showIcon title={t('actingMerchant.choose')} data-testid="workplace-preview-choose" />
        ) : null}
        {overview.isLoading ? <Skeleton active /> : null}
        {overview.isError && !data ? (
          <Alert
            type="error"
            showIcon
            title={t('common.loadFailed')}
            action={<Button onClick={() => void overview.refetch()}>{t('common.retry')}</Button>}
            data-testid="workplace-money-error"
          />
        ) : null}
        {data ? (
          <Row gutter={[12, 12]}>
            <Money title={t('workplace.money.balance')} fen={data.balance_fen} testId="stat-balance" />
            <Money
              title={t('workplace.money.creditAvailable')}
              fen={data.credit_available_fen}
              testId="stat-credit-available"
            />
            <Money title={t('workplace.money.creditUsed')} fen={data.credit_used_fen} testId="stat-credit-used" />
            <Money title={t('workplace.money.creditLimit')} fen={data.credit_limit_fen} testId="stat-credit-limit" />
            <Money title={t('workplace.money.totalTopup')} fen={data.total_topup_fen} testId="stat-total-topup" />
            <Count
              title={t('workplace.money.todayInFlight')}
              value={data.today_in_flight}
              testId="stat-today-in-flight"
              to={todayOrdersLink('inFlight', merchantId)}
            />
            <Count
              title={t('workplace.money.todaySuccess')}
              value={data.today_success}
              testId="stat-today-success"
              color="var(--ant-color-success)"
              to={todayOrdersLink(2, merchantId)}
            />
            <Count
              title={t('workplace.money.todayFailure')}
              value={data.today_failure}
              testId="stat-today-failure"
              color="var(--ant-color-error)"
              to={todayOrdersLink(3, merchantId)}
            />
          </Row>
        ) : null}
      </Card>
      <Card title={t('workplace.chart.title', { count: data?.days.length ?? 7 })}>
        {data && data.days.length ? (
          <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: 240 }} />}>
            <OrderBarChart days={data.days} />
          </Suspense>
        ) : null}
        {data && !data.days.length ? <Empty description={t('common.empty')} /> : null}
        {overview.isLoading ? <Skeleton active /> : null}
      </Card>
    </>
  );
}
