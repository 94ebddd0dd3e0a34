import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiSchema, get } from '@/lib/request';

/** A quality-inspection card; data labels: pendingInspection, backlogHours, pendingSampling. */
export type QualityInspection = ApiSchema<'QualityInspection'>;

export type ServiceItem = ApiSchema<'ServiceItem'>;

export type RulePreset = ApiSchema<'RulePreset'>;

export const getQualityInspection = () => get('/api/template/quality-inspection/list');
export const getServices = () => get('/api/template/the-service/list');
export const getRulePresets = () => get('/api/template/rules-preset/list');

export const useQualityInspection = () =>
  useQuery(queryOptions({ queryKey: ['template', 'quality-inspection'], queryFn: getQualityInspection }));
export const useServices = () =>
  useQuery(queryOptions({ queryKey: ['template', 'the-service'], queryFn: getServices }));
export const useRulePresets = () =>
  useQuery(queryOptions({ queryKey: ['template', 'rules-preset'], queryFn: getRulePresets }));
