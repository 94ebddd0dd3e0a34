/**
 * The user-info page's template extras (project, team, visits, activity), served only
 * when the server runs with template pages (see lib/system-info).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AnsweredGetPath } from '@/lib/api-paths';
import { type ApiSchema, get } from '@/lib/request';

export type Contributor = ApiSchema<'Contributor'>;
export type Project = ApiSchema<'Project'>;
export type Team = ApiSchema<'Team'>;
export type Visits = ApiSchema<'Visits'>;
export type Activity = ApiSchema<'Activity'>;

const TEMPLATE_USER_PREFIX = '/api/template/user/';
type TemplateUserPath = Extract<AnsweredGetPath, `${typeof TEMPLATE_USER_PREFIX}${string}`>;

const extra = <P extends TemplateUserPath>(path: P, enabled: boolean) =>
  queryOptions({
    queryKey: ['template', 'user', path.slice(TEMPLATE_USER_PREFIX.length)],
    queryFn: () => get(path),
    enabled,
  });

export const useTemplateProjects = (enabled: boolean) => useQuery(extra('/api/template/user/my-project/list', enabled));
export const useTemplateTeams = (enabled: boolean) => useQuery(extra('/api/template/user/my-team/list', enabled));
export const useTemplateVisits = (enabled: boolean) => useQuery(extra('/api/template/user/visits', enabled));
export const useTemplateActivity = (enabled: boolean) => useQuery(extra('/api/template/user/latest-activity', enabled));
