import { PagePlaceholder } from '@/components/page-placeholder/page-placeholder';

/** Batch add orders (/order/allAddList) — placeholder until the feature ships. */
export default function BatchAddOrdersPage() {
  return <PagePlaceholder titleKey="menu.order.allAddList" testId="batch-add-orders-page" />;
}
