/**
 * Maintenance windows (维护窗口, docs/api.md "Maintenance windows", docs/channels.md): a
 * carrier, a carrier in one province, or a channel takes no top-ups for a while, once or
 * recurring in Beijing time. Administrators list, create, edit and delete them.
 */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiSchema, post } from '@/lib/request';

export const WINDOWS_LIST_URL = '/adminapi/admin/windows/list';
export const WINDOWS_CREATE_URL = '/adminapi/admin/windows/create';
export const WINDOWS_UPDATE_URL = '/adminapi/admin/windows/update';
export const WINDOWS_DELETE_URL = '/adminapi/admin/windows/delete';
export const CHANNEL_LIST_URL = '/adminapi/admin/channel/list';

export type MaintenanceWindow = ApiSchema<'MaintenanceWindow'>;
export type WindowForm = ApiSchema<'WindowForm'>;

const WINDOWS_KEY = ['maintenance-windows'] as const;

export const windowsQueryOptions = (page: number, pageSize: number) =>
  queryOptions({
    queryKey: [...WINDOWS_KEY, page, pageSize],
    queryFn: () => post(WINDOWS_LIST_URL, { page, page_size: pageSize }),
    placeholderData: keepPreviousData,
  });

/** The channels a window may close: (id, name) for the form's choice. */
export function useChannelChoices(enabled: boolean) {
  return useQuery({
    queryKey: ['maintenance-windows-channels'],
    queryFn: () => post(CHANNEL_LIST_URL, {}),
    enabled,
  });
}

export function saveWindow(request: { id?: number; form: WindowForm }): Promise<MaintenanceWindow> {
  return request.id === undefined
    ? post(WINDOWS_CREATE_URL, request.form)
    : post(WINDOWS_UPDATE_URL, { ...request.form, id: request.id });
}

export function deleteWindow(id: number): Promise<null> {
  return post(WINDOWS_DELETE_URL, { id });
}

/** A change refreshes the list. */
export function useWindowChange<TRequest, TResult>(call: (request: TRequest) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => void client.invalidateQueries({ queryKey: WINDOWS_KEY }),
  });
}
