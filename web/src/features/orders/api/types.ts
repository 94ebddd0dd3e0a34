import type { ApiSchema } from '@/lib/request';

/** One order as the API returns it (money in fen). */
export type OrderItem = ApiSchema<'OrderItem'>;

export type AccountRecord = ApiSchema<'AccountRecord'>;

/** A page of orders (`page` only on the page-numbered walk, `next_cursor` on the cursor walk). */
export type OrderPage = ApiSchema<'OrderListResponse'>;
