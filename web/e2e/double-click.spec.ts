/**
 * A double click never moves money twice and never skips a second look: the administrator's
 * money dialog stops on its review step, and the add-order and batch pages place once.
 */
import type { Page, Request } from '@playwright/test';
import { expect, loginAs, openOverlay, test, useLocale } from './support/console';

const LOCALES = ['zh-CN', 'en-US'] as const;

/** Every request the page makes to an API path ending in `path`, as it is sent. */
function watchCalls(page: Page, path: string): Request[] {
  const calls: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith(path)) calls.push(request);
  });
  return calls;
}

const fen = (text: string | null) => Number((text ?? '').replace(/[^0-9-]/g, ''));

for (const locale of LOCALES) {
  const zh = locale === 'zh-CN';

  test(`a double click on Next stops on the review step; its confirm tops up once (${locale})`, async ({ page }) => {
    await useLocale(page, locale);
    await loginAs(page, 'admin');
    const topUps = watchCalls(page, '/adminapi/admin/merchant/topup');
    await page.goto('#/finance/merchants');
    const row = page.getByTestId('merchant-table').locator('tbody tr.ant-table-row').first();
    await expect(row).toBeVisible();
    const balance = row.locator('td[data-column=balance_fen]');
    const before = fen(await balance.textContent());

    await openOverlay(page, row.getByTestId('merchant-topup'), page.getByTestId('merchant-action-amount'));
    await page.getByTestId('merchant-action-amount').fill('5000');
    const next = page.getByTestId('merchant-action-next');
    await expect(next).toHaveText(zh ? '下一步' : 'Next');
    await next.dblclick();
    const echo = page.getByTestId('merchant-action-echo');
    await expect(echo).toContainText('¥5,000.00');
    await expect(echo).toBeVisible();
    expect(topUps).toHaveLength(0);
    expect(fen(await balance.textContent())).toBe(before);

    // A click of its own on the review step's confirm tops up: once in all.
    const answered = page.waitForResponse((response) => response.url().endsWith('/adminapi/admin/merchant/topup'));
    await page.getByTestId('merchant-action-confirm').click();
    expect((await answered).ok()).toBe(true);
    await expect(page.getByText(zh ? '操作成功' : 'Done')).toBeVisible();
    await expect.poll(async () => fen(await balance.textContent())).toBe(before + 500_000);
    expect(topUps).toHaveLength(1);
  });
}
