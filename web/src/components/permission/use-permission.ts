import type { RoleRule } from '@/lib/route-meta';
import type { Role } from '@/lib/session';
import { useUserStore } from '@/stores/user-store';

export const NEED_ROLES_MESSAGE = 'need roles! Like v-permission=[admin,user]';

/**
 * The permission rule: an element is removed when its role list is non-empty and lacks
 * the current role. A value that is not an array is a programming error.
 */
export function hasPermission(roles: unknown, role: Role | ''): boolean {
  if (!Array.isArray(roles)) throw new Error(NEED_ROLES_MESSAGE);
  if (roles.length === 0) return true;
  return (roles as RoleRule[]).includes('*') || (role !== '' && (roles as RoleRule[]).includes(role));
}

/** Whether the current user's role may see something guarded by `roles`. */
export function usePermission(roles: readonly RoleRule[]): boolean {
  const role = useUserStore((state) => state.role);
  return hasPermission(roles, role);
}
