/**
 * A batch preview survives a reload and leaving the page: it is in the address, and the batch
 * list reopens it for submitting (placed once, however often the confirm is clicked). The
 * batch list says what became of each batch, and the order list shows a failed order's
 * reason and a long merchant order id on a 1440 px screen without scrolling sideways.
 *
 * On a server of its own whose sandbox refuses every top-up: each placed order fails, so the
 * outcomes are known.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page, Request } from '@playwright/test';
import { expect, loginAs, openOverlay, pageShot, test, useLocale, WITHOUT_TOASTS } from './support/console';
import { useOwnServer } from './support/spec-server';

useOwnServer({
  BACKOFFICE_DEMO_ORDERS: '0',
  BACKOFFICE_NO_DEMO_SIMULATORS: 'true',
  BACKOFFICE_SANDBOX_SUCCESS_RATIO: '0',
  BACKOFFICE_SANDBOX_DELAY_MS: '200',
});

const SHOTS = '/tmp/shots/batch/';
mkdirSync(SHOTS, { recursive: true });

const TEXT = {
  'zh-CN': { batchStatus: '批次状态', submitted: '已提交', reason: '运营商拒绝充值', open: /^继\s?续$/ },
  'en-US': {
    batchStatus: 'Batch status',
    submitted: 'Submitted',
    reason: 'The carrier refused the top-up',
    open: 'Open',
  },
} as const;

/** A China Mobile number no other test orders for. */
const freshNumber = () => `138${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

/** How many orders of the signed-in merchant carry `merchantOrderId`, read from the API. */
async function ordersWithId(page: Page, merchantOrderId: string): Promise<number> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const response = await page.request.post('/adminapi/order/list', {
    data: { kind: 'all', merchant_order_id: merchantOrderId, page: 1, page_size: 20 },
    headers: { Authorization: `Bearer ${token}` },
  });
  const body = (await response.json()) as { data: { list: { merchant_order_id: string }[] } };
  return body.data.list.filter((order) => order.merchant_order_id === merchantOrderId).length;
}

/** The signed-in merchant's batch named `name`, as the batch list call answers it. */
async function batchRow(page: Page, name: string): Promise<Record<string, number> | undefined> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const response = await page.request.post('/adminapi/order/batch/list', {
    data: { page: 1, page_size: 20 },
    headers: { Authorization: `Bearer ${token}` },
  });
  const body = (await response.json()) as { data: { list: (Record<string, number> & { file_name: string })[] } };
  return body.data.list.find((batch) => batch.file_name === name);
}

function watchCalls(page: Page, path: string): Request[] {
  const calls: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith(path)) calls.push(request);
  });
  return calls;
}

/** The cell of `column` in `row`. */
const cell = (row: Locator, column: string) => row.locator(`td[data-column=${column}]`);

for (const locale of ['zh-CN', 'en-US'] as const) {
  const text = TEXT[locale];

  test(`a preview survives a reload, is reopened from the list and placed once; outcomes and the order list (${locale})`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await useLocale(page, locale);
    await loginAs(page, 'merchant');
    const submitting = watchCalls(page, '/adminapi/order/batch/submit');
    await page.goto('#/order/allAddList');
    await expect(page.getByTestId('batch-add-page')).toBeVisible();

    // Four lines: one with a 32-character merchant order id, one without, a bad number, and
    // the line without an id repeated (flagged as a repeat within the file).
    const stamp = `${Date.now()}${locale === 'zh-CN' ? 'Z' : 'E'}`;
    const longId = `LONG-${stamp}`.padEnd(32, 'X');
    expect(longId).toHaveLength(32);
    const [first, second] = [freshNumber(), freshNumber()];
    const name = `reopen-${stamp}.csv`;
    const file = join(tmpdir(), name);
    writeFileSync(
      file,
      [
        'account,product_key,merchant_order_id',
        `${first},MOBILE-DIRECT-10,${longId}`,
        `${second},MOBILE-DIRECT-10`,
        '1380013800,MOBILE-DIRECT-10,BAD',
        `${second},MOBILE-DIRECT-10`,
      ].join('\n'),
    );
    await page.getByTestId('batch-add-page').locator('input[type=file]').setInputFiles(file);
    const preview = page.getByTestId('batch-preview');
    await expect(preview).toBeVisible();
    await expect(page).toHaveURL(/[?&]batch=\d+/);
    const batchId = /[?&]batch=(\d+)/.exec(page.url())![1];
    const expectThePreview = async () => {
      await expect(preview.locator('.ant-card-head-title')).toContainText(batchId);
      await expect(page.getByTestId('preview-total')).toContainText('4');
      await expect(page.getByTestId('preview-valid')).toContainText('3');
      await expect(page.getByTestId('preview-invalid')).toContainText('1');
      await expect(page.getByTestId('batch-recent-duplicates')).toBeVisible();
      await expect(preview.getByTestId('preview-reason')).toHaveAttribute('data-reason', 'order.account.invalid');
    };
    await expectThePreview();
    await pageShot(page, `${SHOTS}${locale}-1440-upload.png`, { style: WITHOUT_TOASTS });

    // A reload reopens it from the address.
    await page.reload();
    await expectThePreview();

    // Back leaves it (the page before the upload); the list reopens it.
    await page.goBack();
    await expect(page).not.toHaveURL(/[?&]batch=/);
    await expect(preview).toHaveCount(0);
    const row = page.getByTestId('batch-list').locator('tbody tr.ant-table-row', { hasText: name });
    await expect(row.getByTestId('batch-list-open')).toHaveText(text.open);
    await row.getByTestId('batch-list-open').click();
    await expect(page).toHaveURL(new RegExp(`[?&]batch=${batchId}`));
    await expectThePreview();
    await pageShot(page, `${SHOTS}${locale}-1440-reopened.png`, { style: WITHOUT_TOASTS });
    await page.setViewportSize({ width: 390, height: 844 });
    await pageShot(page, `${SHOTS}${locale}-390-reopened.png`, { style: WITHOUT_TOASTS });
    await page.setViewportSize({ width: 1440, height: 900 });

    // Submitted as from the upload: a double click places once, with one key.
    await openOverlay(page, page.getByTestId('batch-submit'), page.getByTestId('batch-confirm-ok'));
    const answered = page.waitForResponse((response) => response.url().endsWith('/adminapi/order/batch/submit'));
    await page.getByTestId('batch-confirm-ok').dblclick();
    expect((await answered).ok()).toBe(true);
    await expect(page.getByTestId('batch-submitted')).toBeVisible();
    expect(new Set(submitting.map((call) => call.headers()['idempotency-key'])).size).toBe(1);
    await expect.poll(() => ordersWithId(page, longId)).toBe(1);
    // Reloaded, the submitted batch shows its outcome, and cannot be opened again.
    await page.reload();
    await expect(page.getByTestId('batch-submitted')).toBeVisible();
    await expect(page.getByTestId('batch-submit')).toHaveCount(0);
    await expect(row.getByTestId('batch-list-open')).toHaveCount(0);

    // The list: batch status, lines, placed, refused, and the orders' outcome once known
    // (the sandbox refuses each top-up).
    await expect(page.locator('th[data-column=status]')).toHaveText(text.batchStatus);
    await expect(cell(row, 'status')).toHaveText(text.submitted);
    // Waited for through the API (the sandbox answers each order within seconds), then shown.
    await expect.poll(async () => (await batchRow(page, name))?.failed_orders, { timeout: 90_000 }).toBe(3);
    await page.reload();
    await expect(cell(row, 'failed_orders')).toHaveText('3');
    for (const [column, value] of [
      ['total_rows', '4'],
      ['placed_rows', '3'],
      ['refused_rows', '1'],
      ['succeeded_orders', '0'],
      ['in_progress_orders', '0'],
    ] as const) {
      await expect(cell(row, column)).toHaveText(value);
    }
    await expectNoSidewaysScroll(page.getByTestId('batch-list'));
    await pageShot(page, `${SHOTS}${locale}-1440-batch-list.png`, { style: WITHOUT_TOASTS });
    await page.setViewportSize({ width: 390, height: 844 });
    await pageShot(page, `${SHOTS}${locale}-390-batch-list.png`, { style: WITHOUT_TOASTS });
    await page.setViewportSize({ width: 1440, height: 900 });

    // The order list at 1440 px: the failed order's reason on screen, every header whole, no
    // sideways scroll, and the 32-character id readable (whole, or in its tooltip).
    await page.goto('#/order/list');
    const table = page.getByTestId('order-table');
    const order = table.locator('tbody tr.ant-table-row', { hasText: first });
    await expect(order.getByTestId('order-failure-reason')).toHaveText(text.reason);
    await expectInViewport(page, cell(order, 'failure_reason'));
    await expectNoSidewaysScroll(table);
    // But the actions' (pinned at the right, not wrapped, its width set for its title).
    for (const header of await table.locator('thead th[data-column]:not([data-column=actions])').all()) {
      const whole = await header.evaluate(
        (th) => th.scrollWidth <= th.clientWidth && th.scrollHeight <= th.clientHeight,
      );
      expect(whole, `header ${await header.textContent()}`).toBe(true);
      await expectInViewport(page, header);
    }
    const idCell = cell(order, 'merchant_order_id');
    await expectInViewport(page, idCell);
    const shown = idCell.locator('.list-table__cut');
    if (await shown.evaluate((box) => box.scrollWidth > box.clientWidth)) {
      await shown.hover();
      await expect(page.locator('.ant-tooltip:not(.ant-tooltip-hidden)')).toHaveText(longId);
      await page.mouse.move(0, 0);
    } else {
      await expect(shown).toHaveText(longId);
    }
    await pageShot(page, `${SHOTS}${locale}-1440-order-list.png`, { style: WITHOUT_TOASTS });
    await page.setViewportSize({ width: 390, height: 844 });
    await pageShot(page, `${SHOTS}${locale}-390-order-list.png`, { style: WITHOUT_TOASTS });
  });
}

/** The table fits its box: nothing to scroll sideways to. */
async function expectNoSidewaysScroll(table: Locator) {
  const sizes = await table.evaluate((element) => {
    const scroller = element.querySelector('.ant-table-content, .ant-table-body') as HTMLElement;
    return { scroll: scroller.scrollWidth, client: scroller.clientWidth };
  });
  // A pixel over is the rounding of fractional column widths, not a scroll anyone sees.
  expect(sizes.scroll, JSON.stringify(sizes)).toBeLessThanOrEqual(sizes.client + 1);
}

/** Wholly inside the window and visible. */
async function expectInViewport(page: Page, target: Locator) {
  await expect(target).toBeVisible();
  const box = (await target.boundingBox())!;
  const size = page.viewportSize()!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, (await target.textContent()) ?? '').toBeLessThanOrEqual(size.width);
}
