/**
 * The list pages' kit (issue 15 points 6 and 11): collapsed filters with date presets, the
 * essentials of the order list on a 1440 px screen, column settings and density kept per
 * user, the workplace figures opening their filtered list, merchant columns for
 * administrators, and every list usable on a 390 × 844 phone.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import {
  expandFilters,
  expect,
  loadList,
  loginAs,
  openOverlay,
  ORDER_LIST,
  overlaysSettled,
  signOut,
  tableShown,
  test,
  useLocale,
} from './support/console';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

const TEXT = {
  'zh-CN': {
    today: '今天',
    expand: '展开',
    collapse: '收起',
    failure: '失败',
    merchant: '商户',
    oneSet: '展开（1 项已设）',
  },
  'en-US': {
    today: 'Today',
    expand: 'Expand',
    collapse: 'Collapse',
    failure: 'Failure',
    merchant: 'Merchant',
    oneSet: 'Expand (1 set)',
  },
} as const;

/** Today's date in Beijing (the platform's day), e.g. 2026-11-24. */
function beijingToday(): string {
  return new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
}

function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

async function firstRow(page: Page, table: string) {
  return (await tableShown(page, table)).first();
}

/** Open the order list (or reload it) and wait for its answer and the table drawn from it. */
async function orderList(page: Page, go: () => Promise<unknown>) {
  return (await loadList(page, go, ORDER_LIST)).first();
}

/** The visible part of a table: its scroll box, less the columns fixed at its right. */
async function visibleBox(page: Page, table: string) {
  const box = await page.getByTestId(table).locator('.ant-table-content, .ant-table-body').first().boundingBox();
  const actions = page.getByTestId(table).locator('th[data-column=actions]');
  const pinned = (await actions.count()) ? await actions.boundingBox() : null;
  expect(box).not.toBeNull();
  return { left: box!.x, right: pinned ? pinned.x : box!.x + box!.width };
}

async function expectInside(cell: Locator, area: { left: number; right: number }) {
  const box = await cell.boundingBox();
  expect(box, 'on screen').not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(area.left - 1);
  expect(box!.x + box!.width).toBeLessThanOrEqual(area.right + 1);
}

