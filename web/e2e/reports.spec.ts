/**
 * Issue 52 §3, reports: the administrators' profit report and the merchants' sales report
 * show the demo history (read from the server's roll-up) as totals, a chart and a table,
 * broken down as chosen, and download as files, in both languages. Their filters live in
 * the page address (a reload, the back button and a link keep them) and in saved views.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import {
  expect,
  loginAs,
  nextAnswer,
  openOverlay,
  overlaysSettled,
  pageShot,
  requestsTo,
  tableShown,
  test,
  useLocale,
} from './support/console';

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

const LOCALES = ['zh-CN', 'en-US'] as const;
const PROFIT_URL = '/adminapi/admin/report/profit';
const SALES_URL = '/adminapi/report/sales';
const TEXT = {
  'zh-CN': { day: '按日', month: '按月', channel: '渠道', carrier: '运营商' },
  'en-US': { day: 'Day', month: 'Month', channel: 'Channel', carrier: 'Carrier' },
} as const;

/** The last `count` days, today included, as the report's range (this machine's days, as the browser's). */
function lastDays(count: number) {
  const day = (back: number) => {
    const date = new Date();
    date.setDate(date.getDate() - back);
    const two = (value: number) => String(value).padStart(2, '0');
    return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
  };
  return { start: day(count - 1), end: day(0) };
}

