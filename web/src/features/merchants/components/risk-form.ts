import { formatFen, parseYuanToFen } from '@/lib/money';
import type { MerchantRisk, SaveMerchantRisk } from '../api/merchants';

/** The risk dialog's fields: amounts typed in yuan, the count as typed. */
export interface RiskFormValues {
  single_flight: boolean;
  number_daily_orders: string;
  number_daily_yuan: string;
  daily_cap_yuan: string;
}

/** The form's starting values from the saved settings (0 shown as 0: no limit). */
export function riskFormValues(risk: MerchantRisk): RiskFormValues {
  return {
    single_flight: risk.single_flight,
    number_daily_orders: String(risk.number_daily_orders),
    number_daily_yuan: formatFen(risk.number_daily_fen, { grouping: false }),
    daily_cap_yuan: formatFen(risk.daily_cap_fen, { grouping: false }),
  };
}

/** A whole number of at least 0 ("" is 0), or null. */
export function parseCount(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  if (!/^\d{1,9}$/.test(trimmed)) return null;
  return Number(trimmed);
}

/** Yuan of at least 0 as fen ("" is 0: no limit), or null. */
export function parseLimitYuan(text: string): number | null {
  return text.trim() === '' ? 0 : parseYuanToFen(text);
}

/** The request the form's values make, or null while one is not valid. */
export function riskBody(merchantId: number, values: RiskFormValues): SaveMerchantRisk | null {
  const orders = parseCount(values.number_daily_orders);
  const numberFen = parseLimitYuan(values.number_daily_yuan);
  const capFen = parseLimitYuan(values.daily_cap_yuan);
  if (orders === null || numberFen === null || capFen === null) return null;
  return {
    merchant_id: merchantId,
    single_flight: values.single_flight,
    number_daily_orders: orders,
    number_daily_fen: numberFen,
    daily_cap_fen: capFen,
  };
}
