import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { postJson } from '@/lib/request';

export const PRODUCT_LIST_URL = '/adminapi/product/list';
export const PRODUCT_ADMIN_URLS = {
  create: '/adminapi/admin/product/create',
  update: '/adminapi/admin/product/update',
  delete: '/adminapi/admin/product/delete',
} as const;

export type Carrier = 'mobile' | 'unicom' | 'telecom';
export type ProductKind = 'direct' | 'card';

export interface Product {
  id: number;
  product_key: string;
  name: string;
  business_name: string;
  carrier: Carrier;
  product_kind: ProductKind;
  face_value_fen: number;
  /** 1 on, 0 off (an off product takes no orders). */
  status: number;
}

/** What the create and edit forms send (id only when editing). */
export interface ProductInput {
  id?: number;
  product_key: string;
  name: string;
  carrier: Carrier;
  product_kind: ProductKind;
  face_value_fen: number;
  status: number;
}

/** POST /adminapi/product/list: the whole catalogue (a few dozen products). */
export function getProducts(): Promise<Product[]> {
  return postJson<Product[]>(PRODUCT_LIST_URL, {});
}

export const productsQueryOptions = () => queryOptions({ queryKey: ['products'], queryFn: getProducts });

export function useProducts() {
  return useQuery(productsQueryOptions());
}

/** Create (no id) or edit a product; answers the id. */
export function saveProduct(input: ProductInput): Promise<number | null> {
  return postJson(input.id ? PRODUCT_ADMIN_URLS.update : PRODUCT_ADMIN_URLS.create, input);
}

/** Delete a product nothing refers to (the server refuses one in use: switch it off). */
export function deleteProduct(id: number): Promise<null> {
  return postJson(PRODUCT_ADMIN_URLS.delete, { id });
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
