/**
 * The in-site inbox (message center), read side, shared by the navbar
 * bell, the message center and the user info page. Everything cached here lives under
 * INBOX_QUERY_KEY, so one invalidation (after marking read, or after an event that sends
 * a notice such as a password change) refreshes the badge and every list at once.
 */
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { Locale } from './i18n';
import { queryClient as defaultQueryClient } from './query-client';
import type { ApiSchema } from './api-paths';
import { get, post } from './request';
import { hasToken } from './session';

export const MESSAGE_LIST_URL = '/adminapi/message/list';
export const UNREAD_COUNT_URL = '/adminapi/message/unreadCount';
/** The navbar badge polls this often (ms). */
export const UNREAD_REFRESH_MS = 30_000;

export const MESSAGE_KINDS = ['message', 'notice', 'todo'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** One message as the server sends it: status 0 unread, 1 read; messageType 0–3. */
export type InboxMessage = ApiSchema<'MessageItem'>;

/** A message's link when it is a route of this console (never another site). */
export function consoleLink(link: string | null | undefined): string | null {
  return link && link.startsWith('/') && !link.startsWith('//') && !link.includes('\\') ? link : null;
}

export type UnreadCounts = ApiSchema<'UnreadCounts'>;

export const INBOX_QUERY_KEY = ['inbox'] as const;
export const UNREAD_COUNT_QUERY_KEY = [...INBOX_QUERY_KEY, 'unread-count'] as const;

export function isMessageKind(value: unknown): value is MessageKind {
  return typeof value === 'string' && (MESSAGE_KINDS as readonly string[]).includes(value);
}

/** GET /adminapi/message/unreadCount. */
export function getUnreadCount(): Promise<UnreadCounts> {
  return get(UNREAD_COUNT_URL);
}

export const unreadCountQueryOptions = () =>
  queryOptions({
    queryKey: UNREAD_COUNT_QUERY_KEY,
    queryFn: getUnreadCount,
    refetchInterval: UNREAD_REFRESH_MS,
  });

/**
 * The unread counts, refetched every 30 s and whenever the inbox is invalidated. Only with
 * a session: logging out empties the cache while the navbar is still mounted, and a refetch
 * then would only earn a 'not logged in' toast.
 */
export function useUnreadCount() {
  return useQuery({ ...unreadCountQueryOptions(), enabled: hasToken() });
}

/** POST /adminapi/message/list {type?}: newest first; no type means all three tabs. */
export function getMessages(type?: MessageKind): Promise<InboxMessage[]> {
  return post(MESSAGE_LIST_URL, type ? { type } : {});
}

export const messagesQueryOptions = (type?: MessageKind) =>
  queryOptions({
    queryKey: [...INBOX_QUERY_KEY, 'list', type ?? 'all'] as const,
    queryFn: () => getMessages(type),
  });

export function useMessages(type?: MessageKind, options: { enabled?: boolean } = {}) {
  return useQuery({ ...messagesQueryOptions(type), enabled: (options.enabled ?? true) && hasToken() });
}

/** Refetch the badge and every message list (mounted ones now, the others when next shown). */
export function invalidateInbox(client: QueryClient = defaultQueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: INBOX_QUERY_KEY });
}

/** Take fresh counts from an answer that carries them (read / readAll) without a round trip. */
export function setUnreadCounts(counts: UnreadCounts, client: QueryClient = defaultQueryClient): void {
  client.setQueryData(UNREAD_COUNT_QUERY_KEY, counts);
}

/**
 * Server events write both languages into one text, zh first: '密码已修改 / Password changed'.
 * Show the console language's half; any other text is shown as it is.
 */
export function localizedText(text: string, locale: Locale): string {
  const parts = text.split(' / ');
  if (parts.length !== 2 || !parts[0].trim() || !parts[1].trim()) return text;
  return (locale === 'en-US' ? parts[1] : parts[0]).trim();
}
