import { fileURLToPath } from 'node:url';
import { expect, loginAs, openOverlay, test, useLocale } from './support/console';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`notifications page, order drawer attempts and webhook secret in ${locale}`, async ({ page }) => {
    await useLocale(page, locale);
    await loginAs(page, 'merchant');

    // The page lists deliveries; with no notify URL set, a test notification says so.
    await page.goto('#/order/notifications');
    await expect(page.getByTestId('notifications-page')).toBeVisible();
    await expect(page.getByTestId('notify-total')).toBeVisible();
    await page.screenshot({ path: `${screenshots}notifications-${locale}-page.png`, fullPage: true });

    // The order drawer has its notifications section.
    await page.goto('#/order/list');
    const table = page.getByTestId('order-table');
    await openOverlay(page, table.getByTestId('order-no-link').first(), page.getByTestId('order-timeline'));
    await expect(page.getByTestId('order-notifications')).toBeVisible();
    await page.screenshot({ path: `${screenshots}notifications-${locale}-order-drawer.png`, fullPage: true });
    await page.keyboard.press('Escape');

    // The integration tab rotates the signing secret with the password and shows it once.
    await page.goto('#/user/setting?tab=integration');
    const card = page.getByTestId('webhook-secret-card');
    await expect(card).toBeVisible();
    await page.getByTestId('webhook-secret-password').fill('Merchant123');
    const rotated = page.waitForResponse((response) => response.url().includes('/adminapi/notify/rotateSecret'));
    await page.getByTestId('webhook-secret-rotate').click();
    expect((await rotated).status()).toBe(200);
    await expect(page.getByTestId('webhook-secret-value')).toContainText('whsec_');
    await page.screenshot({ path: `${screenshots}notifications-${locale}-secret.png`, fullPage: true });
  });
}
