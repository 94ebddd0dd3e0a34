/** Turns a route tree (local table or server menu) into the entries a role may see. */
import { isRouteAllowed, type MenuRoute, type MerchantRole } from '@/lib/route-meta';
import type { Role } from '@/lib/session';

export interface MenuEntry {
  /** Absolute path (or external URL); also the antd menu key. */
  key: string;
  name: string;
  /** i18n key of the label (may be missing from the server menu). */
  labelKey?: string;
  icon?: string;
  external: boolean;
  children?: MenuEntry[];
}

const isExternal = (path: string) => /^https?:\/\//.test(path);

function joinPath(parent: string, child: string): string {
  if (child.startsWith('/') || isExternal(child)) return child;
  return `${parent.replace(/\/+$/, '')}/${child}`;
}

export function buildMenuEntries(
  routes: MenuRoute[],
  role: Role | '',
  parentPath = '',
  merchantRole: MerchantRole | '' = '',
): MenuEntry[] {
  return [...routes]
    .filter((route) => !route.meta?.hideInMenu && isRouteAllowed(route.meta, role, merchantRole))
    .sort((a, b) => (a.meta?.order ?? Number.MAX_SAFE_INTEGER) - (b.meta?.order ?? Number.MAX_SAFE_INTEGER))
    .map<MenuEntry | null>((route) => {
      const key = parentPath ? joinPath(parentPath, route.path) : route.path;
      const entry: MenuEntry = {
        key,
        name: route.name,
        labelKey: route.meta?.locale,
        icon: route.meta?.icon,
        external: isExternal(key),
      };
      if (route.children?.length) {
        const children = buildMenuEntries(route.children, role, key, merchantRole);
        if (children.length === 0) return null;
        entry.children = children;
      }
      return entry;
    })
    .filter((entry): entry is MenuEntry => entry !== null);
}

/** All leaf entries, depth first (for search). */
export function menuLeaves(entries: MenuEntry[]): MenuEntry[] {
  return entries.flatMap((entry) => (entry.children ? menuLeaves(entry.children) : [entry]));
}

/** Keys of the groups containing a path (the submenus to open). */
export function openKeysFor(entries: MenuEntry[], path: string): string[] {
  for (const entry of entries) {
    if (entry.children) {
      if (menuLeaves(entry.children).some((leaf) => leaf.key === path)) {
        return [entry.key, ...openKeysFor(entry.children, path)];
      }
    }
  }
  return [];
}