function totalIn(text: string): number {
  return Number(/(\d+)/.exec(text.replace(/,/g, ''))?.[1] ?? NaN);
}

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`order list at 1440 px in ${locale}: essentials on screen, collapsed filters, presets`, async ({ page }) => {
    const text = TEXT[locale];
    await useLocale(page, locale);
    await loginAs(page, 'merchant');
    await orderList(page, () => page.goto('#/order/list'));

    // Status and order time show without scrolling; the order number stays on one line.
    const area = await visibleBox(page, 'order-table');
    for (const column of ['order_no', 'status', 'created_at'])
      await expectInside(page.locator(`th[data-column=${column}]`), area);
    const orderNo = page.locator('td[data-column=order_no]').first();
    // Whole: neither the cell nor its text box overflows (nothing cut to "…").
    expect(await orderNo.evaluate((cell) => cell.scrollWidth <= cell.clientWidth)).toBe(true);
    expect(await orderNo.locator('.list-table__cut').evaluate((box) => box.scrollWidth <= box.clientWidth)).toBe(true);
    expect(await orderNo.getByTestId('order-no-link').evaluate((link) => link.getClientRects().length)).toBe(1);

    // Filters beyond the first row wait behind "expand".
    await expect(page.getByTestId('filter-range').first()).toBeVisible();
    await expect(page.getByTestId('filter-status')).toBeVisible();
    await expect(page.getByTestId('filter-carrier')).toBeHidden();
    await expect(page.getByTestId('order-filters-expand')).toHaveText(text.expand);
    await expandFilters(page, 'order-filters');
    await expect(page.getByTestId('filter-carrier')).toBeVisible();
    await expect(page.getByTestId('order-filters-expand')).toHaveText(text.collapse);
    await page.getByTestId('order-filters-expand').click();
    await expect(page.getByTestId('filter-carrier')).toBeHidden();

    // The "today" preset is Beijing's day, both ends included: [00:00, next 00:00).
    const today = beijingToday();
    await page.getByTestId('filter-range').first().click();
    await page.locator('.ant-picker-presets li').filter({ hasText: text.today }).click();
    await expect(page.getByTestId('filter-range').first()).toHaveValue(`${today} 00:00:00`);
    await expect(page.getByTestId('filter-range').last()).toHaveValue(`${today} 23:59:59`);
    const listed = page.waitForRequest((request) => request.url().includes('/adminapi/order/list'));
    await page.getByTestId('filter-search').click();
    expect(JSON.parse((await listed).postData() ?? '{}')).toMatchObject({
      start_time: `${today}T00:00:00+08:00`,
      end_time: `${nextDay(today)}T00:00:00+08:00`,
    });
    // The filters are in the address: a reload keeps them.
    await expect(page).toHaveURL(/range=/);
    await page.reload();
    await expect(page.getByTestId('filter-range').first()).toHaveValue(`${today} 00:00:00`);
  });

  // On its own: together with the test above it made four page loads and two sign-ins, more
  // than a test's 60 s on a loaded machine (it timed out, with the settings kept right).
  test(`order list column settings and density are kept per user across a reload (${locale})`, async ({ page }) => {
    await useLocale(page, locale);
    await loginAs(page, 'merchant');
    await orderList(page, () => page.goto('#/order/list'));

    // Column settings: hide one, move one; density; all kept for this user across a reload.
    // Clicked while the popover still zooms in, a checkbox scrolled the page by the height
    // of the toolbar above it (seen in the en-US screenshot): wait for it to stand still.
    await openOverlay(page, page.getByTestId('column-settings-open'), page.getByTestId('column-settings'));
    await page.getByTestId('column-toggle-product_name').click();
    await expect(page.locator('th[data-column=product_name]')).toHaveCount(0);
    await page.getByTestId('column-up-status').click();
    await page.keyboard.press('Escape');
    await expect(page.locator('th[data-column=product_name]')).toHaveCount(0);
    // The first five headers, read until they are the expected ones (a table redraws after
    // a setting changes or a list loads).
    const firstHeaders = async () =>
      (
        await page
          .locator('th[data-column]')
          .evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-column')))
      ).slice(0, 5);
    await expect.poll(firstHeaders).toEqual(['merchant_order_id', 'order_no', 'account', 'status', 'face_value_fen']);
    await openOverlay(page, page.getByTestId('density-open'), page.getByTestId('density-small'));
    await page.getByTestId('density-small').click();
    await expect(page.getByTestId('order-table')).toHaveAttribute('data-density', 'small');
    // The screenshot shows the page, not the menu on its way out.
    await expect(page.getByTestId('density-small')).toBeHidden();
    await overlaysSettled(page);
    await page.screenshot({ path: `${screenshots}lists-${locale}-order-list-settings.png` });
    await orderList(page, () => page.reload());
    await expect(page.locator('th[data-column=product_name]')).toHaveCount(0);
    await expect.poll(firstHeaders).toEqual(['merchant_order_id', 'order_no', 'account', 'status', 'face_value_fen']);
    await expect(page.getByTestId('order-table')).toHaveAttribute('data-density', 'small');

    // Another user on the same browser keeps the defaults.
    await signOut(page);
    await loginAs(page, 'admin');
    await orderList(page, () => page.goto('#/order/list'));
    await expect(page.locator('th[data-column=product_name]')).toBeVisible();
    await expect(page.getByTestId('order-table')).toHaveAttribute('data-density', 'middle');
  });
}

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`workplace figures open their filtered order list; administrators see a merchant column (${locale})`, async ({
    page,
  }) => {
    const text = TEXT[locale];
    await useLocale(page, locale);
    await loginAs(page, 'admin');
    const figure = page.getByTestId('stat-today-failure');
    await expect(figure).toBeVisible();
    const count = totalIn((await figure.locator('.ant-statistic-content').textContent()) ?? '');
    const listed = page.waitForResponse((response) => response.url().includes('/adminapi/order/list'));
    await page.getByTestId('stat-today-failure-link').click();
    const body = JSON.parse((await listed).request().postData() ?? '{}') as Record<string, unknown>;
    const today = beijingToday();
    expect(body).toMatchObject({
      kind: 'all',
      status: 3,
      start_time: `${today}T00:00:00+08:00`,
      end_time: `${nextDay(today)}T00:00:00+08:00`,
    });
    await expect(page).toHaveURL(/#\/order\/list\?.*status=3/);
    await expect(page.getByTestId('filter-status')).toContainText(text.failure);
    await expect.poll(async () => totalIn((await page.getByTestId('order-total').textContent()) ?? '')).toBe(count);
    // The kind lives behind "expand", which says a hidden filter is set.
    await expect(page.getByTestId('order-filters-expand')).toHaveText(text.oneSet);
    // The export carries the same filters (every kind, today, the status): the same rows.
    const download = page.waitForEvent('download');
    await page.getByTestId('export-csv').click();
    const lines = readFileSync(await (await download).path(), 'utf8')
      .trim()
      .split(/\r?\n/);
    expect(lines.length - 1).toBe(count);
    if (count > 0) {
      await firstRow(page, 'order-table');
      for (const status of await page.getByTestId('order-status').all()) await expect(status).toHaveText(text.failure);
    }

    // Administrators' lists span merchants: a merchant column, named, on screen.
    await orderList(page, () => page.goto('#/order/list'));
    const area = await visibleBox(page, 'order-table');
    await expectInside(page.locator('th[data-column=merchant]'), area);
    await expect(page.locator('th[data-column=merchant]')).toHaveText(text.merchant);
    await expect(page.locator('td[data-column=merchant]').first()).toContainText(/\(\d+\)/);
    await page.screenshot({ path: `${screenshots}lists-${locale}-admin-order-list.png` });
    await loadList(page, () => page.goto('#/finance/account'), {
      path: '/adminapi/finance/account/list',
      table: 'account-table',
    });
    await expect(page.locator('th[data-column=merchant]')).toBeVisible();
    await expect(page.locator('td[data-column=merchant]').first()).toContainText(/\(\d+\)/);
  });
}

