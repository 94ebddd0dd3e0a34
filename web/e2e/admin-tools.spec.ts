/**
 * Administrators' tools and the trail they leave (issue 15, points 4, 5, 12, 14): resolving
 * orders by hand, failure reasons in the reader's language, certification review, merchants.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page } from '@playwright/test';
import { expandFilters, expect, loginAs, openOverlay, pickOption, test, USERS, useLocale } from './support/console';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

async function apiToken(request: APIRequestContext, who: keyof typeof USERS): Promise<string> {
  const response = await request.post('/adminapi/login/login', { data: USERS[who] });
  const body = (await response.json()) as Envelope<{ token: string }>;
  expect(body.code, body.msg).toBe(20000);
  return body.data.token;
}

async function apiPost<T>(request: APIRequestContext, token: string, path: string, data: unknown = {}): Promise<T> {
  const response = await request.post(path, { data, headers: { Authorization: `Bearer ${token}` } });
  const body = (await response.json()) as Envelope<T>;
  expect(body.code, `${path}: ${body.msg}`).toBe(20000);
  return body.data;
}

/** An on-behalf order of the demo merchant, placed by the administrator, awaiting a person. */
async function behalfOrder(request: APIRequestContext, admin: string): Promise<string> {
  const placed = await apiPost<{ order: { order_no: string } }>(request, admin, '/adminapi/order/add', {
    merchant_id: 10001,
    account: '13800138000',
    product_key: 'MOBILE-DIRECT-10',
    behalf: true,
  });
  return placed.order.order_no;
}

/** The on-behalf list showing just one order. */
async function showOrder(page: Page, orderNo: string) {
  await page.goto('#/order/behalfList');
  await expandFilters(page, 'order-filters');
  await page.getByTestId('filter-order-no').fill(orderNo);
  const answered = page.waitForResponse(
    (response) =>
      response.url().includes('/adminapi/order/list') && (response.request().postData() ?? '').includes(orderNo),
  );
  await page.getByTestId('filter-search').click();
  await answered;
  const rows = page.getByTestId('order-table').locator('tbody tr.ant-table-row');
  await expect(rows).toHaveCount(1);
  return rows.first();
}

const RESOLVE_TEXTS = {
  'zh-CN': {
    successExplains: '并记为成功',
    refund: /退回|退款/,
    serialRequired: '请填写流水号',
    note: '已与运营商电话确认',
    done: '订单已处理',
    success: '成功',
    markedSuccess: '管理员 admin 人工标记成功',
    noteShown: '原因：已与运营商电话确认',
    withoutSerial: '无流水号',
    placedBy: '操作人：admin',
    failureExplains: '退回商户账户',
    reasonRequired: '请填写失败原因',
    reason: '号码已停机',
    markedFailure: '管理员 admin 人工标记失败，已退款',
    reasonShown: '原因：号码已停机',
  },
  'en-US': {
    successExplains: 'record it as succeeded',
    refund: /refund/i,
    serialRequired: 'Enter the serial number',
    note: 'confirmed by phone with the carrier',
    done: 'Order resolved',
    success: 'Success',
    markedSuccess: 'Marked succeeded by administrator admin',
    noteShown: 'Reason: confirmed by phone with the carrier',
    withoutSerial: 'without a serial number',
    placedBy: 'By admin',
    failureExplains: 'refund',
    reasonRequired: 'Enter the failure reason',
    reason: 'number out of service',
    markedFailure: 'Marked failed by administrator admin; refunded',
    reasonShown: 'Reason: number out of service',
  },
} as const;

