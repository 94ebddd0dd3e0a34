/**
 * Real platform figures for the data-visualization page, read through the order list and
 * the finance overview the product already has (totals per filter, the latest orders).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { post } from '@/lib/request';

export const CARRIERS = ['mobile', 'unicom', 'telecom'] as const;
export const FACE_VALUES_FEN = [1000, 2000, 3000, 5000, 10000, 20000] as const;
/** How many of the latest orders the hour chart reads (the list's largest page). */
export const LATEST_ORDERS = 500;

const countOrders = async (filter: Record<string, unknown>) =>
  (await post('/adminapi/order/list', { kind: 'all', ...filter, page: 1, page_size: 1 })).total;

export async function getCarrierCounts(): Promise<{ carrier: string; count: number }[]> {
  const counts = await Promise.all(CARRIERS.map((carrier) => countOrders({ carrier })));
  return CARRIERS.map((carrier, index) => ({ carrier, count: counts[index] }));
}

export async function getFaceValueCounts(): Promise<{ faceValueFen: number; count: number }[]> {
  const counts = await Promise.all(FACE_VALUES_FEN.map((fen) => countOrders({ face_value_fen: fen })));
  return FACE_VALUES_FEN.map((faceValueFen, index) => ({ faceValueFen, count: counts[index] }));
}

/** Orders per hour of day (browser time) among the latest orders. */
export async function getHourCounts(): Promise<{ hours: number[]; sample: number }> {
  const page = await post('/adminapi/order/list', { kind: 'all', page: 1, page_size: LATEST_ORDERS });
  return { hours: countByHour(page.list.map((order) => order.created_at)), sample: page.list.length };
}

export function countByHour(times: string[]): number[] {
  const hours = Array.from({ length: 24 }, () => 0);
  for (const time of times) {
    const date = new Date(time);
    if (!Number.isNaN(date.getTime())) hours[date.getHours()] += 1;
  }
  return hours;
}

export const getOverviewDays = async () => (await post('/adminapi/finance/overview', { days: 7 })).days;

export const useCarrierCounts = () =>
  useQuery(queryOptions({ queryKey: ['template', 'viz', 'carrier'], queryFn: getCarrierCounts }));
export const useFaceValueCounts = () =>
  useQuery(queryOptions({ queryKey: ['template', 'viz', 'face-value'], queryFn: getFaceValueCounts }));
export const useHourCounts = () =>
  useQuery(queryOptions({ queryKey: ['template', 'viz', 'hour'], queryFn: getHourCounts }));
export const useOverviewDays = () =>
  useQuery(queryOptions({ queryKey: ['template', 'viz', 'days'], queryFn: getOverviewDays }));
