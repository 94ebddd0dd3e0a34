/**
 * The saved views of a list page, kept on the server (`/adminapi/views/*`): the list kit's
 * own server state, through TanStack Query and the one request client.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiSchema, post } from '@/lib/request';

export type SavedView = ApiSchema<'SavedView'>;
export type SavedViewList = ApiSchema<'SavedViewList'>;

export const savedViewsKey = (page: string) => ['saved-views', page] as const;

export const savedViewsQueryOptions = (page: string) =>
  queryOptions({
    queryKey: savedViewsKey(page),
    // Quiet: a list page works without its views; the menu says when they failed to load.
    queryFn: () => post('/adminapi/views/list', { page }, { quietErrors: true }),
    staleTime: 60_000,
    // The views are an extra of the page: an answer not shaped as expected (an older server)
    // reads as no views, never as a broken list page.
    select: (answer): SavedViewList => ({
      views: Array.isArray(answer?.views) ? answer.views : [],
      default_id: typeof answer?.default_id === 'number' ? answer.default_id : null,
    }),
  });

export function useSavedViews(page: string) {
  return useQuery(savedViewsQueryOptions(page));
}

export interface NewView {
  name: string;
  state: Record<string, unknown>;
  shared: boolean;
  /** Also make it the page's default. */
  makeDefault: boolean;
}

export interface ViewChange {
  id: number;
  name?: string;
  state?: Record<string, unknown>;
  shared?: boolean;
}

/** Create, change, delete and choose the default; each leaves the page's list fresh. */
export function useSavedViewActions(page: string) {
  const client = useQueryClient();
  const key = savedViewsKey(page);
  const refresh = () => client.invalidateQueries({ queryKey: key });
  const setList = (list: SavedViewList) => client.setQueryData(key, list);
  return {
    create: useMutation({
      mutationFn: async ({ makeDefault, ...view }: NewView) => {
        const created = await post('/adminapi/views/create', { page, ...view });
        if (makeDefault) setList(await post('/adminapi/views/default', { page, id: created.id }));
        return created;
      },
      onSettled: refresh,
    }),
    update: useMutation({
      mutationFn: (change: ViewChange) => post('/adminapi/views/update', change),
      onSettled: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: number) => post('/adminapi/views/delete', { id }),
      onSettled: refresh,
    }),
    setDefault: useMutation({
      mutationFn: (id: number | null) => post('/adminapi/views/default', { page, id }),
      onSuccess: setList,
    }),
  };
}
