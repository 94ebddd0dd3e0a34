/**
 * The administrators' channel API (docs/channels.md): list with live figures, create/edit,
 * enable/disable, test connection, product costs and the routing preview. Shapes come from
 * the server's OpenAPI document; every body is checked against it (`satisfies PostBody`).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { downloadFile } from '@/lib/download';
import { type ApiSchema, type PostBody, post, postForm } from '@/lib/request';

export const CHANNEL_URLS = {
  list: '/adminapi/admin/channel/list',
  save: '/adminapi/admin/channel/save',
  enable: '/adminapi/admin/channel/enable',
  test: '/adminapi/admin/channel/test',
  products: '/adminapi/admin/channel/products',
  saveProducts: '/adminapi/admin/channel/products/save',
  routing: '/adminapi/admin/channel/routing',
  importCoverage: '/adminapi/admin/channel/coverage/import',
  exportCoverage: '/adminapi/admin/channel/coverage/export',
} as const;
/** The catalogue (names and face values of the products a channel may supply). */
export const CATALOGUE_URL = '/adminapi/product/list';

/** The list's figures move with every order: read again this often. */
export const CHANNELS_REFRESH_MS = 5000;

export type Channel = ApiSchema<'ChannelItem'>;
export type ChannelFigures = ApiSchema<'ChannelFigures'>;
export type SaveChannelRequest = PostBody<typeof CHANNEL_URLS.save>;
export type TestResult = ApiSchema<'TestResult'>;
export type Supply = ApiSchema<'SupplyItem'>;
export type RouteItem = ApiSchema<'RouteItem'>;
export type Exclusion = ApiSchema<'Exclusion'>;

/** What the supplies drawer shows of a catalogue product. */
export type CatalogueProduct = Pick<ApiSchema<'Product'>, 'id' | 'product_key' | 'name' | 'face_value_fen' | 'status'>;

export function getChannels(): Promise<Channel[]> {
  return post(CHANNEL_URLS.list, {});
}

export const channelsQueryOptions = () =>
  queryOptions({ queryKey: ['channels', 'list'], queryFn: getChannels, refetchInterval: CHANNELS_REFRESH_MS });

export function useChannels() {
  return useQuery(channelsQueryOptions());
}

export function getCatalogue(): Promise<CatalogueProduct[]> {
  return post(CATALOGUE_URL, {});
}

export const catalogueQueryOptions = () =>
  queryOptions({ queryKey: ['channels', 'catalogue'], queryFn: getCatalogue, staleTime: 60_000 });

export function useCatalogue() {
  return useQuery(catalogueQueryOptions());
}

export function getSupplies(channelId: number): Promise<Supply[]> {
  return post(CHANNEL_URLS.products, { id: channelId } satisfies PostBody<typeof CHANNEL_URLS.products>);
}

export const suppliesQueryOptions = (channelId: number) =>
  queryOptions({ queryKey: ['channels', 'supplies', channelId], queryFn: () => getSupplies(channelId) });

export function useSupplies(channelId: number | null) {
  return useQuery({ ...suppliesQueryOptions(channelId ?? 0), enabled: channelId !== null });
}

/** Whom the preview is for: a province, or a number (its segment's province); neither: coverage unchecked. */
export interface RoutingFor {
  merchantId?: number;
  province?: number;
  account?: string;
}

/** With a merchant, each channel's cost is set against that merchant's price for the product. */
export function getRouting(productKey: string, { merchantId, province, account }: RoutingFor = {}): Promise<RouteItem[]> {
  const body = {
    product_key: productKey,
    ...(merchantId ? { merchant_id: merchantId } : {}),
    ...(province ? { province } : {}),
    ...(account && !province ? { account } : {}),
  } satisfies PostBody<typeof CHANNEL_URLS.routing>;
  return post(CHANNEL_URLS.routing, body);
}

export const routingQueryOptions = (productKey: string, asked: RoutingFor = {}) =>
  queryOptions({
    queryKey: ['channels', 'routing', productKey, asked.merchantId ?? null, asked.province ?? null, asked.account ?? null],
    queryFn: () => getRouting(productKey, asked),
    refetchInterval: CHANNELS_REFRESH_MS,
  });

export function useRouting(productKey: string | null, asked: RoutingFor = {}) {
  return useQuery({ ...routingQueryOptions(productKey ?? '', asked), enabled: Boolean(productKey) });
}

/** Imports a channel's coverage file (the export's columns): all lines or none. */
export function importCoverage(input: { channelId: number; file: File }): Promise<{ lines: number }> {
  const form = new FormData();
  form.append('file', input.file, input.file.name);
  return postForm(CHANNEL_URLS.importCoverage, form, { params: { id: input.channelId } });
}

/** Downloads a channel's coverage as CSV, in the layout the import reads. */
export function exportCoverage(channel: Pick<Channel, 'id' | 'code'>): Promise<void> {
  return downloadFile(CHANNEL_URLS.exportCoverage, { id: channel.id }, `coverage-${channel.code}.csv`);
}

/** Create a channel, or edit the one with this code; answers its id. */
export function saveChannel(body: SaveChannelRequest): Promise<{ id: number }> {
  return post(CHANNEL_URLS.save, body);
}

export function enableChannel(body: PostBody<typeof CHANNEL_URLS.enable>): Promise<null> {
  return post(CHANNEL_URLS.enable, body);
}

/** A signed balance read, timed by the server. */
export function testChannel(channelId: number): Promise<TestResult> {
  return post(CHANNEL_URLS.test, { id: channelId } satisfies PostBody<typeof CHANNEL_URLS.test>);
}

export function saveSupplies(body: PostBody<typeof CHANNEL_URLS.saveProducts>): Promise<null> {
  return post(CHANNEL_URLS.saveProducts, body);
}

/** Any change to channels refreshes the list, the supplies and the routing preview. */
export function useChannelChange<TRequest, TResult>(call: (request: TRequest) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => void client.invalidateQueries({ queryKey: ['channels'] }),
  });
}

/** Test connection changes nothing: no refresh. */
export function useChannelTest() {
  return useMutation({ mutationFn: testChannel });
}
