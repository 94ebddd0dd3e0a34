/**
 * The platform's blocklist (风控黑名单): an administrator bars a number with a reason, an
 * import with a bad line names it and adds nothing, the barred number's order is refused
 * with its reason for the merchant, and unblocking it lets it order again. Both locales.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expectNoAxeViolations } from './support/axe';
import { expect, loginAs, openOverlay, refused, requestsTo, test, useLocale, USERS } from './support/console';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`an administrator blocks a number, which then takes no orders (${locale})`, async ({ page, noise }) => {
    noise.allow(refused(422, '/adminapi/admin/blocklist/import'), 'the import with a bad line this test sends');
    await useLocale(page, locale);
    await loginAs(page, 'admin');
    await page.goto('#/qoute/blocklist');
    await expect(page.getByTestId('blocklist-page')).toBeVisible();
    const number = `1381${String(Date.now()).slice(-7)}`;

    await openOverlay(page, page.getByTestId('blocklist-add'), page.getByTestId('blocklist-pattern'));
    await page.getByTestId('blocklist-pattern').fill(`+86 ${number.slice(0, 3)} ${number.slice(3)}`);
    // The reason typed key by key (the number pasted), and the save double-clicked.
    await page.getByTestId('blocklist-reason').pressSequentially(locale === 'zh-CN' ? '欺诈投诉' : 'fraud complaint');
    const adds = requestsTo(page, '/adminapi/admin/blocklist/add');
    await page.screenshot({ path: `${screenshots}blocklist-add-${locale}.png` });
    await page.getByTestId('blocklist-add-submit').dblclick();
    const row = page.getByTestId('blocklist-table').locator('tr', { hasText: number });
    await expect(row).toContainText(locale === 'zh-CN' ? '号码' : 'Number');
    expect(adds).toHaveLength(1);

    // A bad line: named, nothing added.
    await openOverlay(page, page.getByTestId('blocklist-import'), page.getByTestId('blocklist-import-text'));
    await page.getByTestId('blocklist-import-text').fill('13700137000,ok\nabc,bad');
    await page.getByTestId('blocklist-import-submit').click();
    await expect(page.getByTestId('blocklist-import-errors')).toContainText(locale === 'zh-CN' ? '第 2 行' : 'Line 2');
    await expectNoAxeViolations(page, `blocklist import ${locale}`);
    await page.screenshot({ path: `${screenshots}blocklist-import-${locale}.png` });
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('blocklist-table')).not.toContainText('13700137000');
    await page.screenshot({ path: `${screenshots}blocklist-${locale}.png`, fullPage: true });

    // The merchant's order for it is refused, saying why.
    const login = await page.request.post('/adminapi/login/login', { data: USERS.merchant });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    const order = (account: string) =>
      page.request.post('/adminapi/order/add', {
        data: { account, product_key: 'MOBILE-DIRECT-10' },
        headers: { Authorization: `Bearer ${token}`, 'Accept-Language': locale },
      });
    const answer = (await (await order(number)).json()) as { code: number; data: { keys: { account: string } } };
    expect(answer.data.keys.account).toBe('order.account.blocked');

    // Unblocked, it orders again.
    const confirm = page.locator('.ant-popconfirm', { hasText: number });
    await openOverlay(page, page.getByTestId(`blocklist-remove-${number}`), confirm);
    await confirm.locator('.ant-btn-primary').click();
    await expect(row).toHaveCount(0);
    const again = (await (await order(number)).json()) as { code: number };
    expect(again.code).toBe(20000);
  });
}

/**
 * The filter: typed key by key while the page is still loading (zh-CN), filled at once by
 * a tool once it has settled (en-US). Either way the list shows the matching number only,
 * the address keeps the filter, and a reload keeps it.
 */
for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`the blocklist filter finds a number however it is typed (${locale})`, async ({ page }) => {
    await useLocale(page, locale);
    const login = await page.request.post('/adminapi/login/login', { data: USERS.admin });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    const stamp = String(Date.now()).slice(-7);
    const [wanted, other] = [`1371${stamp}`, `1591${stamp}`];
    for (const pattern of [wanted, other]) {
      const added = await page.request.post('/adminapi/admin/blocklist/add', {
        data: { pattern, reason: 'filter test' },
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(((await added.json()) as { code: number }).code).toBe(20000);
    }
    await loginAs(page, 'admin');
    const filter = page.getByTestId('blocklist-filter-pattern');
    if (locale === 'zh-CN') {
      // Straight after the navigation, before the list has answered.
      await page.goto('#/qoute/blocklist');
      await filter.pressSequentially(` ${wanted.slice(0, 8)} `);
    } else {
      await page.goto('#/qoute/blocklist');
      await expect(page.getByTestId('blocklist-table')).toContainText(other);
      await filter.fill(wanted.slice(0, 8));
    }
    await page.getByTestId('blocklist-search').click();
    const table = page.getByTestId('blocklist-table');
    await expect(table).toContainText(wanted);
    await expect(table).not.toContainText(other);
    expect(page.url()).toContain(`pattern=${wanted.slice(0, 8)}`);
    await page.reload();
    await expect(page.getByTestId('blocklist-filter-pattern')).toHaveValue(wanted.slice(0, 8));
    await expect(page.getByTestId('blocklist-table')).toContainText(wanted);
    await expect(page.getByTestId('blocklist-table')).not.toContainText(other);
  });
}
