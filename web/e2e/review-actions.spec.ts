/**
 * The manual review queue acts through the channels: an administrator asks the supplier of
 * an order whose answer is unknown (查询上游) and hands an order no channel may still top up
 * to one (发送到渠道), never one whose attempt is still open. And a merchant places an
 * on-behalf order (代充订单) from the add-order page and finds it in the on-behalf list.
 *
 * SHOTS_DIR=<dir> also saves the pages at 1440×900 and 390×844 there.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { api, apiLogin, expect, loginAs, openOverlay, overlaysSettled, test, useLocale } from './support/console';
import { useOwnServer } from './support/spec-server';

// Its own server: some demo history (whose orders in review were never handed to a channel),
// no simulated suppliers and a sandbox channel that answers only after an hour, and a
// one-second deadline, so an order placed here is in review with its attempt open at once.
useOwnServer({
  BACKOFFICE_DEMO_ORDERS: '300',
  BACKOFFICE_NO_DEMO_SIMULATORS: 'true',
  BACKOFFICE_SANDBOX_DELAY_MS: '3600000',
  BACKOFFICE_ORDER_DEADLINE_SECONDS: '1',
});

const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

/** Saves the page at both sizes when SHOTS_DIR is set, back at the first size after. */
async function shots(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  for (const size of [...SIZES].reverse()) {
    await page.setViewportSize(size);
    await overlaysSettled(page);
    await page.screenshot({ path: `${dir}/${name}-${size.width}x${size.height}.png`, animations: 'disabled' });
  }
}

interface Detail {
  order: { id: number; order_no: string; status: number; kind: string };
  attempts?: { outcome: string }[] | null;
}

/** An order the merchant places now, in review with its sandbox attempt still open. */
async function orderWithOpenAttempt(request: APIRequestContext): Promise<string> {
  const token = await apiLogin(request, 'merchant');
  const placed = await api<{ order: { id: number; order_no: string } }>(request, token, '/adminapi/order/add', {
    account: '13800138000',
    product_key: 'MOBILE-DIRECT-10',
  });
  const admin = await apiLogin(request, 'admin');
  await expect
    .poll(
      async () => {
        const detail = await api<Detail>(request, admin, '/adminapi/order/detail', { order_id: placed.order.id });
        return `${detail.order.status} ${detail.attempts?.map((attempt) => attempt.outcome).join(',')}`;
      },
      { timeout: 40_000 },
    )
    .toBe('4 pending');
  return placed.order.order_no;
}

/**
 * The review queue's row of `orderNo`. The queue is oldest first: an order placed now is on
 * its last page once the queue outgrows one (what else ran on this server decides).
 */
async function queueRow(page: Page, orderNo: string) {
  const table = page.getByTestId('review-table');
  const row = table.locator('tr', { hasText: orderNo });
  await expect(table.locator('tbody tr.ant-table-row').first()).toBeVisible();
  if ((await row.count()) === 0) {
    await page.getByTestId('review-pagination').locator('.ant-pagination-item').last().click();
  }
  await expect(row).toBeVisible();
  return row;
}

/** A demo order in review that was never handed to a channel. */
async function orderNeverSent(request: APIRequestContext): Promise<{ id: number; orderNo: string }> {
  const admin = await apiLogin(request, 'admin');
  const queue = await api<{ list: { id: number; kind: string }[] }>(request, admin, '/adminapi/order/list', {
    kind: 'all',
    status: 4,
    sort: 'asc',
    page: 1,
    page_size: 20,
  });
  for (const order of queue.list.filter((item) => item.kind !== 'behalf')) {
    const detail = await api<Detail>(request, admin, '/adminapi/order/detail', { order_id: order.id });
    if (detail.attempts?.length === 0) return { id: order.id, orderNo: detail.order.order_no };
  }
  throw new Error('the demo data has no order in review that was never sent');
}

