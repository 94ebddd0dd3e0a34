import { OrderListView } from './order-list-view';

/** Orders (/order/list): ordinary direct top-up orders. */
export default function OrderListPage() {
  return <OrderListView kind="ordinary" titleKey="menu.order.list" testId="order-list-page" />;
}
