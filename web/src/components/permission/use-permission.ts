import { admitsRole, type MerchantRole, type RoleRule } from '@/lib/route-meta';
import type { Role } from '@/lib/session';
import { useUserStore } from '@/stores/user-store';

export const NEED_ROLES_MESSAGE = 'need roles! Like v-permission=[admin,user]';

/**
 * The permission rule: an element is removed when its role list is non-empty and lacks
 * the current role. A value that is not an array is a programming error.
 */
export function hasPermission(roles: unknown, role: Role | '', merchantRole: MerchantRole | '' = ''): boolean {
  if (!Array.isArray(roles)) throw new Error(NEED_ROLES_MESSAGE);
  if (roles.length === 0) return true;
  return admitsRole(roles as RoleRule[], role, merchantRole);
}

/**
 * Whether the current user may see something guarded by `roles`: 'admin', 'user' (every
 * merchant user) or a merchant role ('owner', 'finance', 'operator', 'developer', 'viewer').
 */
export function usePermission(roles: readonly RoleRule[]): boolean {
  const role = useUserStore((state) => state.role);
  const merchantRole = useUserStore((state) => state.merchantRole);
  return hasPermission(roles, role, merchantRole);
}
