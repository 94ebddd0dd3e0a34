/**
 * A double click never moves money twice and never skips a second look: the administrator's
 * money dialog stops on its review step, and the add-order and batch pages place once.
 */
import type { Locator, Page } from '@playwright/test';
import { chooseFromMenu, expect, loginAs, openOverlay, requestsTo, test, useLocale } from './support/console';

const LOCALES = ['zh-CN', 'en-US'] as const;

const fen = (text: string | null) => Number((text ?? '').replace(/[^0-9-]/g, ''));

/** A China Mobile number no other test orders for. */
const freshMobileNumber = () => `138${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

/** How many orders of the signed-in merchant are for `account`, read from the API with its token. */
async function ordersFor(page: Page, account: string): Promise<number> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const response = await page.request.post('/adminapi/order/list', {
    data: { kind: 'all', account, page: 1, page_size: 20 },
    headers: { Authorization: `Bearer ${token}` },
  });
  const body = (await response.json()) as { code: number; msg: string; data: { total: number } };
  expect(body.code, body.msg).toBe(20000);
  return body.data.total;
}

/** Nothing on the page says an error: no error toast, no message under a field. */
async function expectNoError(page: Page) {
  await expect(page.locator('.ant-message-error')).toHaveCount(0);
  await expect(page.locator('.ant-form-item-explain-error')).toHaveCount(0);
}

for (const locale of LOCALES) {
  const zh = locale === 'zh-CN';

  test(`a double click on Next stops on the review step; its confirm tops up once (${locale})`, async ({ page }) => {
    await useLocale(page, locale);
    await loginAs(page, 'admin');
    const topUps = requestsTo(page, '/adminapi/admin/merchant/topup');
    await page.goto('#/finance/merchants');
    const row = page.getByTestId('merchant-table').locator('tbody tr.ant-table-row').first();
    await expect(row).toBeVisible();
    const balance = row.locator('td[data-column=balance_fen]');
    const before = fen(await balance.textContent());

    await openOverlay(page, row.getByTestId('merchant-topup'), page.getByTestId('merchant-action-amount'));
    await page.getByTestId('merchant-action-amount').fill('5000');
    const next = page.getByTestId('merchant-action-next');
    await expect(next).toHaveText(zh ? '下一步' : 'Next');
    await next.dblclick();
    const echo = page.getByTestId('merchant-action-echo');
    await expect(echo).toContainText('¥5,000.00');
    await expect(echo).toBeVisible();
    expect(topUps).toHaveLength(0);
    expect(fen(await balance.textContent())).toBe(before);

    // A click of its own on the review step's confirm tops up: once in all.
    const answered = page.waitForResponse((response) => response.url().endsWith('/adminapi/admin/merchant/topup'));
    await page.getByTestId('merchant-action-confirm').click();
    expect((await answered).ok()).toBe(true);
    await expect(page.getByText(zh ? '操作成功' : 'Done')).toBeVisible();
    await expect.poll(async () => fen(await balance.textContent())).toBe(before + 500_000);
    expect(topUps).toHaveLength(1);
  });
}

const CLICKS = {
  'a double click': (button: Locator) => button.dblclick(),
  // Two separate clicks of the pointer where the button is, the second sent without waiting
  // for anything the first set going (nor for the button to take clicks).
  'two quick clicks': async (button: Locator) => {
    const box = await button.boundingBox();
    if (!box) throw new Error('the button is not on the page');
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    await button.page().mouse.click(x, y);
    await button.page().mouse.click(x, y);
  },
} as const;

for (const locale of LOCALES) {
  const zh = locale === 'zh-CN';
  for (const [how, click] of Object.entries(CLICKS)) {
    test(`${how} on Place order, no merchant order id, places one order (${locale})`, async ({ page }) => {
      await useLocale(page, locale);
      await loginAs(page, 'merchant');
      const placing = requestsTo(page, '/adminapi/order/add');
      await page.goto('#/order/addList');
      const account = freshMobileNumber();
      await page.getByTestId('add-order-account').fill(account);
      await chooseFromMenu(
        () => page.getByTestId('add-order-product').click({ timeout: 3_000 }),
        page.locator('.ant-select-item-option').filter({ hasText: 'MOBILE-DIRECT-10' }).first(),
        async () => (await page.getByTestId('add-order-price').textContent()) !== '-',
      );
      await expect(page.getByTestId('add-order-merchant-order-id')).toHaveValue('');
      const submit = page.getByTestId('add-order-submit');
      await expect(submit).toContainText(zh ? '提交订单' : 'Place order');
      await expect(submit).toBeEnabled();

      const answered = page.waitForResponse((response) => response.url().endsWith('/adminapi/order/add'));
      await click(submit);
      expect((await answered).ok()).toBe(true);
      await expect(page.locator('.ant-message-success')).toBeVisible();
      await expect(page.getByTestId('added-orders').locator('tbody tr.ant-table-row')).toHaveCount(1);
      await expect(submit).not.toHaveClass(/ant-btn-loading/);
      await expectNoError(page);
      expect(await ordersFor(page, account)).toBe(1);
      // A second click after a fast answer may send the call again: with the same key, so
      // the server answers the order placed (counted above: one).
      expect(placing.length).toBeGreaterThanOrEqual(1);
      expect(placing[0]?.headers()['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);
      expect(new Set(placing.map((call) => call.headers()['idempotency-key'])).size).toBe(1);
    });
  }

  test(`a double click on the batch confirm places the batch once (${locale})`, async ({ page }) => {
    await useLocale(page, locale);
    await loginAs(page, 'merchant');
    const submitting = requestsTo(page, '/adminapi/order/batch/submit');
    await page.goto('#/order/allAddList');
    const account = freshMobileNumber();
    await page.getByRole('tab', { name: zh ? '粘贴文本' : 'Paste lines' }).click();
    await page.getByTestId('batch-paste').fill(`${account},MOBILE-DIRECT-10`);
    await page.getByTestId('batch-paste-preview').click();
    await expect(page.getByTestId('preview-valid')).toContainText('1');
    await openOverlay(page, page.getByTestId('batch-submit'), page.getByTestId('batch-confirm-body'));
    const confirm = page.getByTestId('batch-confirm-ok');
    await expect(confirm).toContainText(zh ? '并下单' : 'and place');

    const answered = page.waitForResponse((response) => response.url().endsWith('/adminapi/order/batch/submit'));
    await confirm.dblclick();
    expect((await answered).ok()).toBe(true);
    await expect(page.getByTestId('batch-submitted')).toBeVisible();
    await expectNoError(page);
    await expect.poll(() => ordersFor(page, account)).toBe(1);
    expect(submitting).toHaveLength(1);
    expect(submitting[0]?.headers()['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);
  });
}
