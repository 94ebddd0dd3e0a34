/**
 * Merchants' funding requests (issue 52): a merchant's user files a transfer with its
 * receipt, an administrator approves it from the review queue, and the merchant sees the
 * credit (the account-change record names the request) and the notice; both pages pass
 * axe. On a server of its own: an approval moves the demo merchant's money for good.
 */
import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { expect, loginAs, openOverlay, test, useLocale } from './support/console';
import { useOwnServer } from './support/spec-server';

useOwnServer();
test.use({ viewport: { width: 1440, height: 900 } });

/** A 1×1 PNG, the receipt. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const TEXTS = {
  'zh-CN': {
    filed: '充值申请已提交，请等待审核',
    approved: '已通过，金额已计入商户余额',
    status: '已通过',
    notice: '充值申请已通过',
  },
  'en-US': {
    filed: 'Funding request filed: it awaits review',
    approved: 'Approved: the amount was added to the merchant’s balance',
    status: 'Approved',
    notice: 'Funding request approved',
  },
} as const;

const toast = (page: Page, text: string) => page.locator('.ant-message-notice').filter({ hasText: text }).first();

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`a merchant files a transfer, an administrator approves it, the merchant sees the credit (${locale})`, async ({
    browser,
  }) => {
    const texts = TEXTS[locale];
    const reference = `E2E-${locale}-${Date.now()}`;
    const merchantContext = await browser.newContext();
    const merchant = await merchantContext.newPage();
    await useLocale(merchant, locale);
    await loginAs(merchant, 'merchant');
    await merchant.goto('#/finance/funding');
    await expect(merchant.getByTestId('funding-form')).toBeVisible();
    await expectNoAxeViolations(merchant, `funding page (${locale})`);

    await merchant.getByTestId('funding-amount').fill('1234.56');
    await merchant.getByTestId('funding-reference').fill(reference);
    await merchant.getByTestId('funding-payer').fill('张三');
    await merchant.locator('[data-testid=funding-form] input[type=file]').setInputFiles({
      name: 'receipt.png',
      mimeType: 'image/png',
      buffer: PNG,
    });
    // A double click files once: the button waits for the first answer.
    await merchant.getByTestId('funding-submit').dblclick();
    await expect(toast(merchant, texts.filed)).toBeVisible();
    const row = merchant.getByTestId('funding-table').locator('tr', { hasText: reference });
    await expect(row).toHaveCount(1);

    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    await useLocale(admin, locale);
    await loginAs(admin, 'admin');
    await admin.goto('#/finance/fundingReview');
    const queued = admin.getByTestId('funding-table').locator('tr', { hasText: reference });
    await expect(queued).toHaveCount(1);
    await expectNoAxeViolations(admin, `funding review page (${locale})`);
    await openOverlay(admin, queued.getByTestId('funding-view-proof'), admin.getByTestId('funding-proof-image'));
    await expect(admin.getByTestId('funding-proof-image').locator('img')).toHaveAttribute('src', /^blob:/);
    await admin.keyboard.press('Escape');
    await openOverlay(admin, queued.getByTestId('funding-approve'), admin.getByTestId('funding-approve-confirm'));
    await admin.getByTestId('funding-approve-confirm').click();
    await expect(toast(admin, texts.approved)).toBeVisible();
    await expect(queued.getByTestId('funding-status')).toHaveText(texts.status);

    await merchant.reload();
    await expect(row.getByTestId('funding-status')).toHaveText(texts.status);
    await expect(row.getByTestId('funding-ledger')).toBeVisible();
    // The account-change record names the request beside the credit and the balance after it
    // (an exact balance is not compared: the demo's orders settle meanwhile).
    await merchant.goto('#/finance/account');
    const credit = merchant.getByTestId('account-table').locator('tr', { hasText: reference });
    await expect(credit).toContainText('+1,234.56');
    await merchant.goto('#/user/message');
    await expect(merchant.locator('body')).toContainText(texts.notice);
    await expect(merchant.locator('body')).toContainText(reference);
    await merchantContext.close();
    await adminContext.close();
  });
}
