/**
 * A merchant with a 64-character name (the longest the server takes) on the lists that show
 * merchant names, at 1440 px: the name is cut with an ellipsis and shown whole in a tooltip,
 * it does not stretch its column, and every column can be brought on screen, none left
 * under the fixed action column.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, loginAs, test, useLocale, USERS } from './support/console';

const LONG_NAME = 'Northern Provinces Mobile Top-up and Prepaid Card Wholesale Corp';

/** Creates a merchant named `name` through the API, as an administrator. */
async function createMerchant(page: Page, name: string) {
  const login = await page.request.post('/adminapi/login/login', { data: USERS.admin });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const created = await page.request.post('/adminapi/admin/merchant/create', {
    data: { name, username: `long-${Date.now()}` },
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(((await created.json()) as { code: number }).code).toBe(20000);
}

/**
 * Every header of `table` can be scrolled fully into the table's view, left of a fixed
 * column if there is one: each is scrolled to the table's left edge (or as far as the table
 * goes) and must then lie inside the table and the window, uncovered.
 */
async function expectEveryHeaderReachable(table: Locator) {
  const headers = table.locator('thead th[data-column]:not(.ant-table-cell-fix-right)');
  const count = await headers.count();
  expect(count).toBeGreaterThan(3);
  for (let index = 0; index < count; index += 1) {
    const header = headers.nth(index);
    const place = await header.evaluate((cell) => {
      const scroller = cell.closest('.ant-table-content, .ant-table-header') as HTMLElement;
      scroller.scrollLeft = (cell as HTMLElement).offsetLeft;
      const box = cell.getBoundingClientRect();
      const frame = scroller.getBoundingClientRect();
      const fixed = scroller.querySelector('thead th.ant-table-cell-fix-right');
      const right = Math.min(frame.right, fixed ? fixed.getBoundingClientRect().left : frame.right, window.innerWidth);
      const atCentre = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return {
        name: cell.textContent,
        inside: box.left >= frame.left - 1 && box.right <= right + 1,
        uncovered: atCentre !== null && cell.contains(atCentre),
      };
    });
    expect(place, `header ${place.name}`).toEqual({ name: place.name, inside: true, uncovered: true });
  }
}

/** The name is cut (not stretching its column) and a hover shows it whole. */
async function expectCutWithTooltip(page: Page, cell: Locator) {
  const text = cell.locator('.list-table__cut');
  await expect(text).toBeVisible();
  expect(await text.evaluate((box) => box.scrollWidth > box.clientWidth)).toBe(true);
  expect((await cell.boundingBox())!.width).toBeLessThanOrEqual(300);
  await text.hover();
  const tooltip = page.locator('.ant-tooltip:not(.ant-tooltip-hidden)');
  await expect(tooltip).toContainText(LONG_NAME);
  // Away again: the tooltip would cover the headers checked next.
  await page.mouse.move(0, 0);
  await expect(tooltip).toHaveCount(0);
}

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`a 64-character merchant name on statements, merchants and the audit trail at 1440 px (${locale})`, async ({
    page,
  }) => {
    expect(LONG_NAME).toHaveLength(64);
    // The worker's server is shared by both locales' tests: the second finds two such rows.
    await createMerchant(page, LONG_NAME);
    await useLocale(page, locale);
    await loginAs(page, 'admin');

    await page.goto('#/finance/statements');
    const statements = page.getByTestId('statement-table');
    const statementRow = statements.locator('tbody tr', { hasText: LONG_NAME.slice(0, 20) }).first();
    await expect(statementRow).toBeVisible();
    await expectCutWithTooltip(page, statementRow.locator('td[data-column=merchant_id]'));
    await expectEveryHeaderReachable(statements);

    await page.goto(`#/finance/merchants?keyword=${encodeURIComponent(LONG_NAME.slice(0, 20))}`);
    const merchants = page.getByTestId('merchant-table');
    const merchantRow = merchants.locator('tbody tr', { hasText: LONG_NAME.slice(0, 20) }).first();
    await expect(merchantRow).toBeVisible();
    await expectCutWithTooltip(page, merchantRow.locator('td[data-column=name]'));
    await expectEveryHeaderReachable(merchants);

    // The audit trail names the merchant created as its target.
    await page.goto('#/finance/audit');
    const audit = page.getByTestId('audit-table');
    const auditRow = audit.locator('tbody tr', { hasText: LONG_NAME.slice(0, 20) }).first();
    await expect(auditRow).toBeVisible();
    await expectCutWithTooltip(page, auditRow.locator('td[data-column=target]'));
    await expectEveryHeaderReachable(audit);
  });
}
