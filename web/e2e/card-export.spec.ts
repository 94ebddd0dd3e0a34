/**
 * The encrypted card-secret export against the real server: a merchant ticks card orders on
 * the card-order list, gives a password and gets 卡密-<date>.xlsx, an encrypted Office file
 * (an OLE compound file, not a plain zip). The API tests decrypt it and check its rows.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, loginAs, openOverlay, pageShot, tableShown, test, useLocale } from './support/console';

const directory = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(directory, { recursive: true });

const TEXTS = {
  'zh-CN': { open: '导出卡密', chosen: '已选 2 笔', rule: '8 至 64 个字符', differ: '两次输入的密码不一致' },
  'en-US': { open: 'Export card secrets', chosen: '2 chosen', rule: '8 to 64 characters', differ: 'The two passwords differ' },
} as const;

for (const locale of ['zh-CN', 'en-US'] as const) {
  const text = TEXTS[locale];
  test(`a merchant exports chosen card orders as a password-protected xlsx (${locale})`, async ({ page }) => {
    await useLocale(page, locale);
    await loginAs(page, 'merchant');
    // Delivered cards only: the successful card orders.
    await page.goto('#/order/cardList?status=2');
    const rows = await tableShown(page, 'order-table');
    await expect(page.getByTestId('card-export-open')).toHaveText(text.open);
    const boxes = rows.locator('.ant-table-selection-column .ant-checkbox-wrapper');
    await boxes.nth(0).click();
    await boxes.nth(1).click();
    await expect(page.getByTestId('card-export-open')).toContainText(text.chosen);

    await openOverlay(page, page.getByTestId('card-export-open'), page.getByTestId('card-export-form'));
    await expect(page.getByTestId('card-export-count')).toContainText('2');
    await pageShot(page, `${directory}${locale}-card-export-dialog.png`);
    await page.getByTestId('card-export-password').fill('lettersonly');
    await page.getByTestId('card-export-submit').click();
    await expect(page.getByTestId('card-export-form')).toContainText(text.rule);
    await page.getByTestId('card-export-password').fill('Export2026');
    await page.getByTestId('card-export-confirm').fill('Export2027');
    await page.getByTestId('card-export-submit').click();
    await expect(page.getByTestId('card-export-form')).toContainText(text.differ);

    await page.getByTestId('card-export-confirm').fill('Export2026');
    const exports: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/adminapi/order/card/export')) exports.push(request.url());
    });
    const posted = page.waitForRequest((request) => request.url().includes('/adminapi/order/card/export'));
    const download = page.waitForEvent('download');
    // A double click is one export.
    await page.getByTestId('card-export-submit').dblclick();
    const request = await posted;
    expect(request.method()).toBe('POST');
    expect(request.url()).not.toContain('Export2026');
    expect(request.postDataJSON()).toMatchObject({ password: 'Export2026' });
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^卡密-\d{8}\.xlsx$/);
    const bytes = readFileSync(await file.path());
    expect([...bytes.subarray(0, 4)]).toEqual([0xd0, 0xcf, 0x11, 0xe0]);
    expect(bytes.includes(Buffer.from('xl/worksheets'))).toBe(false);
    await expect(page.getByTestId('card-export-form')).toHaveCount(0);
    expect(exports).toHaveLength(1);
    await page.setViewportSize({ width: 390, height: 844 });
    await pageShot(page, `${directory}${locale}-card-export-list-phone.png`);
  });
}