test.describe('resolving orders by hand', () => {
  for (const locale of ['zh-CN', 'en-US'] as const) {
    const text = RESOLVE_TEXTS[locale];

    test(`a success needs a serial number, says nothing of refunds, and the timeline names the administrator (${locale})`, async ({
      page,
      request,
    }) => {
      const orderNo = await behalfOrder(request, await apiToken(request, 'admin'));
      await useLocale(page, locale);
      await loginAs(page, 'admin');
      const row = await showOrder(page, orderNo);
      await openOverlay(page, row.getByTestId('resolve-success'), page.getByTestId('resolve-explanation'));
      const explanation = page.getByTestId('resolve-explanation');
      await expect(explanation).toContainText(text.successExplains);
      await expect(explanation).not.toContainText(text.refund);
      await page.screenshot({ path: `${screenshots}${locale}-resolve-success-dialog.png` });
      await page.getByTestId('resolve-confirm').click();
      await expect(page.locator('#serial_no_help')).toHaveText(text.serialRequired);
      await page.getByTestId('resolve-text').fill('   ');
      await page.getByTestId('resolve-confirm').click();
      await expect(page.locator('#serial_no_help')).toHaveText(text.serialRequired);
      await page.getByTestId('resolve-text').fill('SN-TRAIL-1');
      await page.getByTestId('resolve-note').fill(text.note);
      await page.getByTestId('resolve-confirm').click();
      await expect(page.getByText(text.done)).toBeVisible();
      await expect(row.getByTestId('order-status')).toHaveText(text.success);

      await openOverlay(page, row.getByTestId('order-no-link'), page.getByTestId('order-timeline'));
      const timeline = page.getByTestId('order-timeline');
      await expect(timeline).toContainText(text.markedSuccess);
      await expect(timeline).toContainText(text.noteShown);
      await expect(timeline).not.toContainText(text.withoutSerial);
      await expect(timeline).toContainText(text.placedBy); // who placed it
      await page.screenshot({ path: `${screenshots}${locale}-order-timeline-success.png`, fullPage: true });
    });

    test(`a failure says the merchant is refunded, needs a reason, and shows it (${locale})`, async ({
      page,
      request,
    }) => {
      const orderNo = await behalfOrder(request, await apiToken(request, 'admin'));
      await useLocale(page, locale);
      await loginAs(page, 'admin');
      const row = await showOrder(page, orderNo);
      await openOverlay(page, row.getByTestId('resolve-failure'), page.getByTestId('resolve-explanation'));
      await expect(page.getByTestId('resolve-explanation')).toContainText(text.failureExplains);
      await page.screenshot({ path: `${screenshots}${locale}-resolve-failure-dialog.png` });
      await page.getByTestId('resolve-confirm').click();
      await expect(page.locator('#reason_help')).toHaveText(text.reasonRequired);
      await page.getByTestId('resolve-text').fill(text.reason);
      await page.getByTestId('resolve-confirm').click();
      await expect(page.getByText(text.done)).toBeVisible();
      await expect(row.getByTestId('order-failure-reason')).toHaveText(text.reason);

      await openOverlay(page, row.getByTestId('order-no-link'), page.getByTestId('order-timeline'));
      const timeline = page.getByTestId('order-timeline');
      await expect(timeline).toContainText(text.markedFailure);
      await expect(timeline).toContainText(text.reasonShown);
      await expect(page.getByTestId('detail-failure-reason')).toHaveText(text.reason);
      await page.screenshot({ path: `${screenshots}${locale}-order-timeline.png`, fullPage: true });
    });
  }
});

test.describe('failure reasons', () => {
  for (const [locale, failure, reason, column] of [
    ['zh-CN', '失败', '运营商拒绝充值', '失败原因'],
    ['en-US', 'Failure', 'The carrier refused the top-up', 'Failure reason'],
  ] as const) {
    test(`have their own column in the reader's language (${locale})`, async ({ page }) => {
      await useLocale(page, locale);
      await loginAs(page, 'merchant');
      await page.goto('#/order/list');
      const table = page.getByTestId('order-table');
      await expect(table.locator('thead')).toContainText(column);
      // The demo history holds failures the sandbox channel refused.
      await pickOption(page, 'filter-status', failure);
      const answered = page.waitForResponse(
        (response) =>
          response.url().includes('/adminapi/order/list') &&
          (response.request().postData() ?? '').includes('"status":3'),
      );
      await page.getByTestId('filter-search').click();
      await answered;
      await expect(table.getByTestId('order-failure-reason').first()).toHaveText(reason);
      await expect(table).not.toContainText('sandbox');
    });
  }
});

