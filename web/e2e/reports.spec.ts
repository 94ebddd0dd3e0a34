/**
 * Issue 52 §3, reports: the administrators' profit report and the merchants' sales report
 * show the demo history (read from the server's roll-up) as totals, a chart and a table,
 * broken down as chosen, and download as files, in both languages.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, loginAs, overlaysSettled, pageShot, requestsTo, test, useLocale } from './support/console';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

type Locale = 'zh-CN' | 'en-US';

async function inLocale(page: Page, locale: Locale) {
  await page.evaluate((value) => localStorage.setItem('locale', value), locale);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', locale);
}

/** A figure of the totals card as a number ("1,234.50" → 1234.5). */
async function figure(page: Page, index: number): Promise<number> {
  const text = await page.getByTestId('report-totals').locator('.ant-statistic-content').nth(index).textContent();
  return Number((text ?? '').replace(/[^0-9.-]/g, ''));
}

test('the profit report shows the history by day, by channel, and as a file', async ({ page }) => {
  await useLocale(page, 'zh-CN');
  await loginAs(page, 'admin');
  const calls = requestsTo(page, '/adminapi/admin/report/profit');
  await page.goto('#/finance/profit');
  const table = page.getByTestId('report-table');
  await expect(table.locator('tbody tr.ant-table-row').first()).toBeVisible();
  expect(await figure(page, 0)).toBeGreaterThan(0);
  // Sales above cost: the demo's channels cost less than the merchant's price.
  expect(await figure(page, 3)).toBeGreaterThan(await figure(page, 4));
  await expect(page.getByTestId('report-chart')).toHaveAttribute('data-drawn', 'true');
  await expect(table.locator('thead')).not.toContainText('渠道');

  // Broken down by channel: the demo's successes are the sandbox's.
  const before = calls.length;
  await page.getByTestId('report-group-by').getByText('渠道').click();
  await expect(table.locator('thead')).toContainText('渠道');
  await expect(table.locator('tbody')).toContainText('沙箱渠道');
  expect(calls.length).toBe(before + 1);
  expect(calls.at(-1)?.postDataJSON()).toMatchObject({ group_by: 'channel' });
  await overlaysSettled(page);
  await pageShot(page, `${screenshots}profit-report-zh-CN.png`);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  const lines = readFileSync(await download.path(), 'utf8')
    .trim()
    .split('\n');
  expect(lines[0]).toContain('"渠道"');
  expect(lines[0]).toContain('"利润(元)"');
  expect(lines.length).toBeGreaterThanOrEqual(2);

  await inLocale(page, 'en-US');
  await expect(table.locator('tbody tr.ant-table-row').first()).toBeVisible();
  await expect(page.getByTestId('report-totals')).toContainText('Profit');
  await expect(page.getByTestId('report-chart')).toHaveAttribute('data-drawn', 'true');
  await overlaysSettled(page);
  await pageShot(page, `${screenshots}profit-report-en-US.png`);
});

test('a merchant reads its own sales by month and product, without costs', async ({ page }) => {
  await useLocale(page, 'en-US');
  await loginAs(page, 'merchant');
  const calls = requestsTo(page, '/adminapi/report/sales');
  await page.goto('#/finance/sales');
  const table = page.getByTestId('report-table');
  await expect(table.locator('tbody tr.ant-table-row').first()).toBeVisible();
  expect(await figure(page, 0)).toBeGreaterThan(0);
  await expect(page.getByTestId('sales-report-page')).not.toContainText('Cost');
  await expect(page.getByTestId('report-merchant')).toHaveCount(0);
  await expect(page.getByTestId('report-chart')).toHaveAttribute('data-drawn', 'true');

  await page.getByTestId('report-grain').getByText('Month').click();
  await page.getByTestId('report-by-product').click();
  await expect(table.locator('thead')).toContainText('Product');
  await expect(table.locator('tbody tr.ant-table-row').first()).toContainText(/^\d{4}-\d{2}/);
  expect(calls.at(-1)?.postDataJSON()).toMatchObject({ grain: 'month', group_by: 'product' });
  await overlaysSettled(page);
  await pageShot(page, `${screenshots}sales-report-en-US.png`);

  await inLocale(page, 'zh-CN');
  await expect(table.locator('tbody tr.ant-table-row').first()).toBeVisible();
  await expect(page.getByTestId('report-totals')).toContainText('消费金额');
  await overlaysSettled(page);
  await pageShot(page, `${screenshots}sales-report-zh-CN.png`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  const header = readFileSync(await download.path(), 'utf8').split('\n')[0];
  expect(header).toContain('"消费金额(元)"');
  expect(header).not.toContain('成本');
});
