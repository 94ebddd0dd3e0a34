/**
 * Saved views of the list pages (issue 52), on the orders list: a view saved in one browser
 * is there in another (another machine: a new browser context, nothing in its storage), the
 * default view applies when the page opens without filters, and a shared view is seen by a
 * second user of the same merchant, read-only. Both locales; axe on the menu and dialogs.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { expect, loginAs, openOverlay, submitLogin, test, useLocale, USERS } from './support/console';

const TEXT = {
  'zh-CN': { mine: '我的视图', shared: '共享给我的', by: '来自 merchant', manage: '本页已保存的视图' },
  'en-US': { mine: 'My views', shared: 'Shared with me', by: 'by merchant', manage: 'Saved views of this page' },
} as const;

/** A second user of the demo merchant (10001), with a password of its own; returns it. */
async function colleague(request: APIRequestContext, username: string) {
  const login = await request.post('/adminapi/login/login', { data: USERS.admin });
  const admin = (await login.json()).data.token as string;
  const added = await request.post('/adminapi/admin/merchant/addUser', {
    data: { merchant_id: 10001, username },
    headers: { Authorization: `Bearer ${admin}` },
  });
  expect((await added.json()).code).toBe(20000);
  const temporary = (await added.json()).data.temporary_password as string;
  const first = await request.post('/adminapi/login/login', { data: { username, password: temporary } });
  const token = (await first.json()).data.token as string;
  const password = 'Colleague123';
  const changed = await request.post('/adminapi/merchant/changePassword', {
    data: { current_password: temporary, new_password: password },
    headers: { Authorization: `Bearer ${token}` },
  });
  expect((await changed.json()).code).toBe(20000);
  return { username, password };
}

/** Another machine: a browser context of its own, signed in. */
async function elsewhere(browser: Browser, baseURL: string, locale: 'zh-CN' | 'en-US') {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await useLocale(page, locale);
  return { context, page };
}

async function openViews(page: Page) {
  await openOverlay(page, page.getByTestId('saved-views-open'), page.getByTestId('saved-views-save'));
}

