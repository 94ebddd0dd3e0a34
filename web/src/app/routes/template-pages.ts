/**
 * The template pages' modules, behind the route table's one dynamic import of this
 * file: the login page's entry then carries one loader for all of them, not one each.
 */
import type { ComponentType } from 'react';

type PageModule = { default: ComponentType };

export const TEMPLATE_PAGES: Record<string, () => Promise<PageModule>> = {
  ContentDashboard: () => import('@/features/template-dashboard/components/content-dashboard-page'),
  ServerDashboard: () => import('@/features/template-dashboard/components/server-dashboard-page'),
  DataVisualization: () => import('@/features/template-dashboard/components/data-visualization-page'),
  PolicyList: () => import('@/features/template-lists/components/policy-list-page'),
  TemplateCards: () => import('@/features/template-lists/components/card-list-page'),
  ChannelForm: () => import('@/features/template-form/components/channel-form-page'),
  ParameterDetail: () => import('@/features/template-form/components/parameter-detail-page'),
  Faq: () => import('@/features/template-help/components/faq-page'),
  Documentation: () => import('@/features/template-help/components/documentation-page'),
};
