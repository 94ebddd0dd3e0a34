/**
 * Staff with roles (issue 52 §1): the demo merchant's owner adds an operator on the staff
 * page; the operator signs in, sees orders but no finance pages and no staff page, and the
 * server refuses it money calls (40300) whatever the console shows. Both locales.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expectNoAxeViolations } from './support/axe';
import {
  api,
  expect,
  loginAs,
  nextAnswer,
  openEveryMenuGroup,
  openOverlay,
  refused,
  requestsTo,
  signOut,
  submitLogin,
  test,
  useLocale,
} from './support/console';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

const ADD = '/adminapi/staff/add';
const PASSWORD = 'Operator123';

const TEXTS = {
  'zh-CN': {
    title: '员工管理',
    operator: '操作员',
    added: '用户已添加',
    noPermission: /权限/,
    tag: '商户 · 操作员',
    readOnly: '只有所有者和开发者',
  },
  'en-US': {
    title: 'Staff',
    operator: 'Operator',
    added: 'User added',
    noPermission: /permission/i,
    tag: 'Merchant · Operator',
    readOnly: 'Only the owner and developers',
  },
} as const;

for (const locale of ['zh-CN', 'en-US'] as const) {
  const texts = TEXTS[locale];
  const username = `operator-${locale.toLowerCase()}`;

  test(`an owner adds an operator, who sees no finance pages and is refused them (${locale})`, async ({
    page,
    noise,
  }) => {
    await useLocale(page, locale);
    await loginAs(page, 'merchant');
    await openEveryMenuGroup(page);
    await expect(page.getByTestId('menu-item-Staff')).toHaveText(texts.title);
    await page.getByTestId('menu-item-Staff').click();
    const table = page.getByTestId('staff-table');
    await expect(table).toContainText('merchant');

    const username_field = page.getByTestId('staff-add-username');
    await openOverlay(page, page.getByTestId('staff-add'), username_field);
    // The username typed key by key, the password filled at once as a password manager does,
    // and the save double-clicked: one user added.
    const adds = requestsTo(page, ADD);
    await username_field.pressSequentially(username);
    await page.getByTestId('staff-add-password').fill(PASSWORD);
    await expect(page.getByTestId('staff-add-form')).toContainText(texts.operator);
    await expectNoAxeViolations(page, `staff add ${locale}`);
    const added = nextAnswer(page, ADD);
    await page.getByTestId('staff-add-submit').dblclick();
    expect((await added).ok()).toBe(true);
    await expect(page.getByText(texts.added).first()).toBeVisible();
    expect(adds).toHaveLength(1);
    await expect(table).toContainText(username);
    await expect(page.getByTestId(`staff-role-${username}`)).toContainText(texts.operator);
    await page.screenshot({ path: `${screenshots}staff-${locale}.png`, fullPage: true });

    // The operator: orders yes; money and staff neither in the menu nor at their address.
    await signOut(page);
    await submitLogin(page, { username, password: PASSWORD });
    await expect(page.getByTestId('workplace-page')).toBeVisible();
    await expect(page.getByTestId('workplace-role')).toHaveText(texts.tag);
    await expect(page.getByTestId('shortcut-add-order')).toBeVisible();
    await expect(page.getByTestId('shortcut-account-records')).toHaveCount(0);
    await openEveryMenuGroup(page);
    await expect(page.getByTestId('menu-item-AddList')).toBeVisible();
    await expect(page.getByTestId('menu-item-OrderList')).toBeVisible();
    for (const hidden of ['Account', 'Funding', 'Statements', 'Staff', 'SecurityHistory', 'Merchants']) {
      await expect(page.getByTestId(`menu-item-${hidden}`)).toHaveCount(0);
    }
    await page.goto('#/finance/account');
    await expect(page.getByText(texts.noPermission).first()).toBeVisible();
    await expect(page).not.toHaveURL(/finance\/account/);
    await page.screenshot({ path: `${screenshots}staff-operator-${locale}.png`, fullPage: true });
    // The integration settings are shown to an operator, not changeable.
    await page.goto('#/user/setting?tab=integration');
    await expect(page.getByTestId('integration-intro')).toContainText(texts.readOnly);
    await expect(page.getByTestId('integration-notify-url')).toBeDisabled();
    await expect(page.getByTestId('integration-save')).toBeHidden();

    // The server says the same, whatever a client shows.
    const token = await page.evaluate(() => localStorage.getItem('token'));
    noise.allow(refused(403, '/adminapi/finance/account/list'), 'the refusal is what this test checks');
    const answer = await page.request.post('/adminapi/finance/account/list', {
      data: {},
      headers: { Authorization: `Bearer ${token}`, 'Accept-Language': locale },
    });
    expect(answer.status()).toBe(403);
    expect(((await answer.json()) as { code: number }).code).toBe(40300);
    const orders = await api<{ total: number }>(page.request, token, '/adminapi/order/list', {});
    expect(orders.total).toBeGreaterThanOrEqual(0);
  });
}
