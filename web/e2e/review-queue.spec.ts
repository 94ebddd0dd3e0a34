/**
 * The manual review queue (issue 12, Operations): an order past its deadline waits for a
 * person; the administrator resolves it from the queue, which then is empty.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext } from '@playwright/test';
import { api, expect, loginAs, openOverlay, test, useLocale, USERS } from './support/console';
import { useOwnServer } from './support/spec-server';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

// Its own server: no demo history, a channel that never answers (the sandbox alone, without
// the demo's simulated suppliers, whose late answers would settle the order) and a one-second
// deadline, so an order placed here goes to manual review at once.
useOwnServer({
  BACKOFFICE_DEMO_ORDERS: '0',
  BACKOFFICE_NO_DEMO_SIMULATORS: 'true',
  BACKOFFICE_SANDBOX_DELAY_MS: '3600000',
  BACKOFFICE_ORDER_DEADLINE_SECONDS: '1',
});

async function orderInReview(request: APIRequestContext): Promise<string> {
  const { token } = await api<{ token: string }>(request, null, '/adminapi/login/login', USERS.merchant);
  const placed = await api<{ order: { id: number; order_no: string } }>(request, token, '/adminapi/order/add', {
    account: '13800138000',
    product_key: 'MOBILE-DIRECT-10',
  });
  await expect
    .poll(
      async () =>
        (
          await api<{ order: { status: number } }>(request, token, '/adminapi/order/detail', {
            order_id: placed.order.id,
          })
        ).order.status,
      { timeout: 40_000 },
    )
    .toBe(4);
  return placed.order.order_no;
}

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`an order in manual review is resolved from the queue (${locale})`, async ({ page, request }) => {
    await useLocale(page, locale);
    const orderNo = await orderInReview(request);
    await loginAs(page, 'admin');
    await page.goto('#/order/review');
    const table = page.getByTestId('review-table');
    const row = table.locator('tr', { hasText: orderNo });
    await expect(row).toBeVisible();
    await openOverlay(page, row.getByTestId('review-timeline'), page.getByTestId('order-timeline'));
    await page.screenshot({ path: `${screenshots}review-queue-timeline-${locale}.png` });
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('order-timeline')).toBeHidden();
    await row.locator('.ant-checkbox-input').check();
    await openOverlay(page, page.getByTestId('review-many-failure'), page.getByTestId('review-reason'));
    await page.getByTestId('review-reason').fill(locale === 'zh-CN' ? '运营商确认未到账' : 'carrier says not credited');
    await page.screenshot({ path: `${screenshots}review-queue-resolve-${locale}.png` });
    await page.getByTestId('review-many-submit').click();
    await expect(row).toBeHidden();
    await expect(page.getByTestId('review-refused')).toHaveCount(0);
    await expect(page.getByTestId('review-total')).toContainText('0');
  });
}
