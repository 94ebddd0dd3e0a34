import { useQuery } from '@tanstack/react-query';
import { type ApiSchema, post } from '@/lib/request';

export const OWN_RISK_URL = '/adminapi/merchant/risk';

/** The merchant's own risk controls, read-only (administrators set them). */
export type OwnRiskLimits = ApiSchema<'RiskLimitsView'>;

export function getOwnRiskLimits(): Promise<OwnRiskLimits> {
  return post(OWN_RISK_URL);
}

export function useOwnRiskLimits(enabled: boolean) {
  return useQuery({ queryKey: ['own-risk-limits'], queryFn: getOwnRiskLimits, enabled });
}
