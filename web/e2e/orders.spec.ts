/**
 * Orders, quotes and money pages against the real server: placing, batch placing, the
 * three order lists, exports, the price list, the account log and merchant funding.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Download, Page } from '@playwright/test';
import {
  expandFilters,
  expect,
  loadList,
  loginAs,
  nextAnswer,
  openOverlay,
  ORDER_LIST,
  pageShot,
  pickOption,
  searchOption,
  signOut,
  tableShown,
  test,
  useLocale,
} from './support/console';
import { csvRows } from './support/csv';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

async function readDownload(download: Download): Promise<string> {
  const path = await download.path();
  return readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
}

/**
 * Click the filter form's search and wait until the table shows the answer to that search:
 * the list keeps the previous rows on screen while it fetches, so checking right after the
 * click could read the old rows.
 */
async function searchAndWait(
  page: Page,
  list: { url: string; button: string; table: string },
  expected: Record<string, unknown>,
) {
  const answered = page.waitForResponse((response) => {
    const request = response.request();
    if (!request.url().includes(list.url)) return false;
    const body = JSON.parse(request.postData() ?? '{}') as Record<string, unknown>;
    return Object.entries(expected).every(([key, value]) => body[key] === value) && !body.cursor;
  });
  await page.getByTestId(list.button).click();
  const response = await answered;
  await expect(page.getByTestId(list.table).locator('.ant-spin-spinning')).toHaveCount(0);
  return response;
}

const ORDER_SEARCH = { url: '/adminapi/order/list', button: 'filter-search', table: 'order-table' };
const ACCOUNT_LIST = { url: '/adminapi/finance/account/list', button: 'account-search', table: 'account-table' };

function searchOrders(page: Page, expected: Record<string, unknown>) {
  return searchAndWait(page, ORDER_SEARCH, expected);
}

async function totalOf(page: Page, testId: string): Promise<number> {
  const text = (await page.getByTestId(testId).textContent()) ?? '';
  return Number(/(\d+)/.exec(text.replace(/,/g, ''))?.[1] ?? NaN);
}

