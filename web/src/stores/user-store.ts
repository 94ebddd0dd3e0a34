/** The signed-in user's profile and role (not persisted: fetched per page load by the guard). */
import { create } from 'zustand';
import type { Role } from '@/lib/session';

export interface UserInfo {
  name: string;
  avatar: string;
  job: string;
  organization: string;
  location: string;
  email: string;
  introduction: string;
  personalWebsite: string;
  jobName: string;
  organizationName: string;
  locationName: string;
  phone: string;
  registrationDate: string;
  accountId: string;
  certification: number;
  role: Role | '';
  username: string;
  mid: number | null;
}

export interface UserState {
  info: Partial<UserInfo>;
  /** Empty until user info is loaded; the local role switcher may change it. */
  role: Role | '';
  setUserInfo: (info: Partial<UserInfo>) => void;
  /** Toggle admin ↔ user: changes only what the console shows; the server still enforces. */
  switchRole: () => Role;
  resetUser: () => void;
}

export const useUserStore = create<UserState>()((set, get) => ({
  info: {},
  role: '',
  setUserInfo: (info) => set({ info: { ...get().info, ...info }, role: info.role ?? get().role }),
  switchRole: () => {
    const next: Role = get().role === 'admin' ? 'user' : 'admin';
    set({ role: next });
    return next;
  },
  resetUser: () => set({ info: {}, role: '' }),
}));

/** The name a greeting should use. */
export function displayName(info: Partial<UserInfo>): string {
  return info.name || info.username || '';
}
