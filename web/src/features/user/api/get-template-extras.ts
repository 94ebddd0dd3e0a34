/**
 * The user-info page's template extras (§3 project, team, visits, activity), served only
 * when the server runs with template pages (see lib/system-info).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/request';

export interface Contributor {
  name: string;
  email: string;
  avatar: string;
}

export interface Project {
  id: number;
  name: string;
  description: string;
  peopleNumber: number;
  contributors: Contributor[];
}

export interface Team {
  id: number;
  avatar: string;
  name: string;
  peopleNumber: number;
}

export interface Visits {
  name: string;
  visits: number;
  growth: number;
}

export interface Activity {
  id: number;
  title: string;
  description: string;
  avatar: string;
}

const extra = <T>(path: string, enabled: boolean) =>
  queryOptions({
    queryKey: ['template', 'user', path],
    queryFn: () => getJson<T>(`/api/template/user/${path}`),
    enabled,
  });

export const useTemplateProjects = (enabled: boolean) => useQuery(extra<Project[]>('my-project/list', enabled));
export const useTemplateTeams = (enabled: boolean) => useQuery(extra<Team[]>('my-team/list', enabled));
export const useTemplateVisits = (enabled: boolean) => useQuery(extra<Visits[]>('visits', enabled));
export const useTemplateActivity = (enabled: boolean) => useQuery(extra<Activity[]>('latest-activity', enabled));
