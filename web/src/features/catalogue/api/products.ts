import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiSchema, post } from '@/lib/request';

export const PRODUCT_LIST_URL = '/adminapi/product/list';
export const PRODUCT_ADMIN_URLS = {
  create: '/adminapi/admin/product/create',
  update: '/adminapi/admin/product/update',
  delete: '/adminapi/admin/product/delete',
} as const;

/** The carriers the catalogue's forms offer. */
export type Carrier = 'mobile' | 'unicom' | 'telecom';
export type ProductKind = 'direct' | 'card';

export type Product = ApiSchema<'Product'>;

/** What the create and edit forms send (id only when editing). */
export type ProductInput = ApiSchema<'ProductRequest'>;

/** POST /adminapi/product/list: the whole catalogue (a few dozen products). */
export function getProducts(): Promise<Product[]> {
  return post(PRODUCT_LIST_URL, {});
}

export const productsQueryOptions = () => queryOptions({ queryKey: ['products'], queryFn: getProducts });

export function useProducts() {
  return useQuery(productsQueryOptions());
}

/** Create (no id) or edit a product; answers the id. */
export function saveProduct(input: ProductInput): Promise<number | null> {
  return post(input.id ? PRODUCT_ADMIN_URLS.update : PRODUCT_ADMIN_URLS.create, input);
}

/** Delete a product nothing refers to (the server refuses one in use: switch it off). */
export function deleteProduct(id: number): Promise<null> {
  return post(PRODUCT_ADMIN_URLS.delete, { id });
}

/** Catalogue changes refresh the catalogue and the quote lists that show its names. */
export function useProductAdmin<TRequest, TResult>(call: (request: TRequest) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['products'] });
      void client.invalidateQueries({ queryKey: ['quotes'] });
    },
  });
}
