/**
 * Reversal (冲正): an administrator reverses a successful order from its drawer with a reason;
 * the order shows 已冲正 / Reversed with the reversal's time and reason, the timeline names the
 * administrator, and the account records show the reversal refund. Both languages.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext } from '@playwright/test';
import { api, apiLogin, expect, loginAs, openOverlay, test, useLocale } from './support/console';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

/** A direct order the merchant places now that its channel tops up (another try if one fails). */
async function successfulOrder(request: APIRequestContext): Promise<string> {
  const token = await apiLogin(request, 'merchant');
  for (let tries = 0; tries < 5; tries += 1) {
    const placed = await api<{ order: { id: number; order_no: string } }>(request, token, '/adminapi/order/add', {
      account: '13800138000',
      product_key: 'MOBILE-DIRECT-10',
    });
    let status = 0;
    await expect
      .poll(
        async () => {
          const detail = await api<{ order: { status: number } }>(request, token, '/adminapi/order/detail', {
            order_id: placed.order.id,
          });
          status = detail.order.status;
          return [2, 3, 4].includes(status);
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    if (status === 2) return placed.order.order_no;
  }
  throw new Error('no order succeeded in five tries');
}

for (const locale of ['zh-CN', 'en-US'] as const) {
  const zh = locale === 'zh-CN';

  test(`an administrator reverses a successful order with a reason (${locale})`, async ({ page, request }) => {
    await useLocale(page, locale);
    const orderNo = await successfulOrder(request);
    await loginAs(page, 'admin');
    await page.goto(`#/order/list?kind=all&orderNo=${orderNo}`);
    const table = page.getByTestId('order-table');
    await openOverlay(page, table.getByTestId('order-no-link').first(), page.getByTestId('reverse-order'));
    await openOverlay(page, page.getByTestId('reverse-order'), page.getByTestId('reverse-reason'));
    await expect(page.getByTestId('reverse-explanation')).toContainText(orderNo);
    await page.getByTestId('reverse-reason').fill(zh ? '运营商撤回充值' : 'carrier took the top-up back');
    await page.screenshot({ path: `${screenshots}reversal-${locale}-dialog.png` });
    await page.getByTestId('reverse-confirm').click();
    await expect(page.getByText(zh ? '订单已冲正并退款' : 'Order reversed and refunded')).toBeVisible();

    const drawer = page.getByTestId('order-detail');
    await expect(drawer.getByTestId('order-status')).toHaveText(zh ? '已冲正' : 'Reversed');
    await expect(drawer.getByTestId('detail-reversal-reason')).toHaveText(
      zh ? '运营商撤回充值' : 'carrier took the top-up back',
    );
    await expect(drawer.getByTestId('order-timeline')).toContainText(
      zh ? '管理员 admin 冲正，已退款' : 'Reversed by administrator admin; refunded',
    );
    await expect(drawer).toContainText(zh ? '冲正退款' : 'Reversal refund');
    await expect(page.getByTestId('reverse-order')).toHaveCount(0);
    await page.screenshot({ path: `${screenshots}reversal-${locale}-detail.png`, fullPage: true });
    await page.keyboard.press('Escape');
    // The list shows the new state too.
    await expect(table.getByTestId('order-status').first()).toHaveText(zh ? '已冲正' : 'Reversed');
  });
}
