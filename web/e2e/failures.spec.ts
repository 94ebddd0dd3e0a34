/**
 * Why an order failed, where the merchant looks (issue 15 point 5), and exports that survive
 * Excel (point 7): on its own server the sandbox channel refuses every top-up, so an order
 * placed on the add-order page fails; the page, the "order finished" notice (point 13) and
 * both export files say why, in the console's language; the files keep the 24-digit order
 * number as text and the amounts as numbers (in xlsx with a yuan format).
 */
import { readFileSync } from 'node:fs';
import type { Download, Page } from '@playwright/test';
import { chooseFromMenu, expect, loginAs, test, useLocale } from './support/console';
import { csvRawRows, csvRows } from './support/csv';
import { useOwnServer } from './support/spec-server';
import { readFirstSheet } from './support/xlsx';

// No demo history (the export holds exactly this test's orders), the sandbox alone (no
// simulated supplier that could succeed) and a sandbox that refuses every top-up at once —
// often before the page first fetches the order, which must still bring the notice.
useOwnServer({
  BACKOFFICE_DEMO_ORDERS: '0',
  BACKOFFICE_NO_DEMO_SIMULATORS: 'true',
  BACKOFFICE_SANDBOX_SUCCESS_RATIO: '0',
  BACKOFFICE_SANDBOX_DELAY_MS: '200',
});

const TEXTS = {
  'zh-CN': {
    reason: '运营商拒绝充值',
    finished: /^订单 \d{24} 充值失败，款项已退回可用金额$/,
    columns: { orderNo: '订单号', face: '面值(元)', price: '供货价(元)', reason: '失败原因' },
  },
  'en-US': {
    reason: 'The carrier refused the top-up',
    finished: /^Order \d{24} failed; its price is back in your spendable funds$/,
    columns: {
      orderNo: 'Order number',
      face: 'Face value (yuan)',
      price: 'Supply price (yuan)',
      reason: 'Failure reason',
    },
  },
} as const;

/** Place one MOBILE-DIRECT-10 order on the add-order page; its order number. */
async function placeOrder(page: Page): Promise<string> {
  await page.goto('#/order/addList');
  await page.getByTestId('add-order-account').fill('13800138000');
  const select = page.getByTestId('add-order-product');
  const option = page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
    .filter({ hasText: 'MOBILE-DIRECT-10' });
  await chooseFromMenu(
    () => select.click({ timeout: 3_000 }),
    option.first(),
    async () => ((await select.textContent()) ?? '').includes('MOBILE-DIRECT-10'),
  );
  const placed = page.waitForResponse((response) => response.url().endsWith('/adminapi/order/add'));
  await page.getByTestId('add-order-submit').click();
  const body = (await (await placed).json()) as { code: number; data: { order: { order_no: string } } };
  expect(body.code).toBe(20000);
  return body.data.order.order_no;
}

async function download(page: Page, testId: string): Promise<Download> {
  const file = page.waitForEvent('download');
  await page.getByTestId(testId).click();
  return file;
}

for (const locale of ['zh-CN', 'en-US'] as const) {
  const texts = TEXTS[locale];

  test(`a failed order shows its reason on the add-order page and in both exports (${locale})`, async ({ page }) => {
    test.setTimeout(180_000);
    await useLocale(page, locale);
    await loginAs(page, 'merchant');
    const orderNo = await placeOrder(page);
    expect(orderNo).toMatch(/^\d{24}$/);

    // The notice that the order finished, in the console's language.
    const notice = page.getByTestId('order-finished-notice');
    await expect(notice).toBeVisible({ timeout: 60_000 });
    await expect(notice).toHaveAttribute('data-status', '3');
    await expect(notice.locator('.ant-notification-notice-title')).toHaveText(texts.finished);
    await expect(notice.locator('.ant-notification-notice-title')).toContainText(orderNo);

    // The placed order's row: failure status, and the reason in its own column (not the serial number's).
    const row = page.getByTestId('added-orders').locator('tr', { hasText: orderNo });
    await expect(row.getByTestId('added-order-status')).toHaveAttribute('data-status', '3');
    await expect(row.getByTestId('added-order-failure')).toHaveText(texts.reason);
    await expect(row).not.toContainText('sandbox');

    // The order list's exports carry the reason, and keep what Excel would mangle.
    await page.goto('#/order/list');
    const listRow = page.getByTestId('order-table').locator('tbody tr.ant-table-row', { hasText: orderNo });
    await expect(listRow.getByTestId('order-failure-reason')).toHaveText(texts.reason);

    const csv = await download(page, 'export-csv');
    const text = readFileSync(await csv.path(), 'utf8').replace(/^\uFEFF/, '');
    const [header, ...lines] = csvRows(text);
    const raw = csvRawRows(text);
    const column = (title: string) => {
      const index = header.indexOf(title);
      expect(index, title).toBeGreaterThanOrEqual(0);
      return index;
    };
    const at = lines.findIndex((line) => line[column(texts.columns.orderNo)] === orderNo);
    expect(at, `${orderNo} in the CSV`).toBeGreaterThanOrEqual(0);
    expect(lines[at][column(texts.columns.reason)]).toBe(texts.reason);
    // The order number exactly as stored, nothing added, for scripts that match it (Excel
    // users take the xlsx, where it is a text cell: below).
    expect(raw[at + 1][column(texts.columns.orderNo)]).toBe(`"${orderNo}"`);
    // Amounts are bare numbers in yuan.
    expect(raw[at + 1][column(texts.columns.face)]).toBe('10.00');
    expect(raw[at + 1][column(texts.columns.price)]).toBe('9.85');

    const xlsx = await download(page, 'export-xlsx');
    expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
    const [titles, ...cells] = readFirstSheet(readFileSync(await xlsx.path()));
    const xlsxColumn = (title: string) => {
      const index = titles.findIndex((cell) => cell?.value === title);
      expect(index, title).toBeGreaterThanOrEqual(0);
      return index;
    };
    const xlsxRow = cells.find((line) => line[xlsxColumn(texts.columns.orderNo)]?.value === orderNo);
    expect(xlsxRow, `${orderNo} in the xlsx`).toBeDefined();
    // The order number is a string cell: all 24 digits, as text.
    expect(xlsxRow![xlsxColumn(texts.columns.orderNo)]?.kind).toBe('string');
    // Amounts are numbers (SUM works) shown in yuan.
    for (const [title, value] of [
      [texts.columns.face, 10],
      [texts.columns.price, 9.85],
    ] as const) {
      const cell = xlsxRow![xlsxColumn(title)];
      expect(cell?.kind, title).toBe('number');
      expect(Number(cell?.value), title).toBe(value);
      expect(cell?.format, title).toContain('¥');
    }
    expect(xlsxRow![xlsxColumn(texts.columns.reason)]).toMatchObject({ kind: 'string', value: texts.reason });
  });
}