test.describe('orders', () => {
  test('an added order is priced first and reaches success', async ({ page }) => {
    test.setTimeout(240_000);
    await useLocale(page, 'zh-CN');
    await loginAs(page, 'merchant');
    await expect(page.getByTestId('stat-balance')).toBeVisible();
    await page.goto('#/order/addList');
    await expect(page.getByTestId('add-order-page')).toBeVisible();

    // The client check names the carrier of the segment and refuses bad numbers.
    await page.getByTestId('add-order-account').fill('123');
    await page.getByTestId('add-order-account').blur();
    await expect(page.getByText('充值账号必须是 11 位中国大陆手机号码')).toBeVisible();

    // The sandbox channel fails one order in ten: place again until one succeeds (at most 4).
    for (let attempt = 0; attempt < 4; attempt++) {
      await page.getByTestId('add-order-account').fill('13800138000');
      // The segment table the server ships places the number (1380013: Beijing, China Mobile).
      await expect(page.getByTestId('add-order-segment')).toHaveText('北京 · 中国移动');
      if (attempt === 0) {
        await pickOption(page, 'add-order-product', 'MOBILE-DIRECT-10');
        await expect(page.getByTestId('add-order-price')).toHaveText('9.85');
        await expect(page.getByTestId('add-order-submit')).toContainText('¥9.85');
      }
      await page.getByTestId('add-order-submit').click();
      const status = page.getByTestId('added-order-status').first();
      await expect(page.getByTestId('added-orders').locator('tbody tr.ant-table-row')).toHaveCount(attempt + 1);
      await expect(status).toHaveAttribute('data-status', /^[23]$/, { timeout: 60_000 });
      if ((await status.getAttribute('data-status')) === '2') break;
    }
    await expect(page.getByTestId('added-order-status').first()).toHaveAttribute('data-status', '2');
    await expect(page.getByTestId('added-order-status').first()).toHaveText('成功');
    await page.screenshot({ path: `${screenshots}orders-zh-CN-add-order.png`, fullPage: true });

    // A carrier mismatch asks for confirmation before anything is charged.
    await page.getByTestId('add-order-account').fill('13000000000');
    await expect(page.getByTestId('add-order-carrier-mismatch')).toBeVisible();
    await page.getByTestId('add-order-submit').click();
    await expect(page.getByText('号段与商品运营商不一致，请确认后再下单')).toBeVisible();
  });

  test('batch upload previews every line, submits the valid ones and gives a per-line result', async ({ page }) => {
    await useLocale(page, 'en-US');
    await loginAs(page, 'merchant');
    await page.goto('#/order/allAddList');
    await expect(page.getByTestId('batch-add-page')).toBeVisible();

    const stamp = Date.now();
    const file = join(tmpdir(), `batch-${stamp}.csv`);
    writeFileSync(
      file,
      [
        'Recharge account,Product key,Merchant order id',
        `13800138000,MOBILE-DIRECT-10,E2E-${stamp}-1`,
        `123,MOBILE-DIRECT-10,E2E-${stamp}-2`,
        `13000000000,MOBILE-DIRECT-10,E2E-${stamp}-3`,
        `13800138001,NO-SUCH-PRODUCT,E2E-${stamp}-4`,
        `13800138002,MOBILE-DIRECT-20,E2E-${stamp}-1`,
        `18912345678,TELECOM-DIRECT-10,E2E-${stamp}-6`,
      ].join('\n'),
    );
    const templateDownload = page.waitForEvent('download');
    await page.getByTestId('template-csv').click();
    expect(await readDownload(await templateDownload)).toContain('Recharge account');

    await page.getByTestId('batch-add-page').locator('input[type=file]').setInputFiles(file);
    await expect(page.getByTestId('batch-preview')).toBeVisible();
    await expect(page.getByTestId('preview-total')).toContainText('6');
    await expect(page.getByTestId('preview-valid')).toContainText('2');
    await expect(page.getByTestId('preview-invalid')).toContainText('4');
    const reasons = page.getByTestId('preview-reason');
    await expect(reasons).toHaveCount(4);
    expect(await reasons.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-reason')))).toEqual([
      'order.account.invalid',
      'order.account.carrier_mismatch',
      'order.product.unknown',
      'batch.duplicate_in_file',
    ]);
    await expect(page.getByTestId('preview-errors')).toContainText('No product has this product key');
    await page.screenshot({ path: `${screenshots}orders-en-US-batch-preview.png`, fullPage: true });

    await openOverlay(page, page.getByTestId('batch-submit'), page.getByTestId('batch-confirm-ok'));
    await expect(page.getByTestId('batch-confirm-body')).toContainText('2 orders will be placed');
    await page.getByTestId('batch-confirm-ok').click();
    await expect(page.getByTestId('batch-submitted')).toContainText('2 placed, 0 refused');
    const row = page.getByTestId('batch-list').locator('tbody tr.ant-table-row').first();
    await expect(row).toContainText(`batch-${stamp}.csv`);
    const resultDownload = page.waitForEvent('download');
    await row.getByTestId('batch-result-download').click();
    const rows = csvRows(await readDownload(await resultDownload));
    expect(rows).toHaveLength(7); // title + six lines
    const body = rows.slice(1);
    expect(body.map((line) => line[0])).toEqual(['2', '3', '4', '5', '6', '7']);
    expect(body.filter((line) => line.join(',').includes('placed')).length).toBe(2);
  });

  for (const locale of ['en-US', 'zh-CN'] as const) {
    test(`batch add in ${locale}: listed at once, ported numbers confirmed, repeats flagged, total confirmed, previews discarded`, async ({
      page,
    }) => {
      const en = locale === 'en-US';
      await useLocale(page, locale);
      await loginAs(page, 'merchant');
      await page.goto('#/order/allAddList');
      await expect(page.getByTestId('batch-add-page')).toBeVisible();
      // 130 is a China Unicom segment: with a mobile product it needs the ported confirmation.
      await page.getByRole('tab', { name: en ? 'Paste lines' : '粘贴文本' }).click();
      await page.getByTestId('batch-paste').fill('13000000000,MOBILE-DIRECT-10');
      await page.getByTestId('batch-paste-preview').click();
      const preview = page.getByTestId('batch-preview');
      await expect(preview).toBeVisible();
      const firstId = (await preview.locator('.ant-card-head-title').innerText()).match(/\d+/)![0];
      // The list already shows the new preview.
      const firstRow = page.getByTestId('batch-list').locator('tbody tr.ant-table-row').first();
      await expect(firstRow.locator('td').first()).toHaveText(firstId);
      await expect(page.getByTestId('preview-reason')).not.toContainText('allow_ported');
      await expect(page.getByTestId('batch-ported')).toBeVisible();
      await page.getByTestId('batch-ported-confirm').click();
      await expect(preview.locator('.ant-card-head-title')).not.toContainText(firstId);
      await expect(page.getByTestId('preview-valid')).toContainText('1');
      // The replaced preview was discarded: it is no longer listed.
      await expect(page.getByTestId('batch-list').locator('tbody tr.ant-table-row td:first-child')).not.toHaveText([
        firstId,
      ]);
      await expect(page.getByTestId('batch-submit')).toHaveText(
        en ? /^Submit 1 valid order \(¥/ : /^提交 1 个有效订单/,
      );
      await page.screenshot({ path: `${screenshots}orders-${locale}-batch-ported.png`, fullPage: true });
      await openOverlay(page, page.getByTestId('batch-submit'), page.getByTestId('batch-confirm-ok'));
      await expect(page.getByTestId('batch-confirm-body')).toContainText(en ? '1 order will be placed' : '将下单 1 个');
      await page.screenshot({ path: `${screenshots}orders-${locale}-batch-confirm.png`, fullPage: true });
      await page.getByTestId('batch-confirm-ok').click();
      await expect(page.getByTestId('batch-submitted')).toBeVisible();

      // The same line pasted again, without a merchant order id: flagged before charging.
      await page.getByTestId('batch-paste').fill('13000000000,MOBILE-DIRECT-10\n13900139000,MOBILE-DIRECT-10');
      await page.getByTestId('batch-paste-preview').click();
      await expect(page.getByTestId('batch-ported')).toBeVisible();
      await page.getByTestId('batch-ported-confirm').click();
      await expect(page.getByTestId('batch-recent-duplicates')).toBeVisible();
      await expect(page.getByTestId('batch-recent-duplicates')).toContainText(en ? 'line numbers: 1' : '第 1 行');
      await page.screenshot({ path: `${screenshots}orders-${locale}-batch-duplicates.png`, fullPage: true });
      // Discarded instead of submitted: gone from the list.
      const thisId = (await preview.locator('.ant-card-head-title').innerText()).match(/\d+/)![0];
      await page.getByTestId('batch-discard').click();
      await expect(page.getByTestId('batch-preview')).toHaveCount(0);
      await expect(
        page.getByTestId('batch-list').locator('tbody tr.ant-table-row').first().locator('td').first(),
      ).not.toHaveText(thisId);
    });
  }

  test.describe('in a browser outside China', () => {
    test.use({ timezoneId: 'America/New_York' });

    test('the filtered order list exports exactly its rows', async ({ page }) => {
      await useLocale(page, 'en-US');
      await loginAs(page, 'merchant');
      await page.goto('#/order/list');
      await expect(page.getByTestId('order-table')).toBeVisible();
      // History, not today: just after midnight in Beijing today may have no failure yet.
      await expandFilters(page, 'order-filters');
      await pickOption(page, 'filter-order-type', 'History orders');
      await pickOption(page, 'filter-status', 'Failure');
      await searchOrders(page, { kind: 'ordinary', order_type: 'history', status: 3 });
      await expect(page.getByTestId('order-table').locator('tbody tr.ant-table-row').first()).toBeVisible();
      const total = await totalOf(page, 'order-total');
      expect(total).toBeGreaterThan(0);
      for (const tag of await page.getByTestId('order-status').all()) await expect(tag).toHaveText('Failure');

      const download = page.waitForEvent('download');
      await page.getByTestId('export-csv').click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/^orders-ordinary-\d{8}-\d{6}\.csv$/);
      const rows = csvRows(await readDownload(file));
      const header = rows[0];
      const statusColumn = header.indexOf('Status');
      expect(header.slice(0, 3)).toEqual(['Merchant order id', 'Order number', 'System order id']);
      expect(rows.length - 1).toBe(total);
      for (const line of rows.slice(1)) expect(line[statusColumn]).toBe('failure');
      // Times read the same on screen and in the file: both Beijing time, whatever the browser's
      // zone (this test's browser is in New York).
      const firstRow = page.getByTestId('order-table').locator('tbody tr.ant-table-row').first();
      const merchantOrderId = (await firstRow.locator('td').first().innerText()).trim();
      const inFile = rows.find((line) => line[0] === merchantOrderId);
      expect(inFile, merchantOrderId).toBeDefined();
      await expect(firstRow).toContainText(inFile![header.indexOf('Order time')]);

      const xlsx = page.waitForEvent('download');
      await page.getByTestId('export-xlsx').click();
      expect((await xlsx).suggestedFilename()).toMatch(/\.xlsx$/);
    });
  });

  for (const locale of ['zh-CN', 'en-US'] as const) {
    test(`filters and keyset pagination in ${locale}`, async ({ page }) => {
      await useLocale(page, locale);
      await loginAs(page, 'merchant');
      await loadList(page, () => page.goto('#/order/list'), ORDER_LIST);
      const table = page.getByTestId('order-table');
      const all = await totalOf(page, 'order-total');

      await expandFilters(page, 'order-filters');
      await pickOption(page, 'filter-carrier', locale === 'zh-CN' ? '中国联通' : 'China Unicom');
      await pickOption(page, 'filter-has-serial', locale === 'zh-CN' ? '有流水号' : 'Has serial number');
      await searchOrders(page, { kind: 'ordinary', carrier: 'unicom', has_serial: true });
      await expect.poll(() => totalOf(page, 'order-total')).toBeLessThan(all);
      const filtered = await totalOf(page, 'order-total');
      expect(filtered).toBeGreaterThan(20);
      const firstPage = await table.locator('tbody tr.ant-table-row td[data-column=order_no]').allTextContents();
      for (const name of await table.locator('tbody tr.ant-table-row td[data-column=product_name]').allTextContents())
        expect(name).toContain('联通');

      // Page 2 starts from page 1's cursor (keyset), not an offset.
      const answered = nextAnswer(page, ORDER_LIST.path, (sent) => Boolean(sent.cursor));
      await page.getByTestId('order-pagination').locator('.ant-pagination-next').click();
      const response = await answered;
      expect(response.ok()).toBe(true);
      await tableShown(page, ORDER_LIST.table);
      const body = JSON.parse(response.request().postData() ?? '{}') as Record<string, unknown>;
      expect(body).toMatchObject({
        kind: 'ordinary',
        carrier: 'unicom',
        has_serial: true,
        sort: 'desc',
        page_size: 20,
      });
      expect(body.cursor).toBeTruthy();
      await expect(page.getByTestId('order-pagination').locator('.ant-pagination-item-active')).toHaveText('2');
      await expect
        .poll(() => table.locator('tbody tr.ant-table-row td[data-column=order_no]').first().textContent())
        .not.toBe(firstPage[0]);
      const secondPage = await table.locator('tbody tr.ant-table-row td[data-column=order_no]').allTextContents();
      expect(secondPage.filter((no) => firstPage.includes(no))).toEqual([]);
      // Newest first: page 2's orders are older than page 1's (order numbers start with the time).
      expect(secondPage[0] < firstPage[firstPage.length - 1]).toBe(true);

      // The detail drawer shows the timeline and the account-change records.
      await openOverlay(page, table.getByTestId('order-no-link').first(), page.getByTestId('order-timeline'));
      await expect(page.getByTestId('order-detail')).toContainText(locale === 'zh-CN' ? '下单扣款' : 'Order debit');
      await page.screenshot({ path: `${screenshots}orders-${locale}-order-detail.png`, fullPage: true });
    });
  }

  for (const locale of ['zh-CN', 'en-US'] as const) {
    test(`orders by the number's province in ${locale}`, async ({ page }) => {
      await useLocale(page, locale);
      await loginAs(page, 'merchant');
      await loadList(page, () => page.goto('#/order/list'), ORDER_LIST);
      const all = await totalOf(page, 'order-total');
      await expandFilters(page, 'order-filters');
      await searchOption(page, 'filter-province', locale === 'zh-CN' ? '广东' : 'Guangdong');
      const answer = await searchOrders(page, { kind: 'ordinary', province: 440000 });
      const { data } = (await answer.json()) as { data: { list: { province: string | null }[] } };
      // The demo history's numbers have their places: some are Guangdong's, and only those show.
      expect(data.list.length).toBeGreaterThan(0);
      for (const order of data.list) expect(order.province).toBe('广东');
      await expect.poll(() => totalOf(page, 'order-total')).toBeLessThan(all);
      const table = page.getByTestId('order-table');
      await openOverlay(page, table.getByTestId('order-no-link').first(), page.getByTestId('order-timeline'));
      await expect(page.getByTestId('order-detail')).toContainText(locale === 'zh-CN' ? '广东' : 'Guangdong');
      await page.keyboard.press('Escape');
      await page.screenshot({ path: `${screenshots}orders-${locale}-by-province.png`, fullPage: true });
    });
  }

  test('card secrets are revealed on request, on-behalf actions are for administrators', async ({ page }) => {
    await useLocale(page, 'en-US');
    await loginAs(page, 'merchant');
    await page.goto('#/order/cardList');
    await pickOption(page, 'filter-status', 'Success');
    await searchOrders(page, { kind: 'card', status: 2 });
    await expect(page.getByTestId('order-status').first()).toHaveText('Success');
    await expect(page.getByTestId('order-status').last()).toHaveText('Success');
    await openOverlay(page, page.getByTestId('order-no-link').first(), page.getByTestId('card-reveal'));
    await page.getByTestId('card-reveal').click();
    await expect(page.getByTestId('card-secret')).toContainText('Card secret');
    await page.keyboard.press('Escape');

    await page.goto('#/order/behalfList');
    await expect(page.getByTestId('order-table').locator('tbody tr.ant-table-row').first()).toBeVisible();
    await expect(page.getByTestId('resolve-success')).toHaveCount(0);
  });

  test('an administrator resolves an on-behalf order', async ({ page }) => {
    await useLocale(page, 'en-US');
    await loginAs(page, 'admin');
    // An on-behalf order of its own awaits a person: the demo data's share of pending ones
    // is random and can be none.
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const placed = await page.request.post('/adminapi/order/add', {
      headers: { Authorization: `Bearer ${token}` },
      data: { merchant_id: 10001, account: '13800138000', product_key: 'MOBILE-DIRECT-10', behalf: true },
    });
    expect((await placed.json()).code).toBe(20000);
    await page.goto('#/order/behalfList');
    await pickOption(page, 'filter-status', 'Pending');
    await searchOrders(page, { kind: 'behalf', status: 0 });
    await expect(page.getByTestId('order-status').first()).toHaveText('Pending');
    const before = await totalOf(page, 'order-total');
    await openOverlay(page, page.getByTestId('resolve-success').first(), page.getByTestId('resolve-text'));
    await page.getByTestId('resolve-text').fill(`SN-E2E-${Date.now()}`);
    await page.getByTestId('resolve-confirm').click();
    await expect(page.getByText('Order resolved')).toBeVisible();
    await expect.poll(() => totalOf(page, 'order-total')).toBe(before - 1);
  });
});

