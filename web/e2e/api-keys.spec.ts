/**
 * Open-API keys in the browser: a merchant creates a key (the secret shown once), checks a
 * signature with the signature helper, and revokes the key; screenshots in both languages.
 */
import { createHmac, createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, loginAs, openOverlay, pageShot, test, useLocale } from './support/console';

const directory = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(directory, { recursive: true });

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`API keys and the signature helper in ${locale}`, async ({ page }) => {
    await useLocale(page, locale);
    const shot = (name: string) => pageShot(page, `${directory}${locale}-${name}.png`);
    await loginAs(page, 'merchant');
    await page.goto('#/user/setting?tab=apiKeys');
    await expect(page.getByTestId('api-keys-tab')).toBeVisible();

    // The guide opens from the console, in the console's language, links and all.
    const [guide] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('api-guide-link').click()]);
    await expect(guide.locator('html')).toHaveAttribute('lang', locale);
    await expect(guide.locator('h1')).toHaveText(locale === 'zh-CN' ? '商户开放接口' : 'Merchant open API (/openapi/v1)');
    await guide.setViewportSize({ width: 390, height: 844 });
    await pageShot(guide, `${directory}${locale}-merchant-api-guide-phone.png`);
    await guide.getByRole('link', { name: locale === 'zh-CN' ? '订单结果回调' : 'Order result callbacks' }).click();
    await expect(guide.locator('h1')).toHaveText(locale === 'zh-CN' ? '订单结果回调' : 'Order result callbacks');
    await guide.close();

    await page.getByTestId('api-key-create').click();
    await page.getByTestId('api-key-password').fill('Merchant123');
    await page.getByTestId('api-key-create-ok').click();
    const secretText = page.getByTestId('api-key-new-secret');
    await expect(secretText).toHaveText(/^sk_[0-9a-f]{48}$/);
    const keyId = (await page.getByTestId('api-key-new-id').textContent()) ?? '';
    const secret = (await secretText.textContent()) ?? '';
    await shot('api-key-secret');
    await page.getByTestId('api-key-secret-dialog').getByRole('button').last().click();
    await expect(page.getByTestId(`api-key-revoke-${keyId}`)).toBeVisible();
    await shot('api-keys');

    // The helper: the server says whether a signature made with the secret matches.
    const body = '{"merchant_order_id":"E2E-1"}';
    const text = [
      'POST',
      '/openapi/v1/orders',
      '1763900000',
      'e2e-nonce-0123456789',
      createHash('sha256').update(body).digest('hex'),
    ].join('\n');
    await page.goto('#/user/sign-helper');
    await page.getByTestId('sign-helper-key-id').fill(keyId);
    await page.getByTestId('sign-helper-timestamp').fill('1763900000');
    await page.getByTestId('sign-helper-nonce').fill('e2e-nonce-0123456789');
    await page.getByTestId('sign-helper-body').fill(body);
    await page.getByTestId('sign-helper-signature').fill(createHmac('sha256', secret).update(text).digest('hex'));
    await page.getByTestId('sign-helper-check').click();
    await expect(page.getByTestId('sign-helper-matches')).toBeVisible();
    await expect(page.getByTestId('sign-helper-string')).toHaveText(text);
    await shot('sign-helper');

    // Revoked with confirmation, leaving the demo merchant as it was.
    await page.goto('#/user/setting?tab=apiKeys');
    await openOverlay(page, page.getByTestId(`api-key-revoke-${keyId}`), page.getByTestId('api-key-revoke-ok'));
    await page.getByTestId('api-key-revoke-ok').click();
    await expect(page.getByTestId(`api-key-revoke-${keyId}`)).toHaveCount(0);
  });
}

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`an administrator switches a key to legacy MD5 after a warning in ${locale}`, async ({ page }) => {
    await useLocale(page, locale);
    const shot = (name: string) => pageShot(page, `${directory}${locale}-${name}.png`);
    await loginAs(page, 'admin');
    await page.goto('#/user/setting?tab=apiKeys');
    await expect(page.getByTestId('api-keys-tab')).toBeVisible();
    // The demo merchant's key (--demo creates it).
    const toggle = page.locator('[data-testid^="api-key-legacy-ak_"]').first();
    await expect(toggle).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    // Each dialog is clicked only once it has stopped zooming in: a click during the zoom
    // lands beside the OK button, the dialog stays and the switch with it (CI, 2026-11-29).
    const ok = page.getByTestId('api-key-legacy-ok');
    await openOverlay(page, toggle, ok);
    await expect(page.getByText(locale === 'zh-CN' ? /弱于 HMAC-SHA256/ : /weaker than HMAC-SHA256/)).toBeVisible();
    await shot('api-key-legacy-warning');
    await ok.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await expect(page.getByText(locale === 'zh-CN' ? 'HMAC + 旧版 MD5' : 'HMAC + legacy MD5')).toBeVisible();
    await shot('api-keys-admin-legacy');
    // Back off, leaving the demo key as it was. The first dialog must be gone first: while it
    // fades out its OK button still matches, and a click on it does nothing.
    await expect(ok).toHaveCount(0);
    await openOverlay(page, toggle, ok);
    await ok.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
  });
}
