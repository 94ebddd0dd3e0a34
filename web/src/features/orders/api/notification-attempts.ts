import { queryOptions, useQuery } from '@tanstack/react-query';
import { postJson } from '@/lib/request';

export const NOTIFY_ATTEMPTS_URL = '/adminapi/notify/attempts';

/** One attempt to deliver an order's notification. */
export interface NotificationAttempt {
  notification_id: number;
  attempt: number;
  started_at: string;
  latency_ms: number;
  http_status: number | null;
  delivered: boolean;
  response_excerpt: string;
  error: string | null;
}

export interface OrderNotification {
  id: number;
  event_id: string;
  state: 'pending' | 'delivered' | 'failed' | 'exhausted';
  attempts: number;
  url: string;
  next_attempt_at: string | null;
}

export interface OrderNotifications {
  notifications: OrderNotification[];
  attempts: NotificationAttempt[];
}

/** POST /adminapi/notify/attempts: an order's notifications and every attempt. */
export function getOrderNotifications(orderId: number): Promise<OrderNotifications> {
  return postJson<OrderNotifications>(NOTIFY_ATTEMPTS_URL, { order_id: orderId });
}

export const orderNotificationsQueryOptions = (orderId: number) =>
  queryOptions({ queryKey: ['order-notifications', orderId], queryFn: () => getOrderNotifications(orderId) });

export function useOrderNotifications(orderId: number) {
  return useQuery(orderNotificationsQueryOptions(orderId));
}
