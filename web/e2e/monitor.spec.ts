/**
 * The live monitor moves when an order is placed: the figures arrive over the event
 * stream (no polling), so the placed count and the in-flight or succeeded figures change
 * on screen within a few seconds of an order placed elsewhere.
 */
import type { APIRequestContext, Locator } from '@playwright/test';
import { expect, loginAs, test, USERS, useLocale } from './support/console';

async function placeOrder(request: APIRequestContext): Promise<void> {
  const login = await request.post('/adminapi/login/login', { data: USERS.merchant });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const placed = await request.post('/adminapi/order/add', {
    data: { account: '13800138000', product_key: 'MOBILE-DIRECT-10' },
    headers: { Authorization: `Bearer ${token}` },
  });
  const body = (await placed.json()) as { code: number; msg: string };
  expect(body.code, body.msg).toBe(20000);
}

const figure = async (locator: Locator) => Number((await locator.innerText()).replace(/\D/g, ''));

test('the monitor moves when an order is placed', async ({ page }) => {
  await useLocale(page, 'en-US');
  await loginAs(page, 'admin');
  const ticket = page.waitForResponse((response) => response.url().endsWith('/adminapi/monitor/stream/ticket'));
  const stream = page.waitForRequest((request) => request.url().includes('/adminapi/monitor/stream?'));
  await page.getByTestId('menu-item-Monitor').click();
  await expect(page.getByTestId('live-status')).toContainText('Live');
  // The stream is opened with a ticket, never with the session token in its URL or headers.
  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect((await ticket).ok()).toBe(true);
  const opened = await stream;
  expect(token).toBeTruthy();
  expect(opened.url()).not.toContain(token ?? 'no token');
  expect(JSON.stringify(await opened.allHeaders())).not.toContain(token ?? 'no token');

  const placed = page.getByTestId('live-placed').locator('.ant-statistic-content');
  const before = await figure(placed);
  await placeOrder(page.request);
  await expect.poll(() => figure(placed), { timeout: 30_000 }).toBe(before + 1);
  await expect(page.getByTestId('live-top-merchants')).toContainText('10001');
  // 138 0013 is a Beijing segment: today's orders by province name it in the reader's language.
  await expect(page.getByTestId('live-province-110000')).toContainText('Beijing');
  await expect(page.getByTestId('live-chart').locator('canvas')).toHaveCount(1);
  // The notification outbox's figures are shown beside the orders' (read every 10 s).
  await expect(page.getByTestId('live-notify-backlog')).toContainText(/\d/);
  await expect(page.getByTestId('live-notify-failure')).toBeVisible();
});
