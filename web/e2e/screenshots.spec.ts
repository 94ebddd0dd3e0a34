import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext } from '@playwright/test';
import { chooseFromMenu, expect, loginAs, openOverlay, overlaysSettled, pageShot, signOut, test, USERS, useLocale } from './support/console';

/** A merchant's order placed through the API, once the worker handed it to a channel: its order number. */
async function placeRoutedOrder(request: APIRequestContext): Promise<string> {
  const token = async (who: keyof typeof USERS) =>
    ((await (await request.post('/adminapi/login/login', { data: USERS[who] })).json()) as { data: { token: string } })
      .data.token;
  const placed = await request.post('/adminapi/order/add', {
    data: { account: '13800138000', product_key: 'MOBILE-DIRECT-10' },
    headers: { Authorization: `Bearer ${await token('merchant')}` },
  });
  const order = ((await placed.json()) as { data: { order: { id: number; order_no: string } } }).data.order;
  const admin = await token('admin');
  await expect
    .poll(async () => {
      const detail = await request.post('/adminapi/order/detail', {
        data: { order_id: order.id },
        headers: { Authorization: `Bearer ${admin}` },
      });
      return ((await detail.json()) as { data: { attempts?: unknown[] } }).data.attempts?.length ?? 0;
    })
    .toBeGreaterThan(0);
  return order.order_no;
}

const directory = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(directory, { recursive: true });

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`screenshots in ${locale}`, async ({ page }) => {
    await useLocale(page, locale);
    // Motion still running (the drawer's switches) is finished at once, not waited for.
    const shot = (name: string) => pageShot(page, `${directory}${locale}-${name}.png`, { animations: 'disabled' });

    await page.goto('#/login');
    await expect(page.getByTestId('login-form')).toBeVisible();
    await shot('login');

    await loginAs(page, 'admin');
    await page.waitForLoadState('networkidle');
    await expect(page.getByTestId('workplace-chart')).toHaveAttribute('data-drawn', 'true');
    await shot('workplace');

    await openOverlay(page, page.getByTestId('navbar-settings'), page.getByTestId('settings-close'));
    await expect(page.getByTestId('setting-switch-navbar')).toBeVisible();
    await shot('settings-drawer');
    await page.getByTestId('settings-close').click();

    await page.goto('#/this-page-does-not-exist');
    await expect(page.getByTestId('exception-404')).toBeVisible();
    await shot('not-found');

    await page.goto('#/dashboard/monitor');
    await expect(page.getByTestId('monitor-version')).toBeVisible();
    await expect(page.getByTestId('live-chart').locator('canvas')).toHaveCount(1);
    await shot('monitor');

    // Upstream channels (administrators): the list, a channel's products, the form, the routing preview.
    await page.goto('#/qoute/channels');
    await expect(page.getByTestId('channel-table').locator('tr', { hasText: 'sim-cheap' })).toBeVisible();
    await shot('channels');
    await openOverlay(page, page.getByTestId('channel-products-sim-cheap'), page.getByTestId('supplies-total'));
    await expect(page.getByTestId('supply-cost-MOBILE-DIRECT-10')).not.toHaveText('-');
    await shot('channel-products');
    await page.getByTestId('supplies-drawer').locator('.ant-drawer-close').click();
    await overlaysSettled(page);
    await openOverlay(page, page.getByTestId('channel-edit-sim-cheap'), page.getByTestId('channel-name'));
    await shot('channel-form');
    await page.getByTestId('channel-form').locator('.ant-drawer-close').click();
    await overlaysSettled(page);
    await page.goto('#/qoute/channels?tab=routing&product=MOBILE-DIRECT-10');
    await expect(page.getByTestId('routing-table').getByTestId('routing-candidate').first()).toBeVisible();
    await shot('channel-routing');

    // The order drawer's channel attempts (administrators): an order placed now, once handed over.
    const orderNo = await placeRoutedOrder(page.request);
    await page.goto(`#/order/list?kind=all&orderNo=${orderNo}`);
    await openOverlay(page, page.getByTestId('order-no-link').first(), page.getByTestId('order-attempts'));
    await page.getByTestId('order-attempts').scrollIntoViewIfNeeded();
    await expect(page.locator('#nprogress')).toHaveCount(0);
    await page.screenshot({ path: `${directory}${locale}-order-attempts.png` });

    // Channel reconciliation (administrators): today's run of the cheap simulator.
    await page.goto('#/finance/reconciliation');
    const channel = page.getByTestId('reconcile-channel');
    await chooseFromMenu(
      () => channel.click({ timeout: 3_000 }),
      page
        .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
        .filter({ hasText: '(sim-cheap)' }),
      async () => /sim-cheap/.test((await channel.textContent()) ?? ''),
    );
    await page.getByTestId('reconcile-run').click();
    await expect(page.getByTestId('reconcile-run-at')).toBeVisible();
    await expect(page.getByTestId('reconcile-table')).toBeVisible();
    await shot('reconciliation');
  });
}

test('extra screenshots: dark theme with top menu and tabs, result pages, narrow login', async ({ page }) => {
  await useLocale(page, 'zh-CN');
  const shot = async (name: string) => {
    await expect(page.locator('#nprogress')).toHaveCount(0);
    await page.screenshot({ path: `${directory}zh-CN-${name}.png`, fullPage: true });
  };
  await loginAs(page, 'admin');
  await openOverlay(page, page.getByTestId('navbar-settings'), page.getByTestId('settings-close'));
  await page.getByTestId('setting-switch-dark').click();
  await page.getByTestId('setting-switch-topMenu').click();
  await page.getByTestId('setting-switch-tabBar').click();
  await page.getByTestId('settings-close').click();
  await page.goto('#/result/success');
  await expect(page.getByTestId('result-success')).toBeVisible();
  await shot('dark-top-menu-success');
  await page.goto('#/result/error');
  await expect(page.getByTestId('result-error-detail')).toBeVisible();
  await shot('dark-top-menu-error');
  await page.goto('#/order/cardList');
  await expect(page.getByTestId('card-order-list-page')).toBeVisible();
  await shot('dark-placeholder');

  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('#/dashboard/workplace');
  await expect(page.getByTestId('mobile-menu-button')).toBeVisible();
  await shot('mobile-workplace');
  await signOut(page);
  await shot('mobile-login');
});
