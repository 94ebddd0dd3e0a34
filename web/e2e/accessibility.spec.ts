/**
 * Every page of both roles, in both languages, passes axe-core's WCAG 2.1 A and AA rules once
 * its data is on screen: the login page (its HTML before any script, and React's), each
 * menu page of the role, the sections of the user settings and the message centre, the
 * not-found page, and the main dialogs and drawers while open (opened and closed from the
 * keyboard: the focus moves in and comes back to what opened them). One browser context a role
 * and language, visiting the pages in turn; each page's violations are listed (rule,
 * impact, elements, help) and the tour goes on, so one run names everything to fix.
 */
import { readFileSync } from 'node:fs';
import type { Locator, Page, Route } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { expect, loginAs, openOverlay, overlaysSettled, setShellCookie, test, useLocale } from './support/console';

// The tours are independent (each signs in on its own page): on two workers they take half
// the time of one after the other.
test.describe.configure({ mode: 'parallel' });

const LOCALES = ['zh-CN', 'en-US'] as const;
type Role = 'admin' | 'merchant';

interface MenuDefinition {
  path: string;
  roles: string[];
  children?: MenuDefinition[];
}

/** The console's menu definition (the server's menu reads the same file). */
const MENU = JSON.parse(
  readFileSync(new URL('../src/app/routes/menu.json', import.meta.url), 'utf8'),
) as MenuDefinition[];

