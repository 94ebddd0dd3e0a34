import { Alert, Card, Input, Select, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ListColumn, ListTable } from '@/components/list-page/list-table';
import { MerchantSelect } from '@/components/merchant-select/merchant-select';
import { formatFen, formatSignedFen } from '@/lib/money';
import { normalizePhone } from '@/lib/phone';
import { formatTimeAs } from '@/lib/platform-time';
import { PROVINCE_CODES, provinceKey } from '@/lib/provinces';
import { type RouteItem, useCatalogue, useRouting } from '../api/channels';
import { exclusionKey, formatRatio } from '../api/figures';
import { ChannelName } from './channel-name';

/** Why a channel is out, in the console's language (the server's code when this console does not know it). */
export function ExclusionTag({ reason, window }: { reason: string; window?: RouteItem['window'] }) {
  const { t } = useTranslation();
  const key = exclusionKey(reason);
  return (
    <Tag color="default" data-testid="routing-exclusion">
      {key ? t(key) : reason}
      {window
        ? t('channels.exclusion.windowNamed', { title: window.title, until: formatTimeAs(window.until, 'MM-DD HH:mm') })
        : null}
    </Tag>
  );
}

/**
 * For a product: which channels would take an order now, in what order (highest priority
 * first; within the first priority drawn by weight), and why the others are excluded.
 */
