/**
 * Maintenance windows (维护窗口): an administrator creates a daily window over midnight
 * (the form says it ends the next day), the list shows it, a merchant sees it on the
 * workplace, and deleting it takes it off. China Broadnet, which sells nothing here, so the
 * window closes no other test's orders. Both locales.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, loginAs, openOverlay, pickOption, requestsTo, signOut, test, useLocale } from './support/console';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`an administrator schedules a window that merchants see (${locale})`, async ({ page }) => {
    const zh = locale === 'zh-CN';
    await useLocale(page, locale);
    await loginAs(page, 'admin');
    await page.goto('#/qoute/windows');
    await expect(page.getByTestId('windows-page')).toBeVisible();
    const title = `${zh ? '广电夜间维护' : 'Broadnet nightly'} ${String(Date.now()).slice(-6)}`;

    const creates = requestsTo(page, '/adminapi/admin/windows/create');
    await openOverlay(page, page.getByTestId('window-create'), page.getByTestId('window-title'));
    // Typed key by key (the other fields are filled at once), and the save double-clicked.
    await page.getByTestId('window-title').pressSequentially(title);
    await pickOption(page, 'window-carrier', zh ? '中国广电' : 'China Broadnet');
    await page
      .getByTestId('window-recurrence')
      .getByText(zh ? '每天' : 'Daily')
      .click();
    for (const [testId, time] of [
      ['window-span-start', '23:00'],
      ['window-span-end', '01:00'],
    ] as const) {
      // antd puts the test id on the picker's input itself.
      const input = page.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first();
      await input.click();
      await input.fill(time);
      await input.press('Enter');
      await expect(input).toHaveValue(time);
    }
    await expect(page.getByTestId('window-next-day')).toBeVisible();
    await page.screenshot({ path: `${screenshots}windows-form-${locale}.png` });
    await page.getByTestId('window-submit').dblclick();
    const row = page.getByTestId('windows-table').locator('tr', { hasText: title });
    await expect(row).toHaveCount(1);
    expect(creates).toHaveLength(1);
    await expect(row).toContainText(zh ? '每天 23:00–01:00 （次日）' : 'Daily 23:00–01:00 (next day)');
    await expect(row).toContainText(zh ? '中国广电' : 'China Broadnet');
    await page.screenshot({ path: `${screenshots}windows-${locale}.png`, fullPage: true });

    // A merchant sees it on the workplace, with its days and times.
    await signOut(page);
    await loginAs(page, 'merchant');
    const card = page.getByTestId('workplace-windows');
    await expect(card).toContainText(title);
    await expect(card).toContainText('23:00');
    await page.screenshot({ path: `${screenshots}workplace-windows-${locale}.png`, fullPage: true });

    // Deleted, it is gone.
    await signOut(page);
    await loginAs(page, 'admin');
    await page.goto('#/qoute/windows');
    const id = await row.locator('[data-testid^="window-delete-"]').getAttribute('data-testid');
    const confirm = page.locator('.ant-popconfirm', { hasText: title });
    await openOverlay(page, page.getByTestId(id ?? ''), confirm);
    await confirm.locator('.ant-btn-primary').click();
    await expect(row).toHaveCount(0);
  });
}
