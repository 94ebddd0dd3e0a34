import { ShopOutlined } from '@ant-design/icons';
import { Alert, Card, Select, Space, Typography } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUserStore } from '@/stores/user-store';
import { useActingMerchantStore } from './acting-merchant-store';
import { useMerchantSearch } from './merchant-options';

const SEARCH_PAUSE_MS = 250;

/** A searchable merchant select (name or mid) bound to the session's acting merchant. */
export function ActingMerchantPicker({ width = 280 }: { width?: number }) {
  const { t } = useTranslation();
  const merchant = useActingMerchantStore((state) => state.merchant);
  const setMerchant = useActingMerchantStore((state) => state.setMerchant);
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    // Ask the server once the typing pauses, not on every key.
    const timer = window.setTimeout(() => setKeyword(typed), SEARCH_PAUSE_MS);
    return () => window.clearTimeout(timer);
  }, [typed]);
  const options = useMerchantSearch(keyword, true);
  const choices = (options.data?.list ?? []).map((item) => ({ value: item.merchant_id, label: `${item.name} (${item.merchant_id})`, name: item.name }));
  if (merchant && !choices.some((choice) => choice.value === merchant.merchantId)) {
    choices.unshift({ value: merchant.merchantId, label: `${merchant.name} (${merchant.merchantId})`, name: merchant.name });
  }
  return (
    <Select
      showSearch={{ filterOption: false, onSearch: setTyped }}
      allowClear
      style={{ width, maxWidth: '100%' }}
      placeholder={t('actingMerchant.placeholder')}
      aria-label={t('actingMerchant.label')}
      value={merchant?.merchantId}
      loading={options.isFetching}
      notFoundContent={options.isFetching ? null : t('actingMerchant.none')}
      options={choices}
      data-testid="acting-merchant-picker"
      onChange={(value: number | undefined, option) => {
        const chosen = Array.isArray(option) ? option[0] : option;
        setMerchant(value ? { merchantId: value, name: String(chosen?.name ?? value) } : null);
        setTyped('');
      }}
    />
  );
}

/**
 * Pages that place orders act for one merchant. A merchant acts for itself; an
 * administrator picks the merchant first, and the page loads nothing until then.
 */
export function ActingMerchantGate({ children }: { children: (merchantId: number | undefined) => ReactNode }) {
  const { t } = useTranslation();
  // The server's role, not the console's preview: the server decides who needs a merchant id.
  const isAdmin = useUserStore((state) => state.info.role === 'admin');
  const merchant = useActingMerchantStore((state) => state.merchant);
  if (!isAdmin) return <>{children(undefined)}</>;
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card size="small" data-testid="acting-merchant-card">
        <Space wrap>
          <ShopOutlined />
          <Typography.Text strong>{t('actingMerchant.label')}</Typography.Text>
          <ActingMerchantPicker />
        </Space>
        {merchant ? null : (
          <Alert style={{ marginTop: 12 }} type="info" showIcon title={t('actingMerchant.choose')} data-testid="acting-merchant-choose" />
        )}
      </Card>
      {merchant ? <div key={merchant.merchantId}>{children(merchant.merchantId)}</div> : null}
    </Space>
  );
}