for (const locale of ['zh-CN', 'en-US'] as const) {
  const zh = locale === 'zh-CN';

  test(`an administrator queries the supplier of an order in review, and may not send it again (${locale})`, async ({
    page,
    request,
  }) => {
    await useLocale(page, locale);
    const orderNo = await orderWithOpenAttempt(request);
    await loginAs(page, 'admin');
    await page.goto('#/order/review');
    const row = await queueRow(page, orderNo);
    await shots(page, `review-queue-${locale}`);

    // The sandbox has no result yet: said in words, and the order stays in review.
    await openOverlay(page, row.getByTestId('review-query'), page.getByTestId('query-result'));
    await expect(page.getByTestId('query-answer')).toHaveText(
      zh ? '上游答复：仍在处理中，订单继续人工审核' : 'The supplier is still processing it: the order stays in review',
    );
    await expect(page.getByTestId('query-outcome')).toHaveText(zh ? '等待中' : 'Waiting');
    await shots(page, `review-query-${locale}`);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('query-result')).toBeHidden();
    await expect(row).toBeVisible();

    // Sending it again could top it up twice: the dialog says so and sends nothing.
    await openOverlay(page, row.getByTestId('review-send'), page.getByTestId('send-open-attempt'));
    await expect(page.getByTestId('send-confirm')).toBeDisabled();
    await shots(page, `review-send-refused-${locale}`);
    await page.keyboard.press('Escape');

    // The order's drawer offers the same actions.
    await openOverlay(page, row.getByTestId('review-timeline'), page.getByTestId('detail-review-actions'));
    await expect(page.getByTestId('order-attempts').getByTestId('attempt-outcome')).toHaveText(
      zh ? '等待中' : 'Waiting',
    );
    await shots(page, `review-detail-${locale}`);
  });

  test(`an administrator sends an order never handed to a channel (${locale})`, async ({ page, request }) => {
    await useLocale(page, locale);
    const { id: orderId, orderNo } = await orderNeverSent(request);
    await loginAs(page, 'admin');
    await page.goto('#/order/review');
    const row = page.getByTestId('review-table').locator('tr', { hasText: orderNo });
    await expect(row).toBeVisible();
    await openOverlay(page, row.getByTestId('review-send'), page.getByTestId('send-channels'));
    // The routing preview's candidates: the sandbox alone here.
    await page.getByTestId('send-channel-sandbox').click();
    await shots(page, `review-send-${locale}`);
    await page.getByTestId('send-confirm').click();
    await expect(
      page.getByText(zh ? `订单 ${orderNo} 已发送到渠道` : `Order ${orderNo} sent to a channel`),
    ).toBeVisible();
    await expect(page.getByTestId('send-channels')).toBeHidden();
    // Handed over by this administrator, on the order's timeline.
    const admin = await apiLogin(request, 'admin');
    const detail = await api<{ timeline: { note: string; actor_name: string | null }[]; attempts: unknown[] }>(
      request,
      admin,
      '/adminapi/order/detail',
      { order_id: orderId },
    );
    expect(detail.attempts).toHaveLength(1);
    expect(detail.timeline.map((entry) => [entry.note, entry.actor_name])).toContainEqual([
      'sent to a channel by an administrator',
      'admin',
    ]);
  });

  test(`a merchant places an on-behalf order and finds it in the on-behalf list (${locale})`, async ({ page }) => {
    await useLocale(page, locale);
    await loginAs(page, 'merchant');
    await page.goto('#/order/addList');
    await expect(page.getByTestId('add-order-page')).toBeVisible();
    // The radio's input is hidden behind its button: the label takes the click.
    await page.locator('label', { has: page.getByTestId('add-order-type-behalf') }).click();
    await expect(page.getByTestId('add-order-behalf-hint')).toBeVisible();
    const thirdParty = zh ? `张三-${Date.now()}` : `Zhang San ${Date.now()}`;
    await page.getByTestId('add-order-account').fill('13800138000');
    await page.getByTestId('add-order-remark').fill(thirdParty);
    await page.getByTestId('add-order-product').click();
    await page.locator('.ant-select-item-option', { hasText: 'MOBILE-DIRECT-10 ·' }).click();
    // Card products are never offered for an on-behalf order.
    await page.getByTestId('add-order-product').click();
    await expect(page.locator('.ant-select-item-option', { hasText: 'CARD' })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('add-order-submit')).toContainText(zh ? '提交代充订单' : 'Place on-behalf order');
    await shots(page, `add-order-behalf-${locale}`);
    await page.getByTestId('add-order-submit').click();
    const placed = page.getByTestId('add-order-behalf-placed');
    await expect(placed).toContainText(zh ? '将由人工充值' : 'a person will top it up');
    await shots(page, `add-order-behalf-placed-${locale}`);
    // The notice names the order; the placed-orders table lists it (other tests' orders of
    // this merchant may be listed above it).
    const orderNo = ((await placed.textContent()) ?? '').match(/\d{16,}/)?.[0] ?? '';
    expect(orderNo).not.toBe('');
    await expect(page.getByTestId('added-orders').locator('tr', { hasText: orderNo }).first()).toBeVisible();
    await page.getByTestId('add-order-behalf-link').click();
    await expect(page).toHaveURL(/#\/order\/behalfList/);
    await expect(page.getByTestId('order-table').locator('tr', { hasText: orderNo }).first()).toBeVisible();
  });
}
