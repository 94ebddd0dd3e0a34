import { describe, expect, it } from 'vitest';
import { withoutTemplates } from '@/lib/route-meta';
import { APP_LEAVES, APP_ROUTES, flattenLeaves, MENU_DEFINITION, PAGE_LOADERS } from './route-table';
import { TEMPLATE_PAGES } from './template-pages';

describe('the one menu definition (menu.json, also read by the server)', () => {
  it('gives every page a module and names no module without a page', () => {
    const pages = flattenLeaves(MENU_DEFINITION as never)
      .filter((leaf) => !/^https?:/.test(leaf.fullPath))
      .map((leaf) => leaf.name);
    expect(new Set(pages).size).toBe(pages.length);
    const templates = new Set(APP_LEAVES.filter((leaf) => leaf.meta.template).map((leaf) => leaf.name));
    const isTemplate = (name: string) => templates.has(name);
    expect(pages.filter((name) => !isTemplate(name)).sort()).toEqual(Object.keys(PAGE_LOADERS).sort());
    expect(pages.filter(isTemplate).sort()).toEqual(Object.keys(TEMPLATE_PAGES).sort());
    expect(APP_LEAVES.every((leaf) => typeof leaf.load === 'function')).toBe(true);
  });

  it('keeps the route table as it was: groups ordered from 1, admin-only pages, the hidden message center', () => {
    expect(APP_ROUTES.map((group) => [group.path, group.meta.order])).toEqual([
      ['/dashboard', 1],
      ['/order', 2],
      ['/qoute', 3],
      ['/finance', 4],
      ['/result', 5],
      ['/exception', 6],
      ['/user', 7],
      ['/visualization', 8],
      ['/list', 9],
      ['/form', 10],
      ['/profile', 11],
      ['/help', 12],
    ]);
    const meta = (name: string) => APP_LEAVES.find((leaf) => leaf.name === name)?.meta;
    expect(meta('Monitor')?.roles).toEqual(['admin']);
    expect(meta('Merchants')?.roles).toEqual(['admin']);
    expect(meta('Workplace')?.roles).toEqual(['*']);
    expect(meta('MessageCenter')?.hideInMenu).toBe(true);
    expect(APP_LEAVES.find((leaf) => leaf.name === 'GoogleAuth')?.fullPath).toBe('/user/google-auth');
  });

  it('marks the template section and keeps the design-system link out of the pages', () => {
    const template = APP_LEAVES.filter((leaf) => leaf.meta.template).map((leaf) => leaf.name);
    expect(template.sort()).toEqual(
      [
        'ChannelForm',
        'ContentDashboard',
        'DataVisualization',
        'Documentation',
        'Faq',
        'ParameterDetail',
        'PolicyList',
        'ServerDashboard',
        'TemplateCards',
      ].sort(),
    );
    expect(APP_LEAVES.some((leaf) => leaf.name === 'DesignSystem')).toBe(false);
    const real = withoutTemplates(APP_ROUTES);
    expect(flattenLeaves(real).some((leaf) => leaf.meta.template)).toBe(false);
    expect(real.map((group) => group.path)).toEqual([
      '/dashboard',
      '/order',
      '/qoute',
      '/finance',
      '/result',
      '/exception',
      '/user',
    ]);
  });
});