test.describe('money pages', () => {
  test('account-change records filter by change type and export', async ({ page }) => {
    await useLocale(page, 'zh-CN');
    await loginAs(page, 'merchant');
    await page.goto('#/finance/account');
    await expect(page.getByTestId('account-table').locator('tbody tr.ant-table-row').first()).toBeVisible();
    await pickOption(page, 'account-filter-change-type', '失败退款');
    await searchAndWait(page, ACCOUNT_LIST, { change_type: 'refund' });
    const total = await totalOf(page, 'account-total');
    expect(total).toBeGreaterThan(0);
    const types = await page
      .getByTestId('account-table')
      .locator('tbody tr.ant-table-row td[data-column=change_type]')
      .allTextContents();
    expect(new Set(types)).toEqual(new Set(['失败退款']));
    const download = page.waitForEvent('download');
    await page.getByTestId('export-csv').click();
    expect(csvRows(await readDownload(await download)).length - 1).toBe(total);
  });

  test('an administrator tops a merchant up by a yuan amount', async ({ page }) => {
    await useLocale(page, 'en-US');
    await loginAs(page, 'admin');
    await page.goto('#/finance/merchants');
    const row = page.getByTestId('merchant-table').locator('tbody tr.ant-table-row').first();
    await expect(row).toBeVisible();
    const balanceCell = row.locator('td[data-column=balance_fen]');
    const before = (await balanceCell.textContent()) ?? '';
    await openOverlay(page, row.getByTestId('merchant-topup'), page.getByTestId('merchant-action-amount'));
    await page.getByTestId('merchant-action-amount').fill('0.29');
    await page.getByTestId('merchant-action-next').click();
    // A second look: the amount is echoed before money moves.
    await expect(page.getByTestId('merchant-action-echo')).toContainText('¥0.29');
    await page.getByTestId('merchant-action-confirm').click();
    await expect(page.getByText('Done')).toBeVisible();
    const fen = (text: string) => Number(text.replace(/[,.]/g, ''));
    await expect.poll(async () => fen((await balanceCell.textContent()) ?? '')).toBe(fen(before) + 29);
  });
});

