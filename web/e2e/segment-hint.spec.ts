/**
 * The add-order form's place hint as people enter a number: typed key by key (60 ms a key)
 * as soon as the page shows, and pasted or filled at once (a password manager, a paste with
 * +86 and spaces). The hint follows what is in the field, asking the server once per prefix.
 */
import { expect, loginAs, test, useLocale } from './support/console';

const HINTS = { 'zh-CN': '北京 · 中国移动', 'en-US': 'Beijing · China Mobile' } as const;

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`the place of a number shows as it is typed and as it is filled at once (${locale})`, async ({ page }) => {
    await useLocale(page, locale);
    await loginAs(page, 'merchant');
    const lookups: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/adminapi/segment/lookup')) lookups.push(request.postData() ?? '');
    });
    await page.goto('#/order/addList');
    const account = page.getByTestId('add-order-account');
    const hint = page.getByTestId('add-order-segment');

    // Key by key from the moment the field shows, before the page has settled.
    await account.pressSequentially('13800138000', { delay: 60 });
    await expect(hint).toHaveText(HINTS[locale]);
    await expect(account).toHaveValue('13800138000');
    // The digits after the seventh change no prefix: one question for the whole number.
    expect(lookups).toHaveLength(1);

    // Filled at once, spelled as a paste would be: the same place, from the answer already had.
    await account.fill('');
    await expect(hint).toHaveCount(0);
    await account.fill('+86 138 0013 8000');
    await expect(hint).toHaveText(HINTS[locale]);
    expect(lookups).toHaveLength(1);
  });
}
