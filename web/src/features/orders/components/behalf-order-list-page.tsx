import { OrderListView } from './order-list-view';

/** On-behalf orders (/order/behalfList); administrators mark them succeeded or failed. */
export default function BehalfOrderListPage() {
  return <OrderListView kind="behalf" titleKey="menu.order.behalfList" testId="behalf-order-list-page" />;
}
