import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { type ApiSchema, get } from '@/lib/request';

/** One content data point: x is a day (YYYY-MM-DD), y a count. */
export type ContentPoint = ApiSchema<'ContentPoint'>;

export type PopularType = 'text' | 'image' | 'video';
export const POPULAR_TYPES: PopularType[] = ['text', 'image', 'video'];

/** One popular item; increases is the day-on-day change in percent. */
export type PopularItem = ApiSchema<'PopularItem'>;

/** One chat message. */
export type ChatItem = ApiSchema<'ChatItem'>;

export const getContentData = () => get('/api/template/content-data');
export const getPopular = (type: PopularType) => get('/api/template/popular/list', { type });
export const getChat = () => get('/api/template/chat/list');

export const contentDataQueryOptions = () =>
  queryOptions({ queryKey: ['template', 'content-data'], queryFn: getContentData });
export const popularQueryOptions = (type: PopularType) =>
  queryOptions({ queryKey: ['template', 'popular', type], queryFn: () => getPopular(type) });
export const chatQueryOptions = () => queryOptions({ queryKey: ['template', 'chat'], queryFn: getChat });

export const useContentData = () => useQuery(contentDataQueryOptions());
export const usePopular = (type: PopularType) => useQuery(popularQueryOptions(type));
export const useChat = () => useQuery(chatQueryOptions());

/** Clicks of every type's popular items together (undefined until all three are in). */
export function usePopularClicks(): number | undefined {
  return useQueries({
    queries: POPULAR_TYPES.map((type) => popularQueryOptions(type)),
    combine: (results) =>
      results.every((result) => result.data)
        ? results.reduce(
            (sum, result) => sum + (result.data ?? []).reduce((total, item) => total + item.clickNumber, 0),
            0,
          )
        : undefined,
  });
}