const FIGURES = [
  {
    id: 'stat-today-in-flight',
    body: { in_flight: true },
    url: /progress=inFlight/,
    field: 'filter-progress',
    label: { 'zh-CN': '处理中（未完成）', 'en-US': 'In progress (not final)' },
    statuses: ['0', '1', '4'],
  },
  {
    id: 'stat-today-success',
    body: { status: 2 },
    url: /status=2/,
    field: 'filter-status',
    label: { 'zh-CN': '成功', 'en-US': 'Success' },
    statuses: ['2'],
  },
  {
    id: 'stat-today-failure',
    body: { status: 3 },
    url: /status=3/,
    field: 'filter-status',
    label: { 'zh-CN': '失败', 'en-US': 'Failure' },
    statuses: ['3'],
  },
] as const;

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`each of today's figures (in progress, success, failure) opens its filtered list (${locale})`, async ({
    page,
  }) => {
    await useLocale(page, locale);
    await loginAs(page, 'merchant');
    const today = beijingToday();
    for (const figure of FIGURES) {
      await page.goto('#/dashboard/workplace');
      await expect(page.getByTestId(figure.id)).toBeVisible();
      const listed = page.waitForResponse((response) => response.url().includes('/adminapi/order/list'));
      await page.getByTestId(`${figure.id}-link`).click();
      const body = JSON.parse((await listed).request().postData() ?? '{}') as Record<string, unknown>;
      expect(body, figure.id).toMatchObject({
        kind: 'all',
        ...figure.body,
        start_time: `${today}T00:00:00+08:00`,
        end_time: `${nextDay(today)}T00:00:00+08:00`,
      });
      // One filter of the two: the in-progress list names no single status.
      expect(Object.keys(body).filter((key) => key === 'status' || key === 'in_flight')).toHaveLength(1);
      await expect(page).toHaveURL(figure.url);
      await expandFilters(page, 'order-filters');
      await expect(page.getByTestId(figure.field)).toContainText(figure.label[locale]);
      await expect(page.getByTestId('order-table').locator('.ant-spin-spinning')).toHaveCount(0);
      for (const status of await page.getByTestId('order-status').all()) {
        expect(figure.statuses, figure.id).toContain(await status.getAttribute('data-status'));
      }
    }
    await page.screenshot({ path: `${screenshots}lists-${locale}-in-flight-filter.png` });
  });
}

test.describe('on a 390 × 844 phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  const LISTS = [
    ['order-list', '#/order/list', 'order-table', 'order-filters', 'order-total', 'status'],
    ['quotes', '#/qoute/list', 'quote-table', 'quote-filters', 'quote-total', 'status'],
    ['account-records', '#/finance/account', 'account-table', 'account-filters', 'account-total', 'amount_fen'],
    ['batches', '#/order/allAddList', 'batch-list', null, 'batch-list-title', 'status'],
  ] as const;

  for (const locale of ['zh-CN', 'en-US'] as const) {
    test(`lists are usable in ${locale}: key column, collapsed filters, whole total, pager on screen`, async ({
      page,
    }) => {
      await useLocale(page, locale);
      await loginAs(page, 'merchant');
      const screen = { left: 0, right: 390 };
      // A batch of its own for the batch list (a preview leaves one).
      await page.goto('#/order/allAddList');
      await page.getByRole('tab').nth(1).click();
      await page.getByTestId('batch-paste').fill('13800138000,MOBILE-DIRECT-10');
      await page.getByTestId('batch-paste-preview').click();
      await expect(page.getByTestId('batch-preview')).toBeVisible();
      for (const [name, path, table, filters, total, key] of LISTS) {
        await page.goto(path);
        if (name === 'batches') await page.reload();
        await firstRow(page, table);
        await expectInside(page.locator(`[data-testid=${table}] th[data-column=${key}]`), screen);
        await expectInside(page.locator(`[data-testid=${table}] td[data-column=${key}]`).first(), screen);
        if (filters) {
          // One field, then the buttons: the rest behind "expand".
          const shown = page.getByTestId(filters).locator('.ant-form-item-label:visible');
          await expect(shown).toHaveCount(1);
          await expect(page.getByTestId(`${filters}-expand`)).toBeVisible();
        }
        const title = page.getByTestId(total);
        await expectInside(title, screen);
        expect(await title.evaluate((node) => node.scrollWidth <= node.clientWidth + 1)).toBe(true);
        const pager = page
          .locator(`[data-testid=${table}]`)
          .locator('xpath=ancestor::div[contains(@class,"list-table")][1]')
          .locator('.ant-pagination');
        await expectInside(pager, screen);
        await page.screenshot({ path: `${screenshots}lists-${locale}-phone-${name}.png`, fullPage: true });
      }
    });
  }
});
