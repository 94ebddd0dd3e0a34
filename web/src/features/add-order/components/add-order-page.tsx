import { PagePlaceholder } from '@/components/page-placeholder/page-placeholder';

/** Add order (/order/addList) — placeholder until the feature ships. */
export default function AddOrderPage() {
  return <PagePlaceholder titleKey="menu.order.addList" testId="add-order-page" />;
}
