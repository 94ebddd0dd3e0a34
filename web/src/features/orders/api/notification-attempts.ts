import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiSchema, post } from '@/lib/request';

export const NOTIFY_ATTEMPTS_URL = '/adminapi/notify/attempts';

/** One attempt to deliver an order's notification. */
export type NotificationAttempt = ApiSchema<'AttemptItem'>;

export type OrderNotification = ApiSchema<'NotificationItem'>;

export type OrderNotifications = ApiSchema<'OrderNotifications'>;

/** POST /adminapi/notify/attempts: an order's notifications and every attempt. */
export function getOrderNotifications(orderId: number): Promise<OrderNotifications> {
  return post(NOTIFY_ATTEMPTS_URL, { order_id: orderId });
}

export const orderNotificationsQueryOptions = (orderId: number) =>
  queryOptions({ queryKey: ['order-notifications', orderId], queryFn: () => getOrderNotifications(orderId) });

export function useOrderNotifications(orderId: number) {
  return useQuery(orderNotificationsQueryOptions(orderId));
}