test.describe('merchants page', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  for (const locale of ['zh-CN', 'en-US'] as const) {
    test(`created time is visible beside the fixed actions (${locale})`, async ({ page }) => {
      await useLocale(page, locale);
      await loginAs(page, 'admin');
      await page.goto('#/finance/merchants');
      const row = page.getByTestId('merchant-table').locator('tbody tr.ant-table-row').first();
      const created = row.getByTestId('merchant-created-at');
      await expect(created).toBeVisible();
      const createdBox = (await created.boundingBox())!;
      const actionsBox = (await row.getByTestId('merchant-actions').boundingBox())!;
      expect(createdBox.x + createdBox.width).toBeLessThanOrEqual(actionsBox.x);
      // The four buttons on one line.
      expect(actionsBox.height).toBeLessThan(40);
      await page.screenshot({ path: `${screenshots}${locale}-merchants.png`, fullPage: true });
    });
  }

  const MONEY_TEXT = {
    'zh-CN': {
      shop: '回显测试商户',
      echo: (mid: number) => `确认为 回显测试商户（${mid}）加款 ¥12.50？`,
      back: '返回修改',
      remarkRequired: '调账须填写备注，说明调整原因',
      adjustEcho: (mid: number) => `确认为 回显测试商户（${mid}）调账 ¥1.00？`,
      remark: '备注：补录银行手续费',
      remarkText: '补录银行手续费',
      repay: '登记还款',
      repayWhy: '该商户没有待还授信，无需登记还款',
    },
    'en-US': {
      shop: 'Echo test shop',
      echo: (mid: number) => `Top up Echo test shop (${mid}) by ¥12.50?`,
      back: 'Back',
      remarkRequired: 'An adjustment needs a remark saying what it corrects',
      adjustEcho: (mid: number) => `Adjust the balance of Echo test shop (${mid}) by ¥1.00?`,
      remark: 'Remark: bank fee booked late',
      remarkText: 'bank fee booked late',
      repay: 'Record repayment',
      repayWhy: 'This merchant has no credit awaiting repayment: nothing to record',
    },
  } as const;

  for (const locale of ['zh-CN', 'en-US'] as const) {
    test(`a top-up echoes the amount, an adjustment needs a remark, a disabled repayment says why (${locale})`, async ({
      page,
      request,
    }) => {
      const text = MONEY_TEXT[locale];
      // A merchant of its own: no credit used, so nothing to repay, whatever other tests did.
      const admin = await apiToken(request, 'admin');
      const created = await apiPost<{ merchant_id: number }>(request, admin, '/adminapi/admin/merchant/create', {
        name: text.shop,
        username: `echo${locale === 'zh-CN' ? 'zh' : 'en'}${Date.now().toString(36)}`,
      });
      const mid = created.merchant_id;
      await useLocale(page, locale);
      await loginAs(page, 'admin');
      await page.goto(`#/finance/merchants?keyword=${mid}`);
      const rows = page.getByTestId('merchant-table').locator('tbody tr.ant-table-row');
      await expect(rows).toHaveCount(1);
      const row = rows.first();
      await expect(row).toContainText(text.shop);

      // The top-up: nothing runs before the dialog echoes the amount and the merchant.
      await openOverlay(page, row.getByTestId('merchant-topup'), page.getByTestId('merchant-action-amount'));
      await page.getByTestId('merchant-action-amount').fill('12.5');
      await page.getByTestId('merchant-action-next').click();
      const echo = page.getByTestId('merchant-action-echo');
      await expect(echo).toHaveText(text.echo(mid));
      await page.screenshot({ path: `${screenshots}${locale}-merchant-topup-echo.png` });
      // Back to correct it: nothing ran.
      await page.getByRole('button', { name: text.back }).click();
      await expect(echo).toHaveCount(0);
      await expect(page.getByTestId('merchant-action-amount')).toHaveValue('12.5');
      await page.locator('.ant-modal-close').click();
      await expect(page.getByTestId('merchant-action-amount')).toBeHidden();
      await expect(row.locator('td[data-column=balance_fen]')).toHaveText('0.00');

      // The adjustment: no remark, no echo; with one, the echo repeats it.
      await openOverlay(page, row.getByTestId('merchant-adjust'), page.getByTestId('merchant-action-amount'));
      await page.getByTestId('merchant-action-amount').fill('1');
      await page.getByTestId('merchant-action-next').click();
      await expect(page.locator('#remark_help')).toHaveText(text.remarkRequired);
      await expect(echo).toHaveCount(0);
      await page.screenshot({ path: `${screenshots}${locale}-merchant-adjust-remark.png` });
      await page.getByTestId('merchant-action-remark').fill(text.remarkText);
      await page.getByTestId('merchant-action-next').click();
      await expect(echo).toContainText(text.adjustEcho(mid));
      await expect(echo).toContainText(text.remark);
      // The corner X abandons the action from the echo too (it used to go back to the form).
      await page.locator('.ant-modal-close').click();
      await expect(page.getByTestId('merchant-action-amount')).toBeHidden();

      // Nothing to repay: the button is disabled and says why on hover.
      await expect(row.getByTestId('merchant-repay')).toBeDisabled();
      await expect(row.getByTestId('merchant-repay')).toHaveText(text.repay);
      await row.getByTestId('merchant-repay-why').hover();
      await expect(page.getByRole('tooltip')).toHaveText(text.repayWhy);
      await page.screenshot({ path: `${screenshots}${locale}-merchant-repay-why.png` });
    });
  }
});

