import { PagePlaceholder } from '@/components/page-placeholder/page-placeholder';

/** Manual top-up on behalf (/order/behalfList) — placeholder until the feature ships. */
export default function BehalfOrderListPage() {
  return <PagePlaceholder titleKey="menu.order.behalfList" testId="behalf-order-list-page" />;
}
