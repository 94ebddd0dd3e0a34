import { OrderListView } from './order-list-view';

/** Card-secret orders (/order/cardList); the detail drawer reveals a delivered card. */
export default function CardOrderListPage() {
  return <OrderListView kind="card" titleKey="menu.order.cardList" testId="card-order-list-page" />;
}
