/**
 * Risk controls (风控): an administrator sets a merchant's controls in the merchants page,
 * the merchant sees them read-only in its settings, a second order for a number with one in
 * progress is refused in the add-order form saying what to do, and the live monitor counts
 * the refusal. Both locales.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import {
  api,
  apiLogin,
  chooseFromMenu,
  expect,
  loginAs,
  overlaysSettled,
  pickOption,
  refused,
  signOut,
  test,
  useLocale,
} from './support/console';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

const SAVE = '/adminapi/admin/merchant/risk/save';
const OFF = { merchant_id: 10001, single_flight: false, number_daily_orders: 0, number_daily_fen: 0, daily_cap_fen: 0 };

const TEXTS = {
  'zh-CN': {
    menu: '风控设置',
    refused: '该号码有正在充值的订单，请等待其完成后再下单',
    on: '开启',
    cap: '¥1,000,000.00',
  },
  'en-US': { menu: 'Risk controls', refused: 'This number has an order in progress', on: 'On', cap: '¥1,000,000.00' },
} as const;

/** Signed in as the administrator, the risk dialog of merchant 10001 opened from the merchants page. */
async function openRiskDialog(page: Page, locale: keyof typeof TEXTS): Promise<Locator> {
  await useLocale(page, locale);
  await loginAs(page, 'admin');
  await page.goto('#/finance/merchants');
  await page.getByTestId('merchant-filter-keyword').fill('10001');
  await page.getByTestId('merchant-search').click();
  await expect(page.getByTestId('merchant-total')).toContainText('1');
  const form = page.getByTestId('merchant-risk-form');
  await chooseFromMenu(
    () => page.getByTestId('merchant-manage').first().click({ timeout: 3_000 }),
    page.getByRole('menuitem', { name: TEXTS[locale].menu }),
    () => form.isVisible(),
  );
  return form;
}

for (const locale of ['zh-CN', 'en-US'] as const) {
  const texts = TEXTS[locale];
  test(`risk controls are set, shown and refuse a second order for a number (${locale})`, async ({ page, noise }) => {
    noise.allow(refused(409, '/adminapi/order/add'), 'the second order for a busy number this test places');
    const admin = await apiLogin(page.request, 'admin');
    try {
      const form = await openRiskDialog(page, locale);
      await overlaysSettled(page);
      await page.getByTestId('merchant-risk-single-flight').click();
      // Far above the demo history's amount today, whatever the hour: only shown, never reached.
      await page.getByTestId('merchant-risk-cap').fill('1000000');
      await page.screenshot({ path: `${screenshots}risk-dialog-${locale}.png` });
      const saved = page.waitForResponse((response) => response.url().endsWith(SAVE));
      await page.getByTestId('merchant-risk-submit').click();
      expect(((await (await saved).json()) as { code: number }).code).toBe(20000);
      await expect(form).toBeHidden();

      // The merchant sees them, read-only.
      await signOut(page);
      await loginAs(page, 'merchant');
      await page.goto('#/user/setting?tab=integration');
      const card = page.getByTestId('risk-limits-card');
      await expect(card).toContainText(texts.on);
      await expect(card).toContainText(texts.cap);
      await card.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${screenshots}risk-settings-${locale}.png` });

      // A number with an order in progress takes no second one: said under the number.
      const merchant = await apiLogin(page.request, 'merchant');
      const number = `1391${String(Date.now()).slice(-7)}`;
      await api(page.request, merchant, '/adminapi/order/add', {
        account: number,
        product_key: 'MOBILE-DIRECT-10',
        behalf: true,
      });
      await page.goto('#/order/addList');
      await page.getByTestId('add-order-account').fill(number);
      await pickOption(page, 'add-order-product', /MOBILE-DIRECT-10/);
      const answer = page.waitForResponse((response) => response.url().endsWith('/adminapi/order/add'));
      await page.getByTestId('add-order-submit').click();
      expect(((await (await answer).json()) as { code: number }).code).toBe(40940);
      await expect(page.locator('.ant-form-item-explain-error', { hasText: texts.refused })).toBeVisible();
      await page.screenshot({ path: `${screenshots}risk-refused-${locale}.png` });

      // The live monitor counts it.
      await signOut(page);
      await loginAs(page, 'admin');
      await page.goto('#/dashboard/monitor');
      const count = page.getByTestId('refused-number_in_flight');
      await expect(count).not.toHaveText('0');
      await page.getByTestId('live-risk-refusals').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${screenshots}risk-monitor-${locale}.png` });
    } finally {
      await api(page.request, admin, SAVE, OFF);
    }
  });
}

/**
 * The dialog as people fill it: the limits typed key by key while the dialog still opens (a
 * password manager or a paste fills at once: the first test), then the save double-clicked.
 * What was typed is saved, with one request.
 */
for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`the risk dialog typed key by key as it opens and double-clicked saves once (${locale})`, async ({ page }) => {
    const admin = await apiLogin(page.request, 'admin');
    const saves: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === SAVE) saves.push(request.postData() ?? '');
    });
    try {
      const form = await openRiskDialog(page, locale);
      // No wait for the dialog's animation: typed as soon as the fields are there.
      for (const [testId, keys] of [
        ['merchant-risk-orders', '12'],
        ['merchant-risk-number-amount', '300.5'],
      ] as const) {
        const field = page.getByTestId(testId);
        await field.click();
        await field.press('ControlOrMeta+a');
        await field.pressSequentially(keys);
        await expect(field).toHaveValue(keys);
      }
      const saved = page.waitForResponse((response) => response.url().endsWith(SAVE));
      await page.getByTestId('merchant-risk-submit').dblclick();
      expect(((await (await saved).json()) as { code: number }).code).toBe(20000);
      await expect(form).toBeHidden();
      const risk = await api<{ number_daily_orders: number; number_daily_fen: number }>(
        page.request,
        admin,
        '/adminapi/admin/merchant/risk',
        { merchant_id: 10001 },
      );
      expect(risk.number_daily_orders).toBe(12);
      expect(risk.number_daily_fen).toBe(30_050);
      expect(saves).toHaveLength(1);
    } finally {
      await api(page.request, admin, SAVE, OFF);
    }
  });
}
