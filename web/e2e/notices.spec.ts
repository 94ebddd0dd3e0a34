/**
 * The message center carries what a person must act on, each notice leading to its page;
 * the audit log reads in the reader's language, a channel switch listed against the channel.
 * On a server of its own: the spec switches the sandbox channel off and on.
 * With SHOTS_DIR set, the pages are also captured there (1440×900 and 390×844, both locales).
 */
import type { Page } from '@playwright/test';
import { expandFilters, expect, loginAs, overlaysSettled, pageShot, signOut, test, useLocale } from './support/console';
import { useOwnServer } from './support/spec-server';

const server = useOwnServer();
const shots = process.env.SHOTS_DIR;

type Locale = 'zh-CN' | 'en-US';

/** A call of the signed-in console's session, straight to the API. */
async function api(page: Page, path: string, body: unknown = {}) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const response = await page.request.post(new URL(`../${path.replace(/^\//, '')}`, server.baseURL).toString(), {
    headers: { Authorization: `Bearer ${token}` },
    data: body,
  });
  return (await response.json()) as { code: number; data: unknown };
}

async function inLocale(page: Page, locale: Locale) {
  await page.evaluate((value) => localStorage.setItem('locale', value), locale);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', locale);
}

/** The current page at both sizes, when pictures are asked for. */
async function capture(page: Page, name: string, locale: Locale) {
  if (!shots) return;
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ]) {
    await page.setViewportSize({ width, height });
    await overlaysSettled(page);
    await pageShot(page, `${shots}/${name}-${locale}-${width}x${height}.png`, { animations: 'disabled' });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('a merchant opens the page a notice leads to, in both languages', async ({ page }) => {
  await useLocale(page, 'zh-CN');
  await loginAs(page, 'admin');
  for (const remark of ['第一笔', 'second']) {
    const topped = await api(page, '/adminapi/admin/merchant/topup', {
      merchant_id: 10001,
      amount_fen: 12_345,
      remark,
    });
    expect(topped.code).toBe(20000);
  }
  await signOut(page);
  await loginAs(page, 'merchant');

  await page.goto('#/user/message?tab=notice');
  const funding = page.locator('[data-testid^="message-item-"]', { hasText: '账户资金变动' });
  await expect(funding).toHaveCount(2);
  await expect(funding.first()).toContainText('管理员已为您的余额加款 ¥123.45。备注：second');
  await expect(funding.first()).not.toContainText('Money on your account');
  await capture(page, 'message-center', 'zh-CN');
  await funding.first().getByRole('button', { name: '去查看' }).click();
  await expect(page).toHaveURL(/#\/finance\/account$/);

  await inLocale(page, 'en-US');
  await page.goto('#/user/message?tab=notice');
  const english = page.locator('[data-testid^="message-item-"]', { hasText: 'Money on your account' });
  await expect(english.nth(1)).toContainText('An administrator added ¥123.45 to your balance. Remark: 第一笔');
  await capture(page, 'message-center', 'en-US');
  await english.nth(1).getByRole('button', { name: 'Open' }).click();
  await expect(page).toHaveURL(/#\/finance\/account$/);
});

test('the audit log names the channel switched and says what happened in the reader’s language', async ({
  page,
}) => {
  await useLocale(page, 'zh-CN');
  await loginAs(page, 'admin');
  const channels = (await api(page, '/adminapi/admin/channel/list')).data as { id: number; code: string; name: string }[];
  const sandbox = channels.find((channel) => channel.code === 'sandbox')!;
  for (const enabled of [false, true]) {
    expect((await api(page, '/adminapi/admin/channel/enable', { id: sandbox.id, enabled })).code).toBe(20000);
  }

  // The administrator looks the channel up by its target in the filter card.
  await page.goto('#/finance/audit');
  await expandFilters(page, 'audit-filters');
  await page.getByTestId('audit-filter-target').fill(`channel:${sandbox.id}`);
  await page.getByTestId('audit-search').click();
  const rows = page.getByTestId('audit-table').locator('tbody tr.ant-table-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.first().getByTestId('audit-target')).toHaveText(`渠道 ${sandbox.id}：${sandbox.name}`);
  await expect(rows.first().getByTestId('audit-detail')).toHaveText('已启用，恢复接单');
  await expect(rows.nth(1).getByTestId('audit-detail')).toHaveText('已停用，不再接新订单');
  await expect(rows.first()).toContainText('admin');
  await expect(page.getByTestId('audit-table')).not.toContainText('enabled=');
  await capture(page, 'audit', 'zh-CN');

  await inLocale(page, 'en-US');
  await expect(rows.first().getByTestId('audit-target')).toHaveText(`Channel ${sandbox.id}: ${sandbox.name}`);
  await expect(rows.nth(1).getByTestId('audit-detail')).toHaveText('Switched off: takes no new orders');
  await capture(page, 'audit', 'en-US');
});
