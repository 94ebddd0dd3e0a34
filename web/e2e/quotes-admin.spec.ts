/**
 * Administrators tell merchants' quotes apart and edit one from the list, and a repricing
 * that would sell at a loss is named and needs a ticked confirmation: the quote list is
 * filtered by a merchant chosen by name, a row opens its editor and a new price shows in
 * the list; a 50 % rule previews every loss-making price with its cost and margin, and is
 * applied only once the box is ticked. Both locales; screenshots under /tmp/shots/quotes/
 * when SHOTS is set (both viewports).
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import {
  expandFilters,
  expect,
  loginAs,
  openOverlay,
  overlaysSettled,
  pageShot,
  test,
  useLocale,
  USERS,
} from './support/console';

const SHOTS = process.env.SHOTS ? '/tmp/shots/quotes/' : null;
if (SHOTS) mkdirSync(SHOTS, { recursive: true });

async function adminToken(request: APIRequestContext): Promise<string> {
  const login = await request.post('/adminapi/login/login', { data: USERS.admin });
  return ((await login.json()) as { data: { token: string } }).data.token;
}

/** A fresh merchant with a long name and quotes for two products; answers its mid and name. */
async function pricedMerchant(request: APIRequestContext, tag: string): Promise<{ mid: number; name: string }> {
  const token = await adminToken(request);
  const headers = { Authorization: `Bearer ${token}` };
  const name = `报价测试商户 ${tag} 一个相当长的商户名称用于检查省略号 ${Date.now().toString(36)}`;
  const created = await request.post('/adminapi/admin/merchant/create', {
    data: { name, username: `quotes${tag}${Date.now().toString(36)}` },
    headers,
  });
  const body = (await created.json()) as { code: number; msg: string; data: { merchant_id: number } };
  expect(body.code, body.msg).toBe(20000);
  const mid = body.data.merchant_id;
  for (const [key, price] of [
    ['TELECOM-DIRECT-10', 985],
    ['MOBILE-DIRECT-50', 4925],
  ] as const) {
    const saved = await request.post('/adminapi/admin/quote/save', {
      data: { merchant_id: mid, product_key: key, price_fen: price },
      headers,
    });
    expect(((await saved.json()) as { code: number }).code).toBe(20000);
  }
  return { mid, name };
}

/** The page at 1440×900 and at 390×844 (a phone), then back to the wide screen. */
async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ]) {
    await page.setViewportSize({ width, height });
    await page.waitForFunction((wide) => window.innerWidth === wide, width);
    await overlaysSettled(page);
    await pageShot(page, `${SHOTS}${name}-${width}x${height}.png`, { animations: 'disabled' });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`filter quotes by merchant, open a row and change its price (${locale})`, async ({ page }) => {
    await useLocale(page, locale);
    const { mid, name } = await pricedMerchant(page.request, locale === 'zh-CN' ? 'zh' : 'en');
    await loginAs(page, 'admin');
    await page.goto('#/qoute/list');
    await expect(page.getByTestId('quote-list-page')).toBeVisible();
    await expandFilters(page, 'quote-filters');

    // Chosen by name from the server's merchants; the filter holds its mid.
    const picker = page.getByTestId('quote-filter-merchant');
    await picker.click();
    // Part of its name, as a person remembers it: the server searches names and mids.
    await page.keyboard.type(name.slice(-10));
    const option = page.locator('.ant-select-item-option', { hasText: `(${mid})` });
    await option.click();
    await page.getByTestId('quote-search').click();
    const table = page.getByTestId('quote-table');
    await expect(page.getByTestId('quote-total')).toContainText('2');
    const rows = table.locator('tbody tr.ant-table-row');
    await expect(rows).toHaveCount(2);
    for (const row of await rows.all()) await expect(row.locator('[data-column="merchant"]')).toContainText(`${mid} ·`);
    expect(page.url()).toContain(`merchantId=${mid}`);
    await shoot(page, `${locale}-quote-list`);

    // A row opens its editor; the new price is saved in fen and shows in the list.
    const row = rows.filter({ hasText: 'TELECOM-DIRECT-10' });
    await openOverlay(page, row.locator('[data-column="product_key"]'), page.getByTestId('quote-edit-price'));
    const editor = page.getByTestId('quote-editor');
    await expect(editor).toContainText(`(${mid})`);
    await expect(page.getByTestId('quote-edit-price')).toHaveValue('9.85');
    await page.getByTestId('quote-edit-price').fill('9.9x');
    await page.getByTestId('quote-edit-save').click();
    await expect(editor.locator('.ant-form-item-explain-error')).toBeVisible();
    await page.getByTestId('quote-edit-price').fill('9.91');
    await shoot(page, `${locale}-quote-editor`);
    await page.getByTestId('quote-edit-save').click();
    await expect(page.getByTestId('quote-edit-price')).toBeHidden();
    await expect(row.locator('[data-column="price_fen"]')).toHaveText('9.91');
  });

  test(`a repricing at a loss is named and applied only once confirmed (${locale})`, async ({ page }) => {
    await useLocale(page, locale);
    const { mid } = await pricedMerchant(page.request, locale === 'zh-CN' ? 'lz' : 'le');
    await loginAs(page, 'admin');
    await page.goto('#/qoute/pricing');
    await expect(page.getByTestId('quote-pricing-page')).toBeVisible();
    await page.getByTestId('pricing-merchant').fill(String(mid));
    await page.getByTestId('pricing-carrier').click();
    await page.locator('.ant-select-item-option').first().click();
    await page.getByTestId('pricing-rate').fill('50');
    await page.getByTestId('pricing-preview').click();

    // ¥50 face value for ¥25 against ¥48.00: the cheapest channel where it is dearest (the
    // demo's national sim-cheap at 96 %; sim-south's 95 % covers only Guangdong and Zhejiang).
    const warnings = page.getByTestId('pricing-warnings');
    await expect(warnings).toBeVisible();
    const fifty = page.getByTestId('pricing-warnings-table').locator('tr', { hasText: 'MOBILE-DIRECT-50' });
    await expect(fifty).toContainText('25.00');
    await expect(fifty).toContainText('48.00');
    await expect(fifty).toContainText('-23.00');
    await expect(page.getByTestId('pricing-apply')).toBeDisabled();
    await shoot(page, `${locale}-repricing-preview`);

    await page.getByTestId('pricing-acknowledge').check();
    await openOverlay(page, page.getByTestId('pricing-apply'), page.getByTestId('pricing-apply-confirm'));
    await page.getByTestId('pricing-apply-confirm').click();
    await expect(warnings).toBeHidden();
    const history = page.getByTestId('pricing-history-table');
    // Newest first: the rule's change above the quote's first price.
    await expect(history.locator('tbody tr', { hasText: 'MOBILE-DIRECT-50' }).first()).toContainText('25.00');
  });
}
