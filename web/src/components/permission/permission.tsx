import type { ReactNode } from 'react';
import type { RoleRule } from '@/lib/route-meta';
import { usePermission } from './use-permission';

export interface PermissionProps {
  /** Roles allowed to see the children; an empty list allows everyone. */
  roles: readonly RoleRule[];
  children: ReactNode;
}

/** Renders its children only for the listed roles (the React form of v-permission). */
export function Permission({ roles, children }: PermissionProps) {
  const allowed = usePermission(roles);
  return allowed ? <>{children}</> : null;
}
