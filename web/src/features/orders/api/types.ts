import type { OrderKind } from '@/lib/order-labels';

/** One order as the API returns it (money in fen). */
export interface OrderItem {
  id: number;
  merchant_id: number;
  merchant_order_id: string;
  order_no: string;
  system_order_id: string;
  product_key: string;
  product_name: string;
  carrier: string;
  kind: OrderKind;
  account: string;
  face_value_fen: number;
  price_fen: number;
  status: number;
  status_name: string;
  buyback: boolean;
  created_at: string;
  duration_ms: number | null;
  callback_at: string | null;
  finished_at: string | null;
  serial_no: string | null;
  failure_reason: string | null;
  /** The server's code for reasons it gives itself (translated here); null for a person's words. */
  failure_reason_code: string | null;
  has_card: boolean;
  batch_id: number | null;
  remark: string;
}

export interface AccountRecord {
  id: number;
  merchant_id: number;
  account_type: 'balance' | 'credit';
  change_type: string;
  amount_fen: number;
  balance_before_fen: number;
  balance_after_fen: number;
  credit_before_fen: number;
  credit_after_fen: number;
  order_id: number | null;
  order_no: string | null;
  actor_id: number | null;
  actor_name: string;
  remark: string;
  created_at: string;
}

export interface CursorPage<T> {
  list: T[];
  total: number;
  total_capped: boolean;
  next_cursor: string | null;
  page?: number;
  page_size: number;
}