/** The pages a role may open, from the menu definition (external links left out). */
function pagesOf(role: Role): string[] {
  // Merchants' users are the server's role `user`.
  const names = role === 'merchant' ? ['user', 'merchant'] : [role];
  const allowed = (definition: MenuDefinition) =>
    definition.roles.includes('*') || names.some((name) => definition.roles.includes(name));
  const walk = (definitions: MenuDefinition[], parent: string): string[] =>
    definitions.filter(allowed).flatMap((definition) => {
      if (/^https?:\/\//.test(definition.path)) return [];
      const path = definition.path.startsWith('/') ? definition.path : `${parent}/${definition.path}`;
      return definition.children?.length ? walk(definition.children, path) : [path];
    });
  return walk(MENU, '');
}

/** The sections of pages reached by their address beyond the plain page. */
const SECTIONS = [
  ...['basic', 'integration', 'apiKeys', 'security', 'password', 'certification'].map(
    (tab) => `/user/setting?tab=${tab}`,
  ),
  ...['message', 'notice', 'todo'].map((tab) => `/user/message?tab=${tab}`),
];
const ADMIN_SECTIONS = ['/qoute/channels?tab=routing&product=MOBILE-DIRECT-10'];

/**
 * The API calls a page has made and not yet had answered. A page is checked once none is
 * left and nothing on it is loading, so that what axe reads is the page with its data.
 */
function watchApiCalls(page: Page): () => number {
  const open = new Set<unknown>();
  const isApi = (url: string) => /\/(adminapi|api)\//.test(new URL(url).pathname);
  page.on('request', (request) => {
    // The monitor's live stream stays open as long as its page: it is not a page's load.
    if (isApi(request.url()) && request.resourceType() !== 'eventsource') open.add(request);
  });
  page.on('requestfinished', (request) => open.delete(request));
  page.on('requestfailed', (request) => open.delete(request));
  return () => open.size;
}

/** Wait until the page at `path` is on screen with its data: no route loading, no call open, no spinner. */
async function pageLoaded(page: Page, path: string, openCalls: () => number) {
  const hash = `#${path}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await expect(page).toHaveURL(new RegExp(`${hash}$`));
  await expect(page.locator('#nprogress')).toHaveCount(0);
  await expect(page.locator('.default-layout__content [data-testid]').first()).toBeVisible();
  await expect.poll(openCalls).toBe(0);
  await expect(page.locator('.ant-spin-spinning, .ant-skeleton-active').filter({ visible: true })).toHaveCount(0);
}

/**
 * Open a dialog or drawer from the keyboard (focus `trigger`, Enter), check it with axe while
 * open (once `shown`, inside it, is on screen and its calls answered), check that the focus
 * moved into it, close it with Escape and check that the focus is back on `trigger`.
 */
async function checkDialog(page: Page, where: string, trigger: Locator, shown: Locator, openCalls?: () => number) {
  await trigger.focus();
  await page.keyboard.press('Enter');
  await expect(shown).toBeVisible();
  await overlaysSettled(page);
  if (openCalls) await expect.poll(openCalls).toBe(0);
  await expectNoAxeViolations(page, where, { soft: true });
  // antd focuses the overlay's root (the drawer or dialog box around its role="dialog"
  // section), which keeps the focus inside until it closes.
  const focusInside = () =>
    shown.evaluate((element) => {
      const overlay = element.closest('.ant-drawer, .ant-modal-wrap') ?? element.closest('[role="dialog"]');
      return overlay !== null && overlay.contains(document.activeElement);
    });
  await expect.poll(focusInside, `${where}: the focus moves into the dialog`).toBe(true);
  await page.keyboard.press('Escape');
  await expect(shown).toBeHidden();
  await overlaysSettled(page);
  await expect(trigger, `${where}: the focus returns to what opened it`).toBeFocused();
}

/** Hold the console's entry script, so that the login page stays its server-rendered HTML. */
async function holdConsoleScript(page: Page) {
  await page.route(/\/web\/assets\/index-[^/]+\.js$/, (route: Route) => void route, { times: 1 });
}

for (const locale of LOCALES) {
  test(`the login page passes axe as HTML and after React (${locale})`, async ({ page, browser, baseURL }) => {
    // The HTML in the first answer, with the console's script held back.
    const held = await browser.newContext({ baseURL });
    const shell = await held.newPage();
    await setShellCookie(shell, 'bo_locale', locale);
    await holdConsoleScript(shell);
    await shell.goto('#/login', { waitUntil: 'commit' });
    await expect(shell.locator('form[data-login-shell="ready"]')).toBeVisible();
    await expectNoAxeViolations(shell, `login HTML ${locale}`, { soft: true });
    await held.close();

    await useLocale(page, locale);
    await page.goto('#/login');
    await expect(page.locator('form[data-testid=login-form]:not([data-login-shell])')).toBeVisible();
    await expectNoAxeViolations(page, `login ${locale}`, { soft: true });
    // Refused fields show their messages.
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('login-password-error')).not.toBeEmpty();
    await expectNoAxeViolations(page, `login with errors ${locale}`, { soft: true });
  });

  for (const role of ['merchant', 'admin'] as const) {
    test(`every ${role} page passes axe (${locale})`, async ({ page }) => {
      test.setTimeout(600_000);
      const openCalls = watchApiCalls(page);
      await useLocale(page, locale);
      await loginAs(page, role);
      const where = (name: string) => `${role} ${locale} ${name}`;

      const paths = [...pagesOf(role), ...SECTIONS, ...(role === 'admin' ? ADMIN_SECTIONS : [])];
      for (const path of paths) {
        await page.goto(`#${path}`);
        await pageLoaded(page, path, openCalls);
        await expectNoAxeViolations(page, where(path), { soft: true });
      }

      await page.goto('#/this-page-does-not-exist');
      await expect(page.getByTestId('exception-404')).toBeVisible();
      await expectNoAxeViolations(page, where('not-found'), { soft: true });

      // The layout's own overlays: the settings drawer, the message bell, the user menu.
      await page.goto('#/dashboard/workplace');
      await pageLoaded(page, '/dashboard/workplace', openCalls);
      await checkDialog(
        page,
        where('settings drawer'),
        page.getByTestId('navbar-settings'),
        page.getByTestId('settings-close'),
      );
      await openOverlay(page, page.getByTestId('message-bell'), page.getByTestId('message-bell-popover'));
      await expect.poll(openCalls).toBe(0);
      await expectNoAxeViolations(page, where('message bell'), { soft: true });
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('message-bell-popover')).toBeHidden();
      await openOverlay(page, page.getByTestId('user-dropdown'), page.getByTestId('logout'));
      await expectNoAxeViolations(page, where('user menu'), { soft: true });
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('logout')).toBeHidden();

      if (role === 'merchant') {
        // The batch page's confirmation dialog, before anything is placed.
        await page.goto('#/order/allAddList');
        await pageLoaded(page, '/order/allAddList', openCalls);
        await page.getByRole('tab', { name: locale === 'zh-CN' ? '粘贴文本' : 'Paste lines' }).click();
        await page.getByTestId('batch-paste').fill('13800138000,MOBILE-DIRECT-10\n123,MOBILE-DIRECT-10');
        await page.getByTestId('batch-paste-preview').click();
        await expect(page.getByTestId('preview-valid')).toContainText('1');
        await expectNoAxeViolations(page, where('batch preview'), { soft: true });
        await checkDialog(
          page,
          where('batch confirm dialog'),
          page.getByTestId('batch-submit'),
          page.getByTestId('batch-confirm-body'),
        );
      } else {
        await page.goto('#/order/list?kind=all');
        await pageLoaded(page, '/order/list?kind=all', openCalls);
        await checkDialog(
          page,
          where('order drawer'),
          page.getByTestId('order-detail-open').first(),
          page.getByTestId('order-detail'),
          openCalls,
        );

        await page.goto('#/finance/merchants');
        await pageLoaded(page, '/finance/merchants', openCalls);
        const row = page.getByTestId('merchant-table').locator('tbody tr.ant-table-row').first();
        await checkDialog(
          page,
          where('merchant top-up dialog'),
          row.getByTestId('merchant-topup'),
          page.getByTestId('merchant-action-amount'),
        );

        await page.goto('#/qoute/channels');
        await pageLoaded(page, '/qoute/channels', openCalls);
        await checkDialog(
          page,
          where('channel form drawer'),
          page.getByTestId('channel-edit-sim-cheap'),
          page.getByTestId('channel-name'),
          openCalls,
        );
      }
    });
  }
}
