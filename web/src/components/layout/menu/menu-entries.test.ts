import { describe, expect, it } from 'vitest';
import type { MenuRoute } from '@/lib/route-meta';
import { buildMenuEntries, menuLeaves, openKeysFor } from './menu-entries';

const tree: MenuRoute[] = [
  {
    path: '/order',
    name: 'order',
    meta: { order: 3, requiresAuth: true, roles: ['*'] },
    children: [{ path: 'list', name: 'OrderList', meta: { requiresAuth: true, roles: ['*'] } }],
  },
  {
    path: '/dashboard',
    name: 'dashboard',
    meta: { order: 1, requiresAuth: true, roles: ['*'], icon: 'icon-dashboard', locale: 'menu.dashboard' },
    children: [
      { path: 'workplace', name: 'Workplace', meta: { requiresAuth: true, roles: ['*'] } },
      { path: 'monitor', name: 'Monitor', meta: { requiresAuth: true, roles: ['admin'] } },
    ],
  },
  {
    path: '/admin',
    name: 'admin',
    meta: { order: 2, requiresAuth: true, roles: ['*'] },
    children: [{ path: 'only', name: 'AdminOnly', meta: { requiresAuth: true, roles: ['admin'] } }],
  },
  { path: '/redirect', name: 'Redirect', meta: { hideInMenu: true } },
  { path: 'https://arco.design', name: 'arcoWebsite', meta: { order: 9 } },
];

describe('menu entries', () => {
  it('orders groups, joins child paths and filters by role', () => {
    const entries = buildMenuEntries(tree, 'user');
    expect(entries.map((entry) => entry.name)).toEqual(['dashboard', 'order', 'arcoWebsite']);
    expect(entries[0].children?.map((child) => [child.name, child.key])).toEqual([
      ['Workplace', '/dashboard/workplace'],
    ]);
    expect(entries[0]).toMatchObject({ icon: 'icon-dashboard', labelKey: 'menu.dashboard' });
    expect(entries[2]).toMatchObject({ external: true, key: 'https://arco.design' });
  });

  it('shows admin-only pages to admins and drops groups left empty', () => {
    const admin = buildMenuEntries(tree, 'admin');
    expect(admin.map((entry) => entry.name)).toEqual(['dashboard', 'admin', 'order', 'arcoWebsite']);
    expect(menuLeaves(admin).map((leaf) => leaf.name)).toContain('Monitor');
  });

  it('finds the groups to open for a path', () => {
    expect(openKeysFor(buildMenuEntries(tree, 'user'), '/order/list')).toEqual(['/order']);
    expect(openKeysFor(buildMenuEntries(tree, 'user'), '/nowhere')).toEqual([]);
  });
});
