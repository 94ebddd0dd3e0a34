/** The signed-in user's profile and role (not persisted: fetched per page load by the guard). */
import { create } from 'zustand';
import type { ApiSchema } from '@/lib/request';
import type { MerchantRole } from '@/lib/route-meta';
import type { Role } from '@/lib/session';

/** The profile as userInfo (and sign-in) answers it. */
export type UserInfo = ApiSchema<'UserInfo'>;

/** sessionStorage key of an administrator's merchant-view preview: it survives a reload, not a sign-out. */
export const ROLE_PREVIEW_KEY = 'role-preview';

function storedPreview(): boolean {
  try {
    return sessionStorage.getItem(ROLE_PREVIEW_KEY) === 'user';
  } catch {
    return false;
  }
}

export interface UserState {
  info: Partial<UserInfo>;
  /**
   * The role the console shows: empty until user info is loaded; the server's role, or
   * 'user' while an administrator previews the merchant view.
   */
  role: Role | '';
  /**
   * A merchant user's role (what the server lets it call, identity/permissions.rs); an
   * administrator previewing the merchant view is shown an owner's; '' otherwise.
   */
  merchantRole: MerchantRole | '';
  /** An administrator is previewing the merchant view (the local role switcher). */
  previewing: boolean;
  setUserInfo: (info: Partial<UserInfo>) => void;
  /**
   * The local role switcher, for administrators only (the server never grants a merchant
   * more): toggles the merchant-view preview and returns the role now shown. For anyone
   * else it changes nothing.
   */
  switchRole: () => Role | '';
  resetUser: () => void;
}

/** The merchant role to show: the server's, or an owner's for an administrator's preview. */
function shownMerchantRole(info: Partial<UserInfo>, previewing: boolean): MerchantRole | '' {
  if (info.role === 'admin') return previewing ? 'owner' : '';
  return info.merchantRole ?? '';
}

/** The role to show for the server's role and the preview flag. */
function shownRole(serverRole: Role | '' | undefined, previewing: boolean): Role | '' {
  if (!serverRole) return '';
  return serverRole === 'admin' && previewing ? 'user' : serverRole;
}

export const useUserStore = create<UserState>()((set, get) => ({
  info: {},
  role: '',
  merchantRole: '',
  previewing: storedPreview(),
  setUserInfo: (info) => {
    const merged = { ...get().info, ...info };
    // A preview is only ever an administrator's.
    const previewing = get().previewing && merged.role === 'admin';
    set({
      info: merged,
      previewing,
      role: shownRole(merged.role, previewing) || (info.role ?? get().role),
      merchantRole: shownMerchantRole(merged, previewing),
    });
  },
  switchRole: () => {
    const { info, previewing } = get();
    if (info.role !== 'admin') return get().role;
    const next = !previewing;
    if (next) sessionStorage.setItem(ROLE_PREVIEW_KEY, 'user');
    else sessionStorage.removeItem(ROLE_PREVIEW_KEY);
    const role = shownRole(info.role, next);
    set({ previewing: next, role, merchantRole: shownMerchantRole(info, next) });
    return role;
  },
  resetUser: () => {
    sessionStorage.removeItem(ROLE_PREVIEW_KEY);
    set({ info: {}, role: '', merchantRole: '', previewing: false });
  },
}));

/** The name a greeting should use. */
/**
 * The words for a role: a merchant user's own role beside the account kind (商户 · 财务),
 * else the kind alone (管理员, or 商户 before the role is known).
 */
export function roleLabel(
  t: (key: string, options?: Record<string, string>) => string,
  role: Role | '',
  merchantRole: MerchantRole | '',
): string {
  if (!role) return '-';
  if (role === 'user' && merchantRole) return t('role.userAs', { role: t(`role.merchant.${merchantRole}`) });
  return t(`role.${role}`);
}

export function displayName(info: Partial<Pick<UserInfo, 'name' | 'username'>>): string {
  return info.name || info.username || '';
}
