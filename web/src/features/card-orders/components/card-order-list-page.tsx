import { PagePlaceholder } from '@/components/page-placeholder/page-placeholder';

/** Card-secret orders (/order/cardList) — placeholder until the feature ships. */
export default function CardOrderListPage() {
  return <PagePlaceholder titleKey="menu.order.cardList" testId="card-order-list-page" />;
}
