import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { carrierKey, regionText } from '@/lib/order-labels';
import { checkPhone, normalizePhone } from '@/lib/phone';
import { useSegmentLookup } from '../api/add-order';

/** How long typing must pause before the segment is asked for. */
export const SEGMENT_DEBOUNCE_MS = 250;

/** The first seven digits of a number being typed, or null before there are seven. */
export function typedPrefix(input: string): string | null {
  const digits = normalizePhone(input);
  return /^1\d{6,10}$/.test(digits) ? digits.slice(0, 7) : null;
}

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * Under the number: "广东 深圳 · 中国移动" from the seventh digit on (the server's segment
 * table); the segment rule's carrier alone when the table has no place for it.
 */
export function SegmentHint({ account }: { account: string }) {
  const { t, i18n } = useTranslation();
  const prefix = useDebounced(typedPrefix(account), SEGMENT_DEBOUNCE_MS);
  const lookup = useSegmentLookup(prefix);
  const check = checkPhone(account);
  // A stale answer for a prefix no longer typed is not shown.
  const segment = lookup.data && prefix === typedPrefix(account) ? lookup.data : undefined;
  if (segment) {
    const english = i18n.language === 'en-US';
    return (
      <span data-testid="add-order-segment">
        {t('addOrder.segmentPlace', {
          region: regionText(segment, english),
          carrier: t(carrierKey(segment.carrier)),
        })}
      </span>
    );
  }
  return check.ok ? <span>{t('addOrder.segmentCarrier', { carrier: t(carrierKey(check.carrier)) })}</span> : null;
}
