import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { STATUS_COLORS, statusKey } from '@/lib/order-labels';

export function OrderStatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLORS[status] ?? 'default'} data-testid="order-status" data-status={status}>
      {t(statusKey(status))}
    </Tag>
  );
}
