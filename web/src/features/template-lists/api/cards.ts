import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/request';

/** §3 quality-inspection item; data labels: pendingInspection, backlogHours, pendingSampling. */
export interface QualityInspection {
  id: number;
  name: string;
  title: string;
  description: string;
  data: { label: string; value: number }[];
}

/** §3 service item. */
export interface ServiceItem {
  id: number;
  icon: string;
  title: string;
  description: string;
  enable: boolean;
  actionType: 'button';
  expires?: string;
}

/** §3 rule preset. */
export interface RulePreset {
  id: number;
  title: string;
  description: string;
  enable: boolean;
  actionType: 'switch';
}

export const getQualityInspection = () => getJson<QualityInspection[]>('/api/template/quality-inspection/list');
export const getServices = () => getJson<ServiceItem[]>('/api/template/the-service/list');
export const getRulePresets = () => getJson<RulePreset[]>('/api/template/rules-preset/list');

export const useQualityInspection = () =>
  useQuery(queryOptions({ queryKey: ['template', 'quality-inspection'], queryFn: getQualityInspection }));
export const useServices = () =>
  useQuery(queryOptions({ queryKey: ['template', 'the-service'], queryFn: getServices }));
export const useRulePresets = () =>
  useQuery(queryOptions({ queryKey: ['template', 'rules-preset'], queryFn: getRulePresets }));