export function RoutingPreview({
  productKey,
  onProduct,
}: {
  productKey: string | null;
  onProduct: (key: string) => void;
}) {
  const { t } = useTranslation();
  const catalogue = useCatalogue();
  const [merchantId, setMerchantId] = useState<number | undefined>(undefined);
  const [province, setProvince] = useState<number | undefined>(undefined);
  // The number is asked about once typed in full (11 digits), not at every keystroke; spaces,
  // +86 and full-width digits read as the number meant.
  const [account, setAccount] = useState('');
  const normalized = normalizePhone(account);
  const number = /^1\d{10}$/.test(normalized) ? normalized : undefined;
  const routing = useRouting(productKey, { merchantId, province, account: number });
  const routes = routing.data ?? [];
  const candidates = routes.filter((route) => !route.excluded);
  const price = routes.find((route) => route.merchant_price_fen != null)?.merchant_price_fen ?? null;
  const losing = candidates.filter((route) => route.at_or_below_cost);

  const columns: ListColumn<RouteItem>[] = [
    {
      key: 'order',
      title: t('channels.routing.order'),
      phone: true,
      render: (_: unknown, route: RouteItem) => (route.excluded ? '-' : candidates.indexOf(route) + 1),
    },
    {
      key: 'channel',
      title: t('channels.column.channel'),
      phone: true,
      render: (_: unknown, route: RouteItem) => <ChannelName name={route.name} code={route.code} />,
    },
    {
      key: 'cost',
      title: t('channels.supplies.cost'),
      align: 'right',
      dataIndex: 'cost_fen',
      render: (value: number) => formatFen(value),
    },
    ...(price !== null
      ? [
          {
            key: 'margin',
            title: t('channels.routing.margin'),
            align: 'right' as const,
            phone: true,
            render: (_: unknown, route: RouteItem) =>
              route.at_or_below_cost ? (
                <Tag color="error" data-testid="routing-at-cost">
                  {t('channels.routing.atCost', { margin: formatSignedFen(route.margin_fen) })}
                </Tag>
              ) : (
                formatSignedFen(route.margin_fen)
              ),
          },
        ]
      : []),
    {
      key: 'coverage',
      title: t('channels.supplies.coverage'),
      ellipsis: true,
      render: (_: unknown, route: RouteItem) =>
        route.provinces.length
          ? route.provinces.map((code) => t(provinceKey(code))).join(t('channels.supplies.provinceSeparator'))
          : t('channels.supplies.coverage.national'),
    },
    { key: 'priority', title: t('channels.supplies.priority'), dataIndex: 'priority', align: 'right' },
    { key: 'weight', title: t('channels.supplies.weight'), dataIndex: 'weight', align: 'right' },
    {
      key: 'first_share',
      title: t('channels.routing.firstShare'),
      align: 'right',
      render: (_: unknown, route: RouteItem) => (route.excluded ? '-' : formatRatio(route.first_choice_share)),
    },
    {
      key: 'decision',
      title: t('channels.routing.decision'),
      phone: true,
      render: (_: unknown, route: RouteItem) =>
        route.excluded ? (
          <ExclusionTag reason={route.excluded} window={route.window} />
        ) : (
          <Tag color={route.first_choice_share > 0 ? 'success' : 'processing'} data-testid="routing-candidate">
            {t(route.first_choice_share > 0 ? 'channels.routing.candidate' : 'channels.routing.fallback')}
          </Tag>
        ),
    },
  ];

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="routing-preview">
      <Card size="small">
        <Space orientation="vertical" size={8} style={{ width: '100%' }}>
          <Typography.Text type="secondary">{t('channels.routing.help')}</Typography.Text>
          <Select
            showSearch
            value={productKey ?? undefined}
            placeholder={t('channels.routing.pickProduct')}
            aria-label={t('channels.routing.pickProduct')}
            style={{ width: 360, maxWidth: '100%' }}
            loading={catalogue.isLoading}
            onChange={onProduct}
            optionFilterProp="label"
            data-testid="routing-product"
            options={(catalogue.data ?? []).map((product) => ({
              value: product.product_key,
              label: `${product.product_key} ${product.name}`,
            }))}
          />
          <MerchantSelect
            value={merchantId}
            onChange={setMerchantId}
            width={360}
            placeholder={t('channels.routing.pickMerchant')}
            ariaLabel={t('channels.routing.pickMerchant')}
            testId="routing-merchant"
          />
          <Space wrap>
            <Select
              allowClear
              showSearch
              value={province}
              onChange={(value?: number) => setProvince(value)}
              placeholder={t('channels.routing.pickProvince')}
              aria-label={t('channels.routing.pickProvince')}
              style={{ width: 360, maxWidth: '100%' }}
              optionFilterProp="label"
              data-testid="routing-province"
              options={PROVINCE_CODES.map((code) => ({ value: code, label: t(provinceKey(code)) }))}
            />
            <Input
              allowClear
              value={account}
              disabled={province !== undefined}
              onChange={(event) => setAccount(event.target.value)}
              placeholder={t('channels.routing.account')}
              aria-label={t('channels.routing.account')}
              inputMode="numeric"
              maxLength={32}
              style={{ width: 360, maxWidth: '100%' }}
              data-testid="routing-account"
            />
          </Space>
          {province === undefined && !number ? (
            <Typography.Text type="secondary" data-testid="routing-any-province">
              {t('channels.routing.anyProvince')}
            </Typography.Text>
          ) : null}
        </Space>
      </Card>
      {productKey && routing.data && routes.length > 0 && candidates.length === 0 ? (
        <Alert type="warning" showIcon title={t('channels.routing.none')} data-testid="routing-none" />
      ) : null}
      {productKey && merchantId && routing.data && price === null ? (
        <Alert type="info" showIcon title={t('channels.routing.noQuote')} data-testid="routing-no-quote" />
      ) : null}
      {price !== null && losing.length > 0 ? (
        <Alert
          type="error"
          showIcon
          title={t('channels.routing.loss', { price: formatFen(price), count: losing.length })}
          data-testid="routing-loss"
        />
      ) : null}
      {productKey ? (
        <ListTable<RouteItem>
          listKey="channel-routing"
          title={
            price !== null
              ? t('channels.routing.titleWithPrice', { key: productKey, price: formatFen(price) })
              : productKey
          }
          columns={columns}
          rowKey="channel_id"
          dataSource={routes}
          loading={routing.isLoading}
          error={routing.isError && !routing.data}
          onRetry={() => void routing.refetch()}
          tableTestId="routing-table"
        />
      ) : null}
    </Space>
  );
}
