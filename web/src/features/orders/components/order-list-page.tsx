import { PagePlaceholder } from '@/components/page-placeholder/page-placeholder';

/** Orders (/order/list) — placeholder until the feature ships. */
export default function OrderListPage() {
  return <PagePlaceholder titleKey="menu.order.list" testId="order-list-page" />;
}