const orderTable = (page: Page) => page.getByTestId('order-table');

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`a view saved on the orders list follows its user to another machine, opens as the default and is shared (${locale})`, async ({
    page,
    browser,
    baseURL,
  }) => {
    const text = TEXT[locale];
    const name = `失败订单 ${locale}`;
    await useLocale(page, locale);
    await loginAs(page, 'merchant');

    // The page as the view will keep it: failed orders, compact rows, oldest first.
    await page.goto('#/order/list?status=3');
    await expect(orderTable(page)).toBeVisible();
    await openOverlay(page, page.getByTestId('density-open'), page.getByTestId('density-small'));
    await page.getByTestId('density-small').click();
    await expect(orderTable(page)).toHaveAttribute('data-density', 'small');
    await page.locator('th[data-column="created_at"]').click();
    await expect(page.locator('th[data-column="created_at"]')).toHaveAttribute('aria-sort', 'ascending');

    await openViews(page);
    await expectNoAxeViolations(page, `saved views menu (${locale})`);
    await page.getByTestId('saved-views-save').click();
    await page.getByTestId('saved-view-name').fill(name);
    await page.getByTestId('saved-view-shared').click();
    await page.getByTestId('saved-view-default').click();
    await expectNoAxeViolations(page, `save view dialog (${locale})`);
    await page.getByTestId('saved-view-submit').click();
    await expect(page.getByTestId('saved-view-name')).toBeHidden();

    // Another machine, nothing in its storage: the default applies to the bare page.
    const other = await elsewhere(browser, baseURL!, locale);
    await loginAs(other.page, 'merchant');
    await other.page.goto('#/order/list');
    await expect(other.page).toHaveURL(/#\/order\/list\?status=3$/);
    await expect(orderTable(other.page)).toHaveAttribute('data-density', 'small');
    await expect(other.page.locator('th[data-column="created_at"]')).toHaveAttribute('aria-sort', 'ascending');
    await openViews(other.page);
    await expect(other.page.getByText(text.mine)).toBeVisible();
    await expect(other.page.getByTestId(`saved-view-${name}`)).toBeVisible();
    // A link with filters is not overridden by the default.
    await other.page.goto('#/order/list?status=2');
    await other.page.reload();
    await expect(orderTable(other.page)).toBeVisible();
    await expect(other.page).toHaveURL(/#\/order\/list\?status=2$/);
    await other.context.close();

    // A second user of the merchant sees it shared, by its owner, and may apply it.
    const second = await elsewhere(browser, baseURL!, locale);
    await second.page.goto('#/login');
    await submitLogin(second.page, await colleague(second.page.request, `colleague-${locale}`));
    await expect(second.page.getByTestId('workplace-page')).toBeVisible();
    await second.page.goto('#/order/list');
    await expect(orderTable(second.page)).toBeVisible();
    // Not its default: the bare page stays bare.
    await expect(second.page).toHaveURL(/#\/order\/list$/);
    await openViews(second.page);
    await expect(second.page.getByText(text.shared)).toBeVisible();
    await expect(second.page.getByTestId(`saved-view-${name}`).getByText(text.by)).toBeVisible();
    await second.page.getByTestId(`saved-view-${name}`).click();
    await expect(second.page).toHaveURL(/#\/order\/list\?status=3$/);
    await expect(orderTable(second.page)).toHaveAttribute('data-density', 'small');
    // Read-only there: no delete, no share switch.
    await openViews(second.page);
    await second.page.getByTestId('saved-views-manage').click();
    await expect(second.page.getByText(text.manage)).toBeVisible();
    const row = second.page.getByTestId(`saved-view-row-${name}`);
    await expect(row).toBeVisible();
    await expect(row.getByTestId('saved-view-delete')).toHaveCount(0);
    await expect(row.getByTestId('saved-view-share')).toHaveCount(0);
    await expectNoAxeViolations(second.page, `manage views dialog (${locale})`);
    await second.context.close();
  });
}

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`the blocklist keeps its filter and density in a default view, on another machine too (${locale})`, async ({
    page,
    browser,
    baseURL,
  }) => {
    await useLocale(page, locale);
    await loginAs(page, 'admin');
    await page.goto('#/qoute/blocklist');
    const table = page.getByTestId('blocklist-table');
    await expect(table).toBeVisible();
    // The filter typed key by key, with a space as a person pastes it: kept as typed in the
    // address, searched without the space.
    await page.getByTestId('blocklist-filter-pattern').pressSequentially('13 8');
    await page.getByTestId('blocklist-search').click();
    await expect(page).toHaveURL(/#\/qoute\/blocklist\?pattern=13(\+|%20)8$/);
    await openOverlay(page, page.getByTestId('density-open'), page.getByTestId('density-small'));
    await page.getByTestId('density-small').click();
    await expect(table).toHaveAttribute('data-density', 'small');

    await openViews(page);
    await page.getByTestId('saved-views-save').click();
    await page.getByTestId('saved-view-name').fill(`138 ${locale}`);
    await page.getByTestId('saved-view-default').click();
    await page.getByTestId('saved-view-submit').click();
    await expect(page.getByTestId('saved-view-name')).toBeHidden();

    const other = await elsewhere(browser, baseURL!, locale);
    await loginAs(other.page, 'admin');
    await other.page.goto('#/qoute/blocklist');
    await expect(other.page).toHaveURL(/#\/qoute\/blocklist\?pattern=13(\+|%20)8$/);
    await expect(other.page.getByTestId('blocklist-filter-pattern')).toHaveValue('13 8');
    await expect(other.page.getByTestId('blocklist-table')).toHaveAttribute('data-density', 'small');
    await other.page.screenshot({ path: `${screenshots}blocklist-view-${locale}.png` });
    await other.context.close();
  });
}

test('a list without filters (products) keeps its columns in a view', async ({ page }) => {
  await useLocale(page, 'en-US');
  await loginAs(page, 'admin');
  await page.goto('#/qoute/products');
  const table = page.getByTestId('product-table');
  await expect(table).toBeVisible();
  await openOverlay(page, page.getByTestId('density-open'), page.getByTestId('density-small'));
  await page.getByTestId('density-small').click();
  await openViews(page);
  await page.getByTestId('saved-views-save').click();
  await page.getByTestId('saved-view-name').fill('compact');
  await page.getByTestId('saved-view-submit').click();
  await expect(page.getByTestId('saved-view-name')).toBeHidden();
  // Back to the roomy rows, then the view brings the compact ones back.
  await openOverlay(page, page.getByTestId('density-open'), page.getByTestId('density-large'));
  await page.getByTestId('density-large').click();
  await expect(table).toHaveAttribute('data-density', 'large');
  await openViews(page);
  await page.getByTestId('saved-view-compact').click();
  await expect(table).toHaveAttribute('data-density', 'small');
});
