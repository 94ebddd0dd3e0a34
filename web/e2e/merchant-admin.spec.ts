/**
 * Administrators run merchants (issue 12, Operations): a merchant created on the merchants
 * page signs in with its temporary password and is sent to choose its own before anything
 * else; disabling it shows on the list.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  chooseFromMenu,
  expect,
  loginAs,
  openOverlay,
  overlaysSettled,
  signOut,
  submitLogin,
  test,
  useLocale,
} from './support/console';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`a new merchant signs in and must change its temporary password first (${locale})`, async ({ page }) => {
    await useLocale(page, locale);
    const username = `shop${locale === 'zh-CN' ? 'zh' : 'en'}${Date.now().toString(36)}`;
    await loginAs(page, 'admin');
    await page.goto('#/finance/merchants');
    await openOverlay(page, page.getByTestId('merchant-create'), page.getByTestId('merchant-create-name'));
    await page.getByTestId('merchant-create-name').fill(locale === 'zh-CN' ? '新商户' : 'New shop');
    await page.getByTestId('merchant-create-username').fill(username);
    await page.screenshot({ path: `${screenshots}merchant-create-${locale}.png` });
    await page.getByTestId('merchant-create-submit').click();
    const password = page.getByTestId('temporary-password');
    await expect(password).toBeVisible();
    const temporary = ((await password.textContent()) ?? '').trim();
    expect(temporary).toMatch(/^[A-Za-z0-9]{12}$/);
    await page.screenshot({ path: `${screenshots}merchant-temporary-password-${locale}.png` });
    await page.getByTestId('temporary-password-close').click();
    await expect(password).toBeHidden();

    await signOut(page);
    await submitLogin(page, { username, password: temporary });
    // Sent to change the password before any page.
    await expect(page).toHaveURL(/#\/change-password$/);
    await expect(page.getByTestId('forced-password-page')).toBeVisible();
    await page.screenshot({ path: `${screenshots}forced-password-${locale}.png` });
    await page.goto('#/order/list');
    await expect(page).toHaveURL(/#\/change-password$/);
    await page.getByTestId('password-current').fill(temporary);
    await page.getByTestId('password-new').fill('Chosen2026x');
    await page.getByTestId('password-confirm').fill('Chosen2026x');
    await page.getByTestId('password-submit').click();
    await expect(page).toHaveURL(/#\/dashboard\/workplace$/);
    await expect(page.getByTestId('workplace-page')).toBeVisible();
    // The next sign-in goes straight in.
    await signOut(page);
    await submitLogin(page, { username, password: 'Chosen2026x' });
    await expect(page.getByTestId('workplace-page')).toBeVisible();
  });
}

test('an administrator disables and enables a merchant from its row', async ({ page }) => {
  await useLocale(page, 'en-US');
  await loginAs(page, 'admin');
  await page.goto('#/finance/merchants');
  await page.getByTestId('merchant-filter-keyword').fill('10001');
  await page.getByTestId('merchant-search').click();
  await expect(page.getByTestId('merchant-total')).toContainText('1');
  const status = page.getByTestId('merchant-status').first();
  await expect(status).toHaveText('Enabled');
  const manage = page.getByTestId('merchant-manage').first();
  const confirm = page.getByTestId('merchant-switch-confirm');
  await chooseFromMenu(
    () => manage.click({ timeout: 3_000 }),
    page.getByRole('menuitem', { name: 'Disable' }),
    () => confirm.isVisible(),
  );
  await overlaysSettled(page);
  await confirm.click();
  await expect(confirm).toBeHidden();
  await expect(status).toHaveText('Disabled');
  await chooseFromMenu(
    () => manage.click({ timeout: 3_000 }),
    page.getByRole('menuitem', { name: 'Enable' }),
    () => confirm.isVisible(),
  );
  await overlaysSettled(page);
  await confirm.click();
  await expect(confirm).toBeHidden();
  await expect(status).toHaveText('Enabled');
});
