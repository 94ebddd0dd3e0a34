/**
 * Marking messages read (status 0 becomes 1): POST /adminapi/message/read {ids}
 * and /adminapi/message/readAll {type?}. Both answer with the new unread counts, which go
 * straight into the badge's cache; the lists are refetched.
 */
import { mutationOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { invalidateInbox, setUnreadCounts, unreadCountQueryOptions, type MessageKind } from '@/lib/inbox';
import { type ApiSchema, post } from '@/lib/request';

export const MARK_READ_URL = '/adminapi/message/read';
export const MARK_ALL_READ_URL = '/adminapi/message/readAll';

/** How many went from unread to read, and the unread counts now. */
export type MarkReadResult = ApiSchema<'MarkReadResult'>;

export function markMessagesRead(ids: number[]): Promise<MarkReadResult> {
  return post(MARK_READ_URL, { ids });
}

export function markAllMessagesRead(type?: MessageKind): Promise<MarkReadResult> {
  return post(MARK_ALL_READ_URL, type ? { type } : {});
}

export const markReadMutationOptions = () =>
  mutationOptions({ mutationKey: ['inbox', 'read'], mutationFn: markMessagesRead });

export const markAllReadMutationOptions = () =>
  mutationOptions({ mutationKey: ['inbox', 'read-all'], mutationFn: markAllMessagesRead });

async function refreshInbox(client: QueryClient, result: MarkReadResult): Promise<void> {
  // A count fetched before the marking must not land after (and over) the newer answer.
  await client.cancelQueries({ queryKey: unreadCountQueryOptions().queryKey });
  setUnreadCounts(result.unread, client);
  return invalidateInbox(client);
}

export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({ ...markReadMutationOptions(), onSuccess: (result) => refreshInbox(client, result) });
}

export function useMarkAllRead() {
  const client = useQueryClient();
  return useMutation({ ...markAllReadMutationOptions(), onSuccess: (result) => refreshInbox(client, result) });
}
