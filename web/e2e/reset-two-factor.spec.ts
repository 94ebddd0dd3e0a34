/**
 * Issue 16 point 4: an administrator resets another user's two-factor (a lost phone) from
 * the merchant's users dialog, after a confirmation; an administrator with two-factor on
 * confirms with their own code. The user then signs in with the password alone.
 * On a server of its own: the spec turns two-factor on for the merchant and the administrator.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page } from '@playwright/test';
import {
  chooseFromMenu,
  expect,
  loginAs,
  openOverlay,
  overlaysSettled,
  refused,
  signOut,
  submitLogin,
  test,
  USERS,
  useLocale,
} from './support/console';
import { useOwnServer } from './support/spec-server';
import { TotpCodes } from './support/totp';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

const server = useOwnServer();

const RESET_URL = '/adminapi/admin/user/reset2FA';

interface Envelope {
  code: number;
  msg: string;
  data: Record<string, unknown>;
}

function apiUrl(path: string): string {
  return new URL(`../${path.replace(/^\//, '')}`, server.baseURL).toString();
}

async function call(request: APIRequestContext, token: string, path: string, body?: unknown): Promise<Envelope> {
  const headers = { Authorization: `Bearer ${token}` };
  const response =
    body === undefined
      ? await request.get(apiUrl(path), { headers })
      : await request.post(apiUrl(path), { headers, data: body });
  return (await response.json()) as Envelope;
}

/** Signs `who` in through the API (two-factor still off) and turns two-factor on; its codes. */
async function enableTwoFactor(request: APIRequestContext, who: keyof typeof USERS): Promise<TotpCodes> {
  const login = (await (await request.post(apiUrl('/adminapi/login/login'), { data: USERS[who] })).json()) as Envelope;
  expect(login.code, login.msg).toBe(20000);
  const token = String(login.data.token);
  const setup = await call(request, token, '/adminapi/google-auth/setup2FA');
  expect(setup.code, setup.msg).toBe(20000);
  const codes = new TotpCodes(String(setup.data.secret));
  const enabled = await call(request, token, '/adminapi/google-auth/enable2FA', {
    code: await codes.next(),
    temp_key: setup.data.temp_key,
    password: USERS[who].password,
  });
  expect(enabled.code, enabled.msg).toBe(20000);
  return codes;
}

/** The merchants page, the demo merchant's users dialog, and the reset dialog of its user. */
async function openResetDialog(page: Page, usersItem: string, locale: string) {
  await page.goto('#/finance/merchants');
  await page.getByTestId('merchant-filter-keyword').fill('10001');
  await page.getByTestId('merchant-search').click();
  await expect(page.getByTestId('merchant-table').locator('tbody tr.ant-table-row')).toHaveCount(1);
  const dialog = page.getByTestId('merchant-users-dialog');
  await chooseFromMenu(
    () => page.getByTestId('merchant-manage').first().click({ timeout: 3_000 }),
    page.getByRole('menuitem', { name: usersItem, exact: true }),
    () => dialog.isVisible(),
  );
  await overlaysSettled(page);
  // Each user's role in the merchant (the demo merchant's first user owns it).
  await expect(page.getByTestId(`merchant-user-role-${USERS.merchant.username}`)).toHaveText(
    locale === 'zh-CN' ? '所有者' : 'Owner',
  );
  await page.screenshot({ path: `${screenshots}merchant-users-${locale}.png` });
  const reset = page.getByTestId(`merchant-user-reset-2fa-${USERS.merchant.username}`);
  await openOverlay(page, reset, page.getByTestId('reset-2fa-dialog'));
  // The administrator's own status decides whether the code field shows: wait for it.
  await expect(page.getByTestId('reset-2fa-confirm')).not.toHaveClass(/ant-btn-loading/);
}

/**
 * The merchant signs in with the password alone (no code step, straight to the workplace) and
 * finds the notice of the reset in the message center.
 */
async function merchantSignsInWithoutCode(page: Page, noticesTab: string, noticeTitle: string) {
  const usersDialog = page.getByTestId('merchant-users-dialog');
  await page.locator('.ant-modal').filter({ has: usersDialog }).locator('.ant-modal-close').click();
  await expect(usersDialog).toBeHidden();
  await signOut(page);
  await submitLogin(page, USERS.merchant);
  await expect(page.getByTestId('workplace-page')).toBeVisible();
  await expect(page.getByTestId('login-2fa-code-input')).toHaveCount(0);
  await page.goto('#/user/message');
  await page.getByRole('tab', { name: noticesTab }).click();
  await expect(page.getByText(noticeTitle).first()).toBeVisible();
}

test('an administrator resets a merchant user’s two-factor after confirming (zh-CN)', async ({ page, request }) => {
  await enableTwoFactor(request, 'merchant');
  await useLocale(page, 'zh-CN');
  await loginAs(page, 'admin');
  await openResetDialog(page, '用户', 'zh-CN');
  const dialog = page.getByTestId('reset-2fa-dialog');
  await expect(dialog).toContainText('确定关闭 merchant 的双因素认证吗？');
  // This administrator has no two-factor: the session is enough, no code asked.
  await expect(page.getByTestId('reset-2fa-code-input')).toHaveCount(0);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: `${screenshots}reset-2fa-zh-CN.png` });
  await page.getByTestId('reset-2fa-confirm').click();
  await expect(page.getByText('已关闭 merchant 的双因素认证')).toBeVisible();
  await expect(dialog).toBeHidden();
  await merchantSignsInWithoutCode(page, '通知', '双因素认证已被管理员重置');
});

test('an administrator with two-factor on confirms the reset with their own code (en-US)', async ({
  page,
  request,
  noise,
}) => {
  noise.allow(refused(401, RESET_URL), 'the wrong code this test types');
  await enableTwoFactor(request, 'merchant');
  const adminCodes = await enableTwoFactor(request, 'admin');
  await useLocale(page, 'en-US');
  await page.goto('#/login');
  await submitLogin(page, USERS.admin);
  await page.getByTestId('login-2fa-code-input').fill(await adminCodes.next());
  await page.getByTestId('login-2fa-submit').click();
  await expect(page.getByTestId('workplace-page')).toBeVisible();

  await openResetDialog(page, 'Users', 'en-US');
  const dialog = page.getByTestId('reset-2fa-dialog');
  await expect(dialog).toContainText('Turn off two-factor authentication of merchant?');
  const code = page.getByTestId('reset-2fa-code-input');
  await expect(code).toBeVisible();
  await expect(dialog).toContainText('enter your own code');
  // A wrong code is refused in the dialog; nothing is reset.
  await code.fill(adminCodes.wrong());
  await page.getByTestId('reset-2fa-confirm').click();
  await expect(page.getByTestId('reset-2fa-refusal')).toBeVisible();
  await page.screenshot({ path: `${screenshots}reset-2fa-en-US.png` });
  await code.fill(await adminCodes.next());
  await page.getByTestId('reset-2fa-confirm').click();
  await expect(page.getByText('Two-factor authentication of merchant is off')).toBeVisible();
  await expect(dialog).toBeHidden();

  // The user has no two-factor now: the list no longer offers the reset.
  await expect(page.getByTestId(`merchant-user-reset-2fa-${USERS.merchant.username}`)).toHaveCount(0);
  await expect(page.getByTestId(`merchant-user-reset-${USERS.merchant.username}`)).toBeVisible();
  await merchantSignsInWithoutCode(page, 'Notices', 'Two-factor authentication reset by an administrator');
});