test.describe('overdue on-behalf orders', () => {
  for (const locale of ['zh-CN', 'en-US'] as const) {
    test(`are listed first for administrators, oldest first, and flagged (${locale})`, async ({ page }) => {
      await useLocale(page, locale);
      await loginAs(page, 'admin');
      await page.goto('#/order/behalfList');
      // The demo history leaves some on-behalf orders pending for days.
      const overdue = page.getByTestId('overdue-behalf');
      await expect(overdue).toBeVisible();
      const waited = await overdue.getByTestId('overdue-waited').allInnerTexts();
      expect(waited.length).toBeGreaterThan(0);
      // Days, not minutes: "2 天 4 小时" / "2 d 4 h"; the first has waited longest.
      expect(waited[0]).toMatch(locale === 'zh-CN' ? /^\d+ 天 \d+ 小时$/ : /^\d+ d \d+ h$/);
      const days = waited.map((text) => Number(/^(\d+)/.exec(text)?.[1] ?? 0));
      expect([...days].sort((a, b) => b - a)).toEqual(days);
      // In the list below, overdue ones carry a flag next to their status.
      await pickOption(page, 'filter-status', locale === 'zh-CN' ? '待处理' : 'Pending');
      await page.getByTestId('filter-search').click();
      await expect(page.getByTestId('order-table').getByTestId('order-overdue').first()).toBeVisible();
      await page.screenshot({ path: `${screenshots}${locale}-behalf-overdue.png`, fullPage: true });
    });
  }

  test('are not shown to merchants as a list of their own', async ({ page }) => {
    await useLocale(page, 'en-US');
    await loginAs(page, 'merchant');
    await page.goto('#/order/behalfList');
    await expect(page.getByTestId('order-table')).toBeVisible();
    await expect(page.getByTestId('overdue-behalf')).toHaveCount(0);
  });
});