/** The page's address for a report with these query parameters (encoded as the console does). */
function reportAddress(path: string, params: Record<string, string>): RegExp {
  const query = new URLSearchParams(params).toString();
  const escaped = `#${path}${query ? `?${query}` : ''}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`${escaped}$`);
}

/**
 * Do `act` and wait for the report's answer to the request it makes with `sent` in its body,
 * and for the table drawn from it.
 */
async function reportAnswer(page: Page, path: string, sent: Record<string, unknown>, act: () => Promise<unknown>) {
  const answered = nextAnswer(page, path, (body) => Object.entries(sent).every(([key, value]) => body[key] === value));
  await act();
  expect((await answered).ok()).toBe(true);
  await tableShown(page, 'report-table');
}

/** Sign in as `who` in `locale` and open a report at `address`: its answer to `sent` drawn. */
async function openReport(
  page: Page,
  { locale, who, address }: { locale: Locale; who: 'admin' | 'merchant'; address: string },
  sent: Record<string, unknown>,
) {
  await useLocale(page, locale);
  await loginAs(page, who);
  await reportAnswer(page, address.startsWith('#/finance/profit') ? PROFIT_URL : SALES_URL, sent, () =>
    page.goto(address),
  );
}

/** The table's columns as shown, by key. */
function columnKeys(page: Page): Promise<(string | null)[]> {
  return page
    .getByTestId('report-table')
    .locator('thead th[data-column]')
    .evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-column')));
}

const grain = (page: Page, name: string) => page.getByTestId('report-grain').getByRole('radio', { name });
const dimension = (page: Page, name: string) => page.getByTestId('report-group-by').getByRole('checkbox', { name });

for (const locale of LOCALES) {
  test(`the profit report keeps its breakdown and grain in the address: reload and back (${locale})`, async ({
    page,
  }) => {
    const text = TEXT[locale];
    await openReport(page, { locale, who: 'admin', address: '#/finance/profit' }, { grain: 'day', group_by: '' });
    await expect(page).toHaveURL(reportAddress('/finance/profit', {}));
    const plain = await columnKeys(page);
    expect(plain).not.toContain('carrier');

    await reportAnswer(page, PROFIT_URL, { grain: 'day', group_by: 'carrier' }, () =>
      page.getByTestId('report-group-by').getByText(text.carrier).click(),
    );
    await reportAnswer(page, PROFIT_URL, { grain: 'month', group_by: 'carrier' }, () =>
      page.getByTestId('report-grain').getByText(text.month).click(),
    );
    await expect(page).toHaveURL(reportAddress('/finance/profit', { grain: 'month', groupBy: 'carrier' }));
    const chosen = await columnKeys(page);
    expect(chosen).toEqual(['period', 'carrier', ...plain.slice(1)]);

    // A reload keeps the filters, and so the same columns and months.
    await reportAnswer(page, PROFIT_URL, { grain: 'month', group_by: 'carrier' }, () => page.reload());
    await expect(grain(page, text.month)).toBeChecked();
    await expect(dimension(page, text.carrier)).toBeChecked();
    expect(await columnKeys(page)).toEqual(chosen);
    await expect(page.getByTestId('report-table').locator('tbody tr.ant-table-row td').first()).toHaveText(
      /^\d{4}-\d{2}$/,
    );
    await expectNoAxeViolations(page, `profit report with filters from the address (${locale})`);

    // Back: by day again, still by carrier; back once more: the report as it opened.
    await page.goBack();
    await expect(page).toHaveURL(reportAddress('/finance/profit', { groupBy: 'carrier' }));
    await expect(grain(page, text.day)).toBeChecked();
    await expect(dimension(page, text.carrier)).toBeChecked();
    await expect(page.getByTestId('report-table').locator('tbody tr.ant-table-row td').first()).toHaveText(
      /^\d{4}-\d{2}-\d{2}$/,
    );
    await page.goBack();
    await expect(page).toHaveURL(reportAddress('/finance/profit', {}));
    await expect(dimension(page, text.carrier)).not.toBeChecked();
    await expect(page.getByTestId('report-table').locator('th[data-column="carrier"]')).toHaveCount(0);
  });
}

for (const locale of LOCALES) {
  test(`a saved view of the profit report keeps its dates, grain and breakdown, and opens as the default (${locale})`, async ({
    page,
  }) => {
    const text = TEXT[locale];
    const name = `渠道月报 ${locale}`;
    const range = lastDays(90);
    const filters = { range: `${range.start}~${range.end}`, grain: 'month', groupBy: 'channel' };
    const sent = { start: range.start, end: range.end, grain: 'month', group_by: 'channel' };
    // A link with filters opens the report with them.
    const link = `#/finance/profit?${new URLSearchParams(filters).toString()}`;
    await openReport(page, { locale, who: 'admin', address: link }, sent);
    await expect(page.getByTestId('report-range').first()).toHaveValue(range.start);
    await expect(page.getByTestId('report-range').last()).toHaveValue(range.end);
    await expect(grain(page, text.month)).toBeChecked();
    await expect(dimension(page, text.channel)).toBeChecked();

    await openOverlay(page, page.getByTestId('saved-views-open'), page.getByTestId('saved-views-save'));
    await expectNoAxeViolations(page, `profit report's saved views menu (${locale})`);
    await page.screenshot({ path: `${screenshots}profit-report-views-${locale}.png` });
    await page.getByTestId('saved-views-save').click();
    await page.getByTestId('saved-view-name').fill(name);
    await page.getByTestId('saved-view-default').click();
    await page.getByTestId('saved-view-submit').click();
    await expect(page.getByTestId('saved-view-name')).toBeHidden();

    // Other filters: by day, unbroken.
    await reportAnswer(page, PROFIT_URL, { grain: 'day', group_by: 'channel' }, () =>
      page.getByTestId('report-grain').getByText(text.day).click(),
    );
    await reportAnswer(page, PROFIT_URL, { grain: 'day', group_by: '' }, () =>
      page.getByTestId('report-group-by').getByText(text.channel).click(),
    );
    await expect(page).toHaveURL(reportAddress('/finance/profit', { range: filters.range }));
    await expect(page.getByTestId('report-table').locator('th[data-column="channel"]')).toHaveCount(0);

    // The view brings its filters back.
    await openOverlay(page, page.getByTestId('saved-views-open'), page.getByTestId(`saved-view-${name}`));
    await page.getByTestId(`saved-view-${name}`).click();
    await expect(page).toHaveURL(reportAddress('/finance/profit', filters));
    await expect(page.getByTestId('report-range').first()).toHaveValue(range.start);
    await expect(page.getByTestId('report-range').last()).toHaveValue(range.end);
    await expect(grain(page, text.month)).toBeChecked();
    await expect(dimension(page, text.channel)).toBeChecked();
    await expect(page.getByTestId('report-table').locator('th[data-column="channel"]')).toBeVisible();

    // The default applies when the report opens without filters.
    await page.goto('#/finance/profit');
    await reportAnswer(page, PROFIT_URL, sent, () => page.reload());
    await expect(page).toHaveURL(reportAddress('/finance/profit', filters));
    await expect(dimension(page, text.channel)).toBeChecked();

    // No longer the default: the next test opens the plain report.
    await openOverlay(page, page.getByTestId('saved-views-open'), page.getByTestId('saved-views-manage'));
    await page.getByTestId('saved-views-manage').click();
    const cleared = nextAnswer(page, '/adminapi/views/default');
    await page.getByTestId(`saved-view-row-${name}`).getByTestId('saved-view-make-default').click();
    expect((await cleared).ok()).toBe(true);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('saved-views-list')).toBeHidden();
  });
}

