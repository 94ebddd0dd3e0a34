/**
 * The live monitor raises an alert an operator acts on: an order waiting in manual review
 * past the alert line (here 0 minutes, so at once) shows as an alert that says so with its
 * figures, and its link opens the review queue with that order.
 */
import type { APIRequestContext } from '@playwright/test';
import { api, expect, loginAs, test, useLocale, USERS } from './support/console';
import { useOwnServer } from './support/spec-server';

// Its own server: a channel that never answers and a one-second deadline, so an order placed
// here goes to manual review at once; any order there raises the alert.
useOwnServer({
  BACKOFFICE_DEMO_ORDERS: '0',
  BACKOFFICE_NO_DEMO_SIMULATORS: 'true',
  BACKOFFICE_SANDBOX_DELAY_MS: '3600000',
  BACKOFFICE_ORDER_DEADLINE_SECONDS: '1',
  BACKOFFICE_REVIEW_ALERT_MINUTES: '0',
});

/** A merchant's order, once it waits in manual review: its order number. */
async function orderInReview(request: APIRequestContext): Promise<string> {
  const { token } = await api<{ token: string }>(request, null, '/adminapi/login/login', USERS.merchant);
  const placed = await api<{ order: { id: number; order_no: string } }>(request, token, '/adminapi/order/add', {
    account: '13800138000',
    product_key: 'MOBILE-DIRECT-10',
  });
  const status = async () =>
    (await api<{ order: { status: number } }>(request, token, '/adminapi/order/detail', { order_id: placed.order.id }))
      .order.status;
  await expect.poll(status, { timeout: 40_000 }).toBe(4);
  return placed.order.order_no;
}

const SAYS = {
  'zh-CN': /人工审核队列有 \d+ 笔订单待处理，最久已等待/,
  'en-US': /\d+ orders? waits? in manual review/,
};

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`an ageing review queue is an alert whose link opens the queue (${locale})`, async ({ page, request }) => {
    await useLocale(page, locale);
    const orderNo = await orderInReview(request);
    await loginAs(page, 'admin');
    await page.getByTestId('menu-item-Monitor').click();
    // Alerts are read every 10 seconds.
    const alert = page.getByTestId('live-alert-review_aging');
    await expect(alert).toContainText(SAYS[locale], { timeout: 30_000 });
    await page.getByTestId('live-alert-link-review_aging').click();
    await expect(page).toHaveURL(/#\/order\/review/);
    await expect(page.getByTestId('review-table').locator('tr', { hasText: orderNo })).toBeVisible();
  });
}
