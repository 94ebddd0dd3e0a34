/**
 * A merchant opening an administrator's page by its address is sent to the workplace and
 * told why, in its language: after a jump inside the console and on a fresh page load.
 */
import { expect, loginAs, test, useLocale } from './support/console';

const NO_PERMISSION = {
  'zh-CN': '您所在的用户组没有此操作的权限',
  'en-US': 'your user group does not have permission for this operation',
} as const;

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`a merchant opening an administrator's page is told it has no permission (${locale})`, async ({ page }) => {
    await useLocale(page, locale);
    await loginAs(page, 'merchant');
    const told = page.locator('.ant-message-notice', { hasText: NO_PERMISSION[locale] });

    await page.goto('#/dashboard/monitor');
    await expect(page).toHaveURL(/#\/dashboard\/workplace$/);
    await expect(told).toBeVisible();
    await expect(page.getByTestId('workplace-page')).toBeVisible();

    // A fresh page of the same session: the address is the first thing it loads.
    const fresh = await page.context().newPage();
    await fresh.goto('#/finance/audit');
    await expect(fresh).toHaveURL(/#\/dashboard\/workplace$/);
    await expect(fresh.locator('.ant-message-notice', { hasText: NO_PERMISSION[locale] })).toBeVisible();
    await expect(fresh.getByTestId('workplace-page')).toBeVisible();
  });
}
