import {
  keepPreviousData,
  mutationOptions,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { type ApiSchema, post } from '@/lib/request';

export const NOTIFY_LIST_URL = '/adminapi/notify/list';
export const NOTIFY_RESEND_URL = '/adminapi/notify/resend';
export const NOTIFY_RESEND_FAILED_URL = '/adminapi/notify/resendFailed';
export const NOTIFY_TEST_URL = '/adminapi/notify/test';

export const NOTIFICATION_STATES = ['pending', 'delivered', 'failed', 'exhausted'] as const;
export type NotificationState = (typeof NOTIFICATION_STATES)[number];

/** One callback to a merchant (an outbox row). */
export type NotificationItem = ApiSchema<'NotificationItem'>;

export interface NotificationFilters {
  state?: NotificationState;
  orderNo?: string;
  merchantId?: number;
  startTime?: string;
  endTime?: string;
}

export interface NotificationQuery {
  state?: NotificationState;
  order_no?: string;
  merchant_id?: number;
  from?: string;
  to?: string;
}

/** Filters → the list body of the API. */
export function toNotificationQuery(filters: NotificationFilters): NotificationQuery {
  const query: NotificationQuery = {};
  if (filters.state) query.state = filters.state;
  const orderNo = filters.orderNo?.trim();
  if (orderNo) query.order_no = orderNo;
  if (typeof filters.merchantId === 'number') query.merchant_id = filters.merchantId;
  if (filters.startTime) query.from = filters.startTime;
  if (filters.endTime) query.to = filters.endTime;
  return query;
}

export type NotificationPage = ApiSchema<'NotifyListResponse'>;

export type NotificationListRequest = NotificationQuery & { page: number; page_size: number };

/** POST /adminapi/notify/list */
export function getNotifications(body: NotificationListRequest): Promise<NotificationPage> {
  return post(NOTIFY_LIST_URL, body);
}

export const notificationsQueryOptions = (body: NotificationListRequest) =>
  queryOptions({
    queryKey: ['notifications', body],
    queryFn: () => getNotifications(body),
    placeholderData: keepPreviousData,
  });

export function useNotifications(body: NotificationListRequest) {
  return useQuery(notificationsQueryOptions(body));
}

export type Resent = ApiSchema<'Resent'>;

/** POST /adminapi/notify/resend: one notification, due now. */
export function resendNotification(id: number): Promise<Resent> {
  return post(NOTIFY_RESEND_URL, { id });
}

/** POST /adminapi/notify/resendFailed: every failed or exhausted one written in the range. */
export function resendFailed(range: { from: string; to: string; merchant_id?: number }): Promise<Resent> {
  return post(NOTIFY_RESEND_FAILED_URL, range);
}

/** What one attempt gave (the test notification's answer). */
export type AttemptResult = ApiSchema<'AttemptResult'>;

/** POST /adminapi/notify/test: a test event to the profile's notify URL, sent now. */
export function sendTestNotification(): Promise<AttemptResult> {
  return post(NOTIFY_TEST_URL, {});
}

export const resendMutationOptions = () =>
  mutationOptions({ mutationKey: ['notify-resend'], mutationFn: resendNotification });
export const resendFailedMutationOptions = () =>
  mutationOptions({ mutationKey: ['notify-resend-failed'], mutationFn: resendFailed });
export const testNotificationMutationOptions = () =>
  mutationOptions({ mutationKey: ['notify-test'], mutationFn: sendTestNotification });

/** The three actions of the page; each refreshes the list. */
export function useNotificationActions() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: ['notifications'] });
  return {
    resend: useMutation({ ...resendMutationOptions(), onSuccess: refresh }),
    resendFailed: useMutation({ ...resendFailedMutationOptions(), onSuccess: refresh }),
    test: useMutation({ ...testNotificationMutationOptions(), onSuccess: refresh }),
  };
}