for (const locale of LOCALES) {
  test(`the sales report keeps a merchant's filters on reload; a wrong address opens its defaults (${locale})`, async ({
    page,
  }) => {
    const text = TEXT[locale];
    await openReport(page, { locale, who: 'merchant', address: '#/finance/sales' }, { grain: 'day', group_by: '' });
    await reportAnswer(page, SALES_URL, { grain: 'month', group_by: '' }, () =>
      page.getByTestId('report-grain').getByText(text.month).click(),
    );
    await reportAnswer(page, SALES_URL, { grain: 'month', group_by: 'product' }, () =>
      page.getByTestId('report-by-product').click(),
    );
    await expect(page).toHaveURL(reportAddress('/finance/sales', { grain: 'month', groupBy: 'product' }));
    const chosen = await columnKeys(page);
    expect(chosen).toContain('product');

    await reportAnswer(page, SALES_URL, { grain: 'month', group_by: 'product' }, () => page.reload());
    await expect(grain(page, text.month)).toBeChecked();
    await expect(page.getByTestId('report-by-product')).toBeChecked();
    expect(await columnKeys(page)).toEqual(chosen);
    await overlaysSettled(page);
    await pageShot(page, `${screenshots}sales-report-filters-${locale}.png`);

    // Every field the address gets wrong falls back to its default; the server is asked
    // nothing it refuses, and a merchant is not the merchant's user's to choose.
    const answered = nextAnswer(page, SALES_URL, (body) => body.grain === 'day');
    await page.goto('#/finance/sales?range=2026-02-30~2026-03-02&grain=week&groupBy=merchant&merchantId=10002');
    const answer = await answered;
    expect(answer.ok()).toBe(true);
    const defaults = lastDays(30);
    expect(answer.request().postDataJSON()).toEqual({
      start: defaults.start,
      end: defaults.end,
      grain: 'day',
      group_by: '',
    });
    await tableShown(page, 'report-table');
    await expect(grain(page, text.day)).toBeChecked();
    await expect(page.getByTestId('report-by-product')).not.toBeChecked();
  });
}

test('a long report is shown a page at a time, and a new answer starts at its first page', async ({ page }) => {
  await openReport(
    page,
    { locale: 'en-US', who: 'admin', address: '#/finance/profit' },
    { grain: 'day', group_by: '' },
  );
  // By day and channel: the demo's 30 days, each with its channels, more rows than a page.
  const answered = nextAnswer(page, PROFIT_URL, (body) => body.group_by === 'channel');
  await page.getByTestId('report-group-by').getByText('Channel').click();
  const total: number = (await (await answered).json()).data.rows.length;
  expect(total).toBeGreaterThan(50);
  await tableShown(page, 'report-table');
  const rows = page.getByTestId('report-table').locator('tbody tr.ant-table-row');
  const pager = page.getByTestId('report-pagination');
  await expect(rows).toHaveCount(50);
  await expect(pager).toContainText(`${total} in total`);
  const firstOfPageOne = await rows.first().textContent();

  await pager.locator('.ant-pagination-item-2').click();
  await expect(rows).toHaveCount(Math.min(50, total - 50));
  await expect(rows.first()).not.toHaveText(firstOfPageOne ?? '');
  await expect(pager.locator('.ant-pagination-item-active')).toHaveText('2');

  // Another grain is another answer: its first page.
  await reportAnswer(page, PROFIT_URL, { grain: 'month', group_by: 'channel' }, () =>
    page.getByTestId('report-grain').getByText('Month').click(),
  );
  await expect(pager.locator('.ant-pagination-item-active')).toHaveText('1');
  await expectNoAxeViolations(page, 'profit report with its pager');
});
