import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, loginAs, openOverlay, signOut, test, useLocale } from './support/console';

const directory = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(directory, { recursive: true });

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`screenshots in ${locale}`, async ({ page }) => {
    await useLocale(page, locale);
    const shot = async (name: string) => {
      await expect(page.locator('#nprogress')).toHaveCount(0);
      await page.screenshot({ path: `${directory}${locale}-${name}.png`, fullPage: true });
    };

    await page.goto('#/login');
    await expect(page.getByTestId('login-form')).toBeVisible();
    await shot('login');

    await loginAs(page, 'admin');
    await page.waitForLoadState('networkidle');
    await expect(page.getByTestId('workplace-chart').locator('canvas')).toHaveCount(1);
    await shot('workplace');

    await openOverlay(page, page.getByTestId('navbar-settings'), page.getByTestId('settings-close'));
    await expect(page.getByTestId('setting-switch-navbar')).toBeVisible();
    await page.waitForTimeout(400);
    await shot('settings-drawer');
    await page.getByTestId('settings-close').click();

    await page.goto('#/this-page-does-not-exist');
    await expect(page.getByTestId('exception-404')).toBeVisible();
    await shot('not-found');

    await page.goto('#/dashboard/monitor');
    await expect(page.getByTestId('monitor-version')).toBeVisible();
    await expect(page.getByTestId('live-chart').locator('canvas')).toHaveCount(1);
    await shot('monitor');
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