const PAGES = [
  ['workplace', '#/dashboard/workplace', 'workplace-chart'],
  ['order-list', '#/order/list', 'order-table'],
  ['card-list', '#/order/cardList', 'order-table'],
  ['behalf-list', '#/order/behalfList', 'order-table'],
  ['add-order', '#/order/addList', 'add-order-form'],
  ['batch-add', '#/order/allAddList', 'batch-list'],
  ['quotes', '#/qoute/list', 'quote-table'],
  ['account-records', '#/finance/account', 'account-table'],
] as const;

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`order pages render in ${locale} (screenshots)`, async ({ page }) => {
    await useLocale(page, locale);
    await loginAs(page, 'merchant');
    for (const [name, path, testId] of PAGES) {
      await page.goto(path);
      await expect(page.getByTestId(testId)).toBeVisible();
      await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
      await pageShot(page, `${screenshots}orders-${locale}-${name}.png`);
    }
    await signOut(page);

    await loginAs(page, 'admin');
    await expect(page.getByTestId('workplace-merchant-picker')).toBeVisible();
    await expect(page.getByTestId('stat-balance')).toBeVisible();
    await page.screenshot({ path: `${screenshots}orders-${locale}-admin-workplace.png`, fullPage: true });
    await page.goto('#/finance/merchants');
    await expect(page.getByTestId('merchant-table').locator('tbody tr.ant-table-row').first()).toBeVisible();
    await page.screenshot({ path: `${screenshots}orders-${locale}-merchants.png`, fullPage: true });
  });
}
