/**
 * Administrators keep the catalogue and merchants' prices (issue 12, Operations): a bulk
 * rule "face value × 97.5 % for China Mobile" is previewed, applied, shows in the quote
 * list and in the price history; a product is created, switched off and deleted.
 * Screenshots of both pages in both locales.
 */
import type { APIRequestContext } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  addOption,
  expect,
  loginAs,
  openOverlay,
  pickOption,
  refused,
  requestsTo,
  test,
  useLocale,
  USERS,
} from './support/console';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

/** A fresh merchant (no quotes yet), so other tests' prices stay as they are. */
async function newMerchant(request: APIRequestContext, name: string): Promise<number> {
  const login = await request.post('/adminapi/login/login', { data: USERS.admin });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const created = await request.post('/adminapi/admin/merchant/create', {
    data: { name, username: `${name}${Date.now().toString(36)}` },
    headers: { Authorization: `Bearer ${token}` },
  });
  const body = (await created.json()) as { code: number; msg: string; data: { merchant_id: number } };
  expect(body.code, body.msg).toBe(20000);
  return body.data.merchant_id;
}

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`bulk-reprice a merchant's China Mobile quotes (${locale})`, async ({ page, noise }) => {
    noise.allow(refused(422, '/adminapi/admin/quote/import'), 'the import with bad lines this test sends (422)');
    await useLocale(page, locale);
    const mid = await newMerchant(page.request, `reprice${locale === 'zh-CN' ? 'zh' : 'en'}`);
    await loginAs(page, 'admin');
    await page.goto('#/qoute/pricing');
    await expect(page.getByTestId('quote-pricing-page')).toBeVisible();
    await page.getByTestId('pricing-merchant').fill(String(mid));
    await page.getByTestId('pricing-carrier').click();
    await page.locator('.ant-select-item-option').first().click();
    await page.getByTestId('pricing-rate').fill('97.5');
    await page.getByTestId('pricing-preview').click();
    const preview = page.getByTestId('pricing-preview-table');
    await expect(preview).toContainText('MOBILE-DIRECT-10');
    await expect(preview).not.toContainText('UNICOM');
    // Face value 10.00 at 97.5 %: 9.75, computed by the server in fen.
    await expect(preview.locator('tr', { hasText: 'MOBILE-DIRECT-10' }).first()).toContainText('9.75');
    // Six face values in two kinds, plus the demo's slow and Guangdong-only products.
    await expect(page.getByTestId('pricing-summary')).toContainText('14');
    await page.screenshot({ path: `${screenshots}pricing-preview-${locale}.png`, fullPage: true });

    await openOverlay(page, page.getByTestId('pricing-apply'), page.getByTestId('pricing-apply-confirm'));
    await page.getByTestId('pricing-apply-confirm').click();
    await expect(preview).toBeHidden();
    const history = page.getByTestId('pricing-history-table');
    await expect(history.locator('tbody tr.ant-table-row')).toHaveCount(14);
    await expect(history).toContainText('admin');
    await page.screenshot({ path: `${screenshots}pricing-history-${locale}.png`, fullPage: true });

    // An import with bad lines names each of them and changes nothing; a good one applies.
    const file = page.getByTestId('pricing-import').locator('input[type=file]');
    const bad = 'MOBILE-DIRECT-10,9.6\nNO-SUCH-KEY,1\nMOBILE-DIRECT-20,1.234\n';
    await file.setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
    const errors = page.getByTestId('pricing-import-errors').locator('li');
    await expect(errors).toHaveCount(2);
    await expect(errors.first()).toContainText('2');
    await expect(errors.nth(1)).toContainText('3');
    await expect(history.locator('tbody tr.ant-table-row')).toHaveCount(14);
    await page.screenshot({ path: `${screenshots}pricing-import-errors-${locale}.png`, fullPage: true });
    await file.setInputFiles({ name: 'good.csv', mimeType: 'text/csv', buffer: Buffer.from('MOBILE-DIRECT-10,9.6\n') });
    await expect(errors).toHaveCount(0);
    await expect(history.locator('tbody tr.ant-table-row')).toHaveCount(15);
    await expect(history.locator('tbody tr.ant-table-row').first()).toContainText('9.60');

    // The merchant's quote list shows the new price.
    await page.goto(`#/qoute/list?merchantId=${mid}&productKey=MOBILE-DIRECT-10`);
    await expect(page.getByTestId('quote-table')).toContainText('9.60');
  });
}

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`products are created, switched off and deleted; one in use is not deleted (${locale})`, async ({
    page,
    noise,
  }) => {
    noise.allow(refused(409, '/adminapi/admin/product/delete'), 'deleting the product in use is refused on purpose');
    await useLocale(page, locale);
    await loginAs(page, 'admin');
    await page.goto('#/qoute/products');
    await expect(page.getByTestId('product-table')).toContainText('MOBILE-DIRECT-10');
    await page.screenshot({ path: `${screenshots}products-${locale}.png`, fullPage: true });
    const on = locale === 'zh-CN' ? '上架' : 'On';
    const off = locale === 'zh-CN' ? '下架' : 'Off';
    const inUse = locale === 'zh-CN' ? '不能删除，只能下架' : 'cannot be deleted, only switched off';

    const key = `E2E-${locale === 'zh-CN' ? 'ZH' : 'EN'}-${Date.now().toString(36).toUpperCase()}`;
    const creates = requestsTo(page, '/adminapi/admin/product/create');
    await openOverlay(page, page.getByTestId('product-create'), page.getByTestId('product-key'));
    // The key typed key by key (the rest filled at once), and the save double-clicked.
    await page.getByTestId('product-key').pressSequentially(key);
    await page.getByTestId('product-name').fill('E2E test product');
    await page.getByTestId('product-face-value').fill('12.5');
    // A slow product sold in Guangdong and Zhejiang only.
    const [slow, guangdong, zhejiang] =
      locale === 'zh-CN' ? ['慢充', '广东', '浙江'] : ['Slow', 'Guangdong', 'Zhejiang'];
    await pickOption(page, 'product-speed', slow);
    for (const province of [guangdong, zhejiang]) await addOption(page, 'product-provinces', province);
    await page.screenshot({ path: `${screenshots}product-create-${locale}.png` });
    await page.getByTestId('product-submit').dblclick();
    const row = page.getByTestId('product-table').locator('tr', { hasText: key });
    await expect(row).toContainText('12.50');
    expect(creates).toHaveLength(1);
    await expect(row).toContainText(on);
    await expect(row).toContainText(slow);
    await expect(row).toContainText(locale === 'zh-CN' ? '浙江、广东' : 'Zhejiang, Guangdong');
    await page.getByTestId(`product-toggle-${key}`).click();
    await expect(row).toContainText(off);
    // Switching it off keeps its speed and sales area.
    await expect(row).toContainText(slow);
    await expect(row).toContainText(guangdong);
    await page.screenshot({ path: `${screenshots}products-scope-${locale}.png`, fullPage: true });

    // In use: refused with the reason. Each pop-confirm is found by its product: the one
    // before may still be fading out when the next opens.
    const confirmOf = (product: string) => page.locator('.ant-popconfirm', { hasText: product });
    const inUseConfirm = confirmOf('MOBILE-DIRECT-10');
    await openOverlay(page, page.getByTestId('product-delete-MOBILE-DIRECT-10'), inUseConfirm);
    await inUseConfirm.locator('.ant-btn-primary').click();
    await expect(page.locator('.ant-message').getByText(inUse)).toBeVisible();
    await expect(page.getByTestId('product-table')).toContainText('MOBILE-DIRECT-10');

    // Unused: the confirmation says what goes with it, then it is gone.
    const unusedConfirm = confirmOf(key);
    await openOverlay(page, page.getByTestId(`product-delete-${key}`), unusedConfirm);
    const supply = locale === 'zh-CN' ? '供货设置将一并删除' : 'supply settings for it are deleted with it';
    await expect(unusedConfirm).toContainText(supply);
    await page.screenshot({ path: `${screenshots}product-delete-${locale}.png` });
    await unusedConfirm.locator('.ant-btn-primary').click();
    await expect(row).toHaveCount(0);
  });
}
