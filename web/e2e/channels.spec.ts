/**
 * Upstream channels (issue 11, console for administrators) against the demo's simulated
 * suppliers: the channels page with live figures, a cost price edited in bulk, disable and
 * re-enable with the routing preview naming why the disabled channel is out, test
 * connection, an order's attempts in its drawer; a merchant cannot reach any of it.
 */
import type { APIRequestContext } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  expect,
  loginAs,
  openFromSideMenu,
  openOverlay,
  overlaysSettled,
  pickOption,
  refused,
  showInSideMenu,
  test,
  USERS,
  useLocale,
} from './support/console';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

async function tokenOf(request: APIRequestContext, who: keyof typeof USERS): Promise<string> {
  const login = await request.post('/adminapi/login/login', { data: USERS[who] });
  return ((await login.json()) as { data: { token: string } }).data.token;
}

/**
 * A merchant's order, placed through the API, once the worker has handed it to a channel
 * (read as an administrator, who sees attempts): its order number.
 */
async function placeRoutedOrder(request: APIRequestContext): Promise<string> {
  const placed = await request.post('/adminapi/order/add', {
    data: { account: '13800138000', product_key: 'MOBILE-DIRECT-10' },
    headers: { Authorization: `Bearer ${await tokenOf(request, 'merchant')}` },
  });
  const body = (await placed.json()) as {
    code: number;
    msg: string;
    data: { order: { id: number; order_no: string } };
  };
  expect(body.code, body.msg).toBe(20000);
  const admin = await tokenOf(request, 'admin');
  await expect
    .poll(
      async () => {
        const detail = await request.post('/adminapi/order/detail', {
          data: { order_id: body.data.order.id },
          headers: { Authorization: `Bearer ${admin}` },
        });
        return ((await detail.json()) as { data: { attempts?: unknown[] } }).data.attempts?.length ?? 0;
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThan(0);
  return body.data.order.order_no;
}

test('an administrator runs the channels: figures, bulk cost, disable / enable, routing, test, attempts', async ({
  page,
}) => {
  // A long flow (two drawers, a dialog, two tabs, an order through a simulated supplier).
  test.slow();
  await useLocale(page, 'en-US');
  await loginAs(page, 'admin');
  await openFromSideMenu(page, 'qoute', 'Channels');
  await expect(page).toHaveURL(/#\/qoute\/channels/);
  const table = page.getByTestId('channel-table');
  const cheap = table.locator('tr', { hasText: 'sim-cheap' });
  const reliable = table.locator('tr', { hasText: 'sim-reliable' });
  await expect(cheap).toBeVisible();
  await expect(reliable).toBeVisible();
  await expect(page.getByTestId('channel-total')).toHaveText('4 channels');
  // Live figures: the demo's orders reach the simulators, whose balances are read.
  await expect(page.getByTestId('channel-balance-sim-reliable')).toHaveText(/^\d[\d,]*\.\d\d$/);
  await expect(page.getByTestId('channel-ratio-sim-cheap')).toHaveText(/^(\d+\.\d%|-)$/);
  await expect
    .poll(async () => Number(await page.getByTestId('channel-today-sim-cheap').innerText()))
    .toBeGreaterThan(0);
  await expect(page.getByTestId('channel-state-sim-cheap').getByTestId('channel-enabled-tag')).toHaveText('On');

  // Test connection: a signed balance read, timed.
  await page.getByTestId('channel-test-sim-reliable').click();
  await expect(page.getByTestId('channel-test-result')).toContainText(/connected in \d+ ms, balance [\d,]+\.\d\d yuan/);

  // Bulk edit: two products of sim-reliable get the same cost, typed in yuan.
  await openOverlay(page, page.getByTestId('channel-products-sim-reliable'), page.getByTestId('supplies-table'));
  const supplies = page.getByTestId('supplies-table');
  for (const key of ['MOBILE-DIRECT-10', 'MOBILE-DIRECT-20'])
    await supplies.locator('tr', { hasText: key }).first().locator('.ant-checkbox-input').check();
  await expect(page.getByTestId('supplies-selected')).toHaveText('2 selected');
  await openOverlay(page, page.getByTestId('supplies-bulk-edit'), page.getByTestId('supplies-bulk-cost'));
  // A cost that is not a plain amount is refused on the field, nothing is sent.
  await page.getByTestId('supplies-bulk-cost').fill('9.876');
  await page.getByTestId('supplies-bulk-submit').click();
  await expect(page.locator('.ant-form-item-explain-error')).toContainText('at most two decimals');
  await page.getByTestId('supplies-bulk-cost').fill('9.87');
  await page.getByTestId('supplies-bulk-submit').click();
  await expect(page.getByTestId('supply-cost-MOBILE-DIRECT-10')).toHaveText('9.87');
  await expect(page.getByTestId('supply-cost-MOBILE-DIRECT-20')).toHaveText('9.87');
  await expect(page.getByTestId('supply-cost-MOBILE-DIRECT-30')).toHaveText('29.55');
  await page.getByTestId('supplies-drawer').locator('.ant-drawer-close').click();
  await overlaysSettled(page);

  // Disable sim-cheap (confirmed), see why the routing preview leaves it out, enable it again.
  await openOverlay(page, page.getByTestId('channel-toggle-sim-cheap'), page.getByTestId('channel-toggle-confirm'));
  await page.getByTestId('channel-toggle-confirm').click();
  await expect(page.getByTestId('channel-state-sim-cheap').getByTestId('channel-enabled-tag')).toHaveText('Off');
  await page.getByTestId('channels-tab-routing').click();
  await page.getByTestId('routing-product').click();
  await page.locator('.ant-select-item-option', { hasText: 'MOBILE-DIRECT-10' }).first().click();
  await expect(page).toHaveURL(/product=MOBILE-DIRECT-10/);
  // For Beijing: the provincial sim-south (Guangdong, Zhejiang) is out, sim-reliable goes first.
  await pickOption(page, 'routing-province', 'Beijing');
  const routes = page.getByTestId('routing-table');
  await expect(routes.locator('tr', { hasText: 'sim-south' }).getByTestId('routing-exclusion')).toHaveText(
    "Does not cover the number's province",
  );
  await expect(routes.locator('tr', { hasText: 'sim-cheap' }).getByTestId('routing-exclusion')).toHaveText(
    'Channel disabled',
  );
  await expect(routes.locator('tr', { hasText: 'sim-reliable' })).toContainText('9.87');
  await expect(routes.locator('tr', { hasText: 'sim-reliable' }).getByTestId('routing-candidate')).toHaveText(
    'Candidate',
  );
  await page.screenshot({ path: `${screenshots}channels-routing-disabled-en-US.png`, fullPage: true });
  await page.getByTestId('channels-tab-list').click();
  await openOverlay(page, page.getByTestId('channel-toggle-sim-cheap'), page.getByTestId('channel-toggle-confirm'));
  await page.getByTestId('channel-toggle-confirm').click();
  await expect(page.getByTestId('channel-state-sim-cheap').getByTestId('channel-enabled-tag')).toHaveText('On');

  // An order placed now is handed to a channel; its drawer lists the attempts.
  const orderNo = await placeRoutedOrder(page.request);
  await page.goto(`#/order/list?kind=all&orderNo=${orderNo}`);
  await openOverlay(
    page,
    page.getByTestId('order-table').getByTestId('order-no-link').first(),
    page.getByTestId('order-attempts'),
  );
  const attempts = page.getByTestId('order-attempts');
  await expect(attempts.getByTestId('attempt-channel').first()).toContainText(/sim-cheap|sim-reliable/);
  await expect(attempts.getByTestId('attempt-outcome').first()).toHaveText(/Waiting|Unknown|Success|Failed/);
  await expect(attempts).toContainText(/S[0-9a-f]+/);
  await page.screenshot({ path: `${screenshots}channels-order-attempts-en-US.png`, fullPage: true });
});

test('the channel form: server messages on the fields, create, a write-only secret, a failed test', async ({
  page,
  noise,
}) => {
  noise.allow(refused(422, '/adminapi/admin/channel/save'), 'the malformed base URL this test submits (422)');
  await useLocale(page, 'zh-CN');
  await loginAs(page, 'admin');
  await page.goto('#/qoute/channels');
  await openOverlay(page, page.getByTestId('channel-edit-sim-cheap'), page.getByTestId('channel-name'));
  await expect(page.getByTestId('channel-secret')).toHaveValue('');
  await expect(page.getByTestId('channel-code')).toBeDisabled();
  // A private address is refused by the server unless the demo allows it: use a bad URL instead.
  await page.getByTestId('channel-base-url').fill('not a url');
  await page.getByTestId('channel-submit').click();
  const error = page.getByTestId('channel-form').locator('.ant-form-item-explain-error');
  await expect(error).toHaveText('接口地址须为 http(s) 地址');
  await page.screenshot({ path: `${screenshots}channels-form-error-zh-CN.png`, fullPage: true });
  await page.getByTestId('channel-form').locator('.ant-drawer-close').click();
  await overlaysSettled(page);

  // A new channel (the demo allows private addresses): listed, its secret never shown, and a
  // connection test that reaches nobody says so.
  const code = `e2e-${Date.now().toString(36)}`;
  await openOverlay(page, page.getByTestId('channel-create'), page.getByTestId('channel-code'));
  await page.getByTestId('channel-code').fill(code);
  await page.getByTestId('channel-name').fill('测试渠道');
  await page.getByTestId('channel-base-url').fill('http://127.0.0.1:9');
  await page.getByTestId('channel-secret').fill('a-shared-secret');
  await page.getByTestId('channel-timeout').fill('500');
  await page.getByTestId('channel-submit').click();
  await expect(page.getByTestId('channel-form')).toBeHidden();
  await expect(page.getByTestId('channel-table').locator('tr', { hasText: code })).toBeVisible();
  await page.getByTestId(`channel-test-${code}`).click();
  await expect(page.getByTestId('channel-test-result')).toContainText('连接失败');
  // Edited with the secret left blank: the stored one stays (the server would ask for one otherwise).
  await openOverlay(page, page.getByTestId(`channel-edit-${code}`), page.getByTestId('channel-name'));
  await expect(page.getByTestId('channel-secret')).toHaveValue('');
  await expect(page.getByTestId('channel-secret')).toHaveAttribute('placeholder', '已保存密钥；留空则保持不变');
  await page.getByTestId('channel-name').fill('测试渠道二');
  await page.getByTestId('channel-submit').click();
  await expect(page.getByTestId('channel-form')).toBeHidden();
  await expect(page.getByTestId('channel-table').locator('tr', { hasText: code })).toContainText('测试渠道二');
  // Never the secret in any answer.
  const list = await page.request.post('/adminapi/admin/channel/list', {
    data: {},
    headers: { Authorization: `Bearer ${await tokenOf(page.request, 'admin')}` },
  });
  expect(await list.text()).not.toContain('a-shared-secret');
});

test('a merchant has no channels: no menu entry, the route is guarded, the server answers 403', async ({ page }) => {
  await useLocale(page, 'en-US');
  await loginAs(page, 'merchant');
  await showInSideMenu(page, 'qoute', 'QouteList');
  await expect(page.getByTestId('menu-item-Channels')).toHaveCount(0);
  await page.goto('#/qoute/channels');
  await expect(page).not.toHaveURL(/qoute\/channels/);
  await expect(page.getByTestId('channels-page')).toHaveCount(0);
  // Its own order's drawer shows the result, not the channels: no attempts section at all.
  const orderNo = await placeRoutedOrder(page.request);
  await page.goto(`#/order/list?kind=all&orderNo=${orderNo}`);
  await openOverlay(page, page.getByTestId('order-no-link').first(), page.getByTestId('order-timeline'));
  await expect(page.getByTestId('order-notifications')).toBeVisible();
  await expect(page.getByTestId('order-attempts')).toHaveCount(0);
  const token = await tokenOf(page.request, 'merchant');
  for (const [path, body] of [
    ['/adminapi/admin/channel/list', {}],
    ['/adminapi/admin/channel/routing', { product_key: 'MOBILE-DIRECT-10' }],
  ] as const) {
    const answer = await page.request.post(path, { data: body, headers: { Authorization: `Bearer ${token}` } });
    expect(answer.status()).toBe(403);
    expect(((await answer.json()) as { code: number }).code).toBe(40300);
  }
});
