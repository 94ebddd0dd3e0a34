import { Select } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMerchantSearch } from '@/components/acting-merchant/merchant-options';

const SEARCH_PAUSE_MS = 250;

/**
 * A merchant chosen from the server's merchants, searched by name or mid (administrators):
 * its value is the mid, so a list's filter only ever holds a whole merchant id. A mid given
 * from outside (the address) that the first results lack is shown by its number.
 */
export function MerchantSelect({
  value,
  onChange,
  placeholder,
  testId,
  width,
  ariaLabel,
}: {
  value?: number | null;
  onChange?: (value: number | undefined) => void;
  placeholder?: string;
  testId?: string;
  width?: number | string;
  ariaLabel?: string;
}) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    // Ask the server once the typing pauses, not on every key.
    const timer = window.setTimeout(() => setKeyword(typed), SEARCH_PAUSE_MS);
    return () => window.clearTimeout(timer);
  }, [typed]);
  const options = useMerchantSearch(keyword, true);
  const choices = (options.data?.list ?? []).map((item) => ({
    value: item.merchant_id,
    label: `${item.name} (${item.merchant_id})`,
  }));
  if (typeof value === 'number' && !choices.some((choice) => choice.value === value)) {
    choices.unshift({ value, label: String(value) });
  }
  return (
    <Select<number>
      showSearch={{ filterOption: false, onSearch: setTyped }}
      allowClear
      style={{ width: width ?? '100%', maxWidth: '100%' }}
      placeholder={placeholder ?? t('actingMerchant.placeholder')}
      aria-label={ariaLabel}
      value={value ?? undefined}
      loading={options.isFetching}
      notFoundContent={options.isFetching ? null : t('actingMerchant.none')}
      options={choices}
      data-testid={testId}
      onChange={(next) => {
        onChange?.(typeof next === 'number' ? next : undefined);
        setTyped('');
      }}
    />
  );
}
